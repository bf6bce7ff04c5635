import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore: SharedDeviceRepository {
    public func registerSharedDevice(name: String, idleLockSeconds: Int, tokenHash: String, scope: AccessScope)
        async throws -> SharedDevice
    {
        let device = SharedDevice(
            id: UUID(), practiceID: scope.practiceID, name: name,
            idleLockSeconds: idleLockSeconds, registeredAt: clock.now(), registeredBy: scope.actorID)
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO shared_device (id, practice_id, name, idle_lock_seconds, token_hash, registered_by,
                        registered_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    UUIDText.lowercase(device.id), scope.practiceID.description, device.name, idleLockSeconds,
                    tokenHash, scope.actorID?.description, Timestamp.milliseconds(device.registeredAt),
                ])
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
                AuditRecord(action: .sharedDeviceList, resourceType: .sharedDevice), scope: scope, db: db)
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
                AuditRecord(
                    action: .sharedDeviceRevoke, resourceType: .sharedDevice, resourceID: UUIDText.lowercase(id)),
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
            try db.execute(
                sql: """
                    INSERT INTO staff_pin (user_id, practice_id, pin_hash, set_at_ms) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET pin_hash = excluded.pin_hash, set_at_ms = excluded.set_at_ms
                    """,
                arguments: [
                    userID.description, scope.practiceID.description, hash, Timestamp.milliseconds(self.clock.now()),
                ])
            try self.appendAudit(
                AuditRecord(action: .authPinSet, resourceType: .user, resourceID: userID.description), scope: scope,
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
            try db.execute(
                sql: """
                    INSERT INTO shared_device_sign_in (device_id, user_id, practice_id, signed_in_at_ms, second_factor)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (device_id, user_id) DO UPDATE
                    SET signed_in_at_ms = excluded.signed_in_at_ms, second_factor = excluded.second_factor
                    """,
                arguments: [
                    UUIDText.lowercase(deviceID), userID.description, practiceID.description,
                    Timestamp.milliseconds(at), secondFactor,
                ])
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
