import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore: SharedDeviceRepository {
    public func registerSharedDevice(name: String, idleLockSeconds: Int, tokenHash: String, scope: AccessScope)
        async throws -> SharedDevice
    {
        let (device, row) = AccountRows.sharedDevice(
            name: name, idleLockSeconds: idleLockSeconds, tokenHash: tokenHash, scope: scope, now: clock.now())
        try await write { db in
            try db.insert(row)
            try self.appendAudit(
                .sharedDeviceRegistered(device), scope: scope, db: db)
        }
        return device
    }

    public func sharedDevices(scope: AccessScope) async throws -> [SharedDevice] {
        try await write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(AccountRows.sharedDeviceColumns) FROM shared_device
                    WHERE practice_id = ? AND revoked_at_ms IS NULL
                    ORDER BY registered_at_ms, id
                    """, arguments: [scope.practiceID.description])
            try self.appendAudit(
                AuditRecord.sharedDevice(.sharedDeviceList), scope: scope, db: db)
            return try rows.map(AccountRows.sharedDevice(from:))
        }
    }

    public func revokeSharedDevice(id: UUID, scope: AccessScope) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE shared_device SET revoked_at_ms = ?
                    WHERE id = ? AND practice_id = ? AND revoked_at_ms IS NULL
                    """,
                arguments: [
                    Timestamp.milliseconds(self.clock.now()), UUIDText.lowercase(id), scope.practiceID.description,
                ])
            guard db.changesCount == 1 else { throw DomainError.notFound(resource: "shared device") }
            try self.appendAudit(
                AuditRecord.sharedDevice(.sharedDeviceRevoke, id),
                scope: scope, db: db)
        }
    }

    public func sharedDevice(tokenHash: String, practiceID: PracticeID) async throws -> SharedDevice? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT \(AccountRows.sharedDeviceColumns) FROM shared_device
                    WHERE token_hash = ? AND practice_id = ? AND revoked_at_ms IS NULL
                    """,
                arguments: [tokenHash, practiceID.description]
            ).map(AccountRows.sharedDevice(from:))
        }
    }

    public func setPin(hash: String, scope: AccessScope) async throws {
        guard let userID = scope.actorID else { throw DomainError.forbidden(action: "set a PIN") }
        try await write { db in
            try db.insert(
                AccountRows.pin(hash: hash, userID: userID, practiceID: scope.practiceID, at: self.clock.now()))
            try self.appendAudit(
                AuditRecord.user(.authPinSet, userID), scope: scope,
                db: db)
        }
    }

    public func pinHash(userID: UserID, practiceID: PracticeID) async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(
                db, sql: "SELECT pin_hash FROM staff_pin WHERE user_id = ? AND practice_id = ?",
                arguments: [userID.description, practiceID.description])
        }
    }

    public func recordDeviceSignIn(
        deviceID: UUID, userID: UserID, practiceID: PracticeID, secondFactor: Bool, at: Date
    ) async throws {
        try await write { db in
            try db.insert(
                AccountRows.deviceSignIn(
                    deviceID: deviceID, userID: userID, practiceID: practiceID, secondFactor: secondFactor, at: at))
        }
    }

    public func deviceSignIn(deviceID: UUID, userID: UserID, practiceID: PracticeID) async throws -> DeviceSignIn? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT signed_in_at_ms, second_factor FROM shared_device_sign_in
                    WHERE device_id = ? AND user_id = ? AND practice_id = ?
                    """, arguments: [UUIDText.lowercase(deviceID), userID.description, practiceID.description]
            ).map { row in
                DeviceSignIn(
                    at: Timestamp.date(milliseconds: try row.read("signed_in_at_ms")),
                    secondFactor: try row.read("second_factor"))
            }
        }
    }
}
