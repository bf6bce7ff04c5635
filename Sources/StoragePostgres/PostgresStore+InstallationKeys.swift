import Crypto
import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

/// An instance whose keys are not the ones the database was set up with.
public struct InstallationKeyMismatch: Error, CustomStringConvertible {
    /// Which key differs: `VETNET_AUDIT_KEY` or `VETNET_RECORD_KEY`.
    public let key: String
    public var description: String {
        "\(key) is not the key this database was set up with: every instance on one database needs the same "
            + "VETNET_AUDIT_KEY and VETNET_RECORD_KEY (copy them from the first instance's configuration)"
    }
}

extension PostgresStore {
    /// Checks this instance's keys against the fingerprints the first instance recorded (and
    /// records them on a new database). Called before the server starts: an instance with a
    /// wrong key refuses to run rather than fork the audit chain or seal unreadable notes.
    public func checkInstallationKeys() async throws {
        let audit = Self.fingerprint(auditKey.symmetricKey)
        let record = Self.fingerprint(SymmetricKey(data: cipher.keyBytes))
        let stored = try await transaction(.installation) { connection -> (String, String) in
            for try await row in try await connection.query(
                "SELECT audit_key_check, record_key_check FROM installation_key", logger: logger)
            {
                return try row.decode((String, String).self)
            }
            // A new database: the first instance (its owner, `vetnet migrate`) records them.
            try await connection.query(
                """
                INSERT INTO installation_key (audit_key_check, record_key_check) VALUES (\(audit), \(record))
                ON CONFLICT (singleton) DO NOTHING
                """, logger: logger)
            for try await row in try await connection.query(
                "SELECT audit_key_check, record_key_check FROM installation_key", logger: logger)
            {
                return try row.decode((String, String).self)
            }
            throw StoreCorruption(column: "installation_key", reason: "the fingerprint row is missing")
        }
        if stored.0 != audit { throw InstallationKeyMismatch(key: "VETNET_AUDIT_KEY") }
        if stored.1 != record { throw InstallationKeyMismatch(key: "VETNET_RECORD_KEY") }
    }

    /// HMAC of a fixed label under `key`: shows whether two keys are equal without revealing either.
    static func fingerprint(_ key: SymmetricKey) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data("vetnet installation key check".utf8), using: key))
    }
}

// MARK: - The serving role

extension PostgresStore {
    /// What the role this store connects as may do beyond serving.
    public struct ServingRole: Sendable, Equatable {
        /// It owns the schema: it could alter tables, triggers and policies, and act for the
        /// installation (a deployment should serve as a runtime role; docs/postgresql.md).
        public let ownsSchema: Bool
        /// It is a superuser or has `BYPASSRLS`: row-level security would not bind it.
        public let bypassesRowLevelSecurity: Bool
    }

    /// Reads what the connected role may do (checked before the server starts).
    public func servingRole() async throws -> ServingRole {
        try await client.withConnection { connection in
            let query =
                "SELECT COALESCE(\(PostgresSchema.connectedRoleOwnsSchemaSQL), false), rolsuper OR rolbypassrls "
                + "FROM pg_catalog.pg_roles WHERE rolname = current_user"
            for try await (owns, bypasses) in try await connection.query(
                PostgresQuery(unsafeSQL: query), logger: logger
            ).decode((Bool, Bool).self) {
                return ServingRole(ownsSchema: owns, bypassesRowLevelSecurity: bypasses)
            }
            throw StoreCorruption(column: "pg_roles", reason: "the connected role is not listed")
        }
    }
}
