import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: SharedDeviceRepository {
    public func registerSharedDevice(name: String, idleLockSeconds: Int, tokenHash: String, scope: AccessScope)
        async throws -> SharedDevice
    {
        let (device, row) = AccountRows.sharedDevice(
            name: name, idleLockSeconds: idleLockSeconds, tokenHash: tokenHash, scope: scope, now: clock.now())
        try await transaction(.practice(scope.practiceID)) { connection in
            try await connection.insert(row, logger: self.logger)
            try await self.appendAudit(
                .sharedDeviceRegistered(device), scope: scope, connection: connection)
        }
        return device
    }

    public func sharedDevices(scope: AccessScope) async throws -> [SharedDevice] {
        try await transaction(.practice(scope.practiceID)) { connection in
            let devices: [SharedDevice] = try await connection.rows(
                """
                SELECT \(unescaped: AccountRows.sharedDeviceColumns) FROM shared_device
                WHERE practice_id = \(scope.practiceID.rawValue) AND revoked_at_ms IS NULL
                ORDER BY registered_at_ms, id
                """, logger: logger
            ) { try AccountRows.sharedDevice(from: $0) }
            try await self.appendAudit(
                AuditRecord.sharedDevice(.sharedDeviceList), scope: scope,
                connection: connection)
            return devices
        }
    }

    public func revokeSharedDevice(id: UUID, scope: AccessScope) async throws {
        let nowMs = Timestamp.milliseconds(clock.now())
        try await transaction(.practice(scope.practiceID)) { connection in
            var found = false
            for try await _ in try await connection.query(
                """
                UPDATE shared_device SET revoked_at_ms = \(nowMs)
                WHERE id = \(id) AND practice_id = \(scope.practiceID.rawValue) AND revoked_at_ms IS NULL RETURNING 1
                """, logger: logger)
            { found = true }
            guard found else { throw DomainError.notFound(resource: "shared device") }
            try await self.appendAudit(
                AuditRecord.sharedDevice(.sharedDeviceRevoke, id),
                scope: scope, connection: connection)
        }
    }

    public func sharedDevice(tokenHash: String, practiceID: PracticeID) async throws -> SharedDevice? {
        try await transaction(.practice(practiceID)) { connection in
            try await connection.firstRow(
                """
                SELECT \(unescaped: AccountRows.sharedDeviceColumns) FROM shared_device
                WHERE token_hash = \(tokenHash) AND practice_id = \(practiceID.rawValue) AND revoked_at_ms IS NULL
                """, logger: logger
            ) { try AccountRows.sharedDevice(from: $0) }
        }
    }

    public func setPin(hash: String, scope: AccessScope) async throws {
        guard let userID = scope.actorID else { throw DomainError.forbidden(action: "set a PIN") }
        let now = clock.now()
        try await transaction(.practice(scope.practiceID)) { connection in
            try await connection.insert(
                AccountRows.pin(hash: hash, userID: userID, practiceID: scope.practiceID, at: now), logger: self.logger)
            try await self.appendAudit(
                AuditRecord.user(.authPinSet, userID), scope: scope,
                connection: connection)
        }
    }

    public func pinHash(userID: UserID, practiceID: PracticeID) async throws -> String? {
        try await transaction(.practice(practiceID)) { connection in
            for try await hash in try await connection.query(
                """
                SELECT pin_hash FROM staff_pin WHERE user_id = \(userID.rawValue)
                    AND practice_id = \(practiceID.rawValue)
                """, logger: logger
            ).decode(String.self) { return hash }
            return nil
        }
    }

    public func recordDeviceSignIn(
        deviceID: UUID, userID: UserID, practiceID: PracticeID, secondFactor: Bool, at: Date
    ) async throws {
        _ = try await transaction(.practice(practiceID)) { connection in
            try await connection.insert(
                AccountRows.deviceSignIn(
                    deviceID: deviceID, userID: userID, practiceID: practiceID, secondFactor: secondFactor, at: at),
                logger: self.logger)
        }
    }

    public func deviceSignIn(deviceID: UUID, userID: UserID, practiceID: PracticeID) async throws -> DeviceSignIn? {
        try await transaction(.practice(practiceID)) { connection in
            for try await (at, secondFactor) in try await connection.query(
                """
                SELECT signed_in_at_ms, second_factor FROM shared_device_sign_in
                WHERE device_id = \(deviceID) AND user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue)
                """, logger: logger
            ).decode((Int64, Bool).self) {
                return DeviceSignIn(at: Timestamp.date(milliseconds: at), secondFactor: secondFactor)
            }
            return nil
        }
    }
}
