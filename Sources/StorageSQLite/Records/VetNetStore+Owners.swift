import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Creates an owner in the scope's practice (validated, audited, idempotent per key).
    public func createOwner(_ owner: Owner, scope: AccessScope, idempotencyKey: IdempotencyKey? = nil) async throws -> (
        Versioned<Owner>, replayed: Bool
    ) {
        try owner.validate()
        return try await write { db in
            let (id, replayed) = try self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: .ownerCreate)
            {
                try self.insertOwner(owner, db: db, scope: scope)
                try self.appendEvent(
                    owner.changeEvent(isNew: true, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                    scope: scope, db: db)
                return owner.id.description
            }
            guard let stored = try Self.owner(db: db, practiceID: scope.practiceID, id: id) else {
                throw DomainError.notFound(resource: "owner")
            }
            return (stored, replayed)
        }
    }

    /// Creates an owner (system helper kept for seeding and tests).
    @discardableResult
    public func createOwner(_ owner: Owner, scope: AccessScope) async throws -> Owner {
        try await createOwner(owner, scope: scope, idempotencyKey: nil).0.value
    }

    /// Replaces an owner's details under optimistic concurrency; re-indexes their patients for search.
    public func updateOwner(_ owner: Owner, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<Owner>
    {
        try owner.validate()
        return try await write { db in
            guard let current = try Self.owner(db: db, practiceID: scope.practiceID, id: owner.id.description) else {
                throw DomainError.notFound(resource: "owner")
            }
            if let expectedVersion, expectedVersion != current.version {
                throw DomainError.versionMismatch(current: current.version)
            }
            let columns = try Self.ownerColumns(owner)
            try db.execute(
                sql: """
                    UPDATE owner SET first_name = ?, last_name = ?, email = ?, phones = ?, phone_digits = ?, address = ?, communication = ?,
                                     notes = ?, updated_at = ?, version = version + 1
                    WHERE id = ? AND practice_id = ?
                    """,
                arguments: [
                    owner.firstName, owner.lastName, owner.email, columns.phones, columns.digits, columns.address,
                    columns.communication,
                    owner.notes, Timestamp.string(self.clock.now()), owner.id.description, scope.practiceID.description,
                ])
            for patientID in try String.fetchAll(
                db, sql: "SELECT id FROM patient WHERE (owner_id = ? OR co_owner_id = ?) AND practice_id = ?",
                arguments: [owner.id.description, owner.id.description, scope.practiceID.description])
            {
                try Self.reindexPatient(db: db, id: patientID)
            }
            try self.appendAudit(
                AuditRecord(action: .ownerUpdate, resourceType: "owner", resourceID: owner.id.description),
                scope: scope, db: db)
            try self.appendEvent(
                owner.changeEvent(isNew: false, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                scope: scope, db: db)
            return Versioned(owner, version: current.version + 1)
        }
    }

    // MARK: - Reading

    /// One owner (audited read).
    public func owner(scope: AccessScope, id: Identifier<Owner>) async throws -> Versioned<Owner> {
        try await write { db in
            guard let owner = try Self.owner(db: db, practiceID: scope.practiceID, id: id.description) else {
                throw DomainError.notFound(resource: "owner")
            }
            try self.appendAudit(
                AuditRecord(action: .ownerRead, resourceType: "owner", resourceID: id.description), scope: scope, db: db
            )
            return owner
        }
    }

    /// Number of owners in the scope's practice.
    public func ownerCount(scope: AccessScope) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM owner WHERE practice_id = ?", arguments: [scope.practiceID.description])
                ?? 0
        }
    }

    // MARK: - Rows

    func insertOwner(_ owner: Owner, db: Database, scope: AccessScope) throws {
        let columns = try Self.ownerColumns(owner)
        let now = Timestamp.string(clock.now())
        try db.execute(
            sql: """
                INSERT INTO owner (id, practice_id, first_name, last_name, email, phones, phone_digits, address, communication,
                                   notes, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                owner.id.description, scope.practiceID.description, owner.firstName, owner.lastName, owner.email,
                columns.phones, columns.digits, columns.address, columns.communication, owner.notes, now, now,
            ])
        try appendAudit(
            AuditRecord(action: .ownerCreate, resourceType: "owner", resourceID: owner.id.description), scope: scope,
            db: db)
    }

    static func ownerColumns(_ owner: Owner) throws -> (
        phones: String, digits: String, address: String?, communication: String
    ) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (
            String(decoding: try encoder.encode(owner.phones), as: UTF8.self),
            owner.phones.map(\.digits).joined(separator: " "),
            try owner.address.map { String(decoding: try encoder.encode($0), as: UTF8.self) },
            String(decoding: try encoder.encode(owner.communication), as: UTF8.self)
        )
    }

    static func owner(db: Database, practiceID: PracticeID, id: String) throws -> Versioned<Owner>? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM owner WHERE id = ? AND practice_id = ?", arguments: [id, practiceID.description]
        ).map(owner(from:))
    }

    static func owner(from row: Row) throws -> Versioned<Owner> {
        let decoder = JSONDecoder()
        func decode<T: Decodable>(_ type: T.Type, _ column: String) -> T? {
            (row[column] as String?).flatMap { try? decoder.decode(T.self, from: Data($0.utf8)) }
        }
        let owner = Owner(
            id: try row.identifier("id"), firstName: row["first_name"], lastName: row["last_name"], email: row["email"],
            phones: decode([PhoneNumber].self, "phones") ?? [], address: decode(PostalAddress.self, "address"),
            communication: decode(CommunicationPreferences.self, "communication") ?? .init(), notes: row["notes"])
        return Versioned(owner, version: row["version"])
    }
}
