import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: SecondFactorRepository {
    public func secondFactor(userID: UserID, practiceID: PracticeID) async throws -> StoredSecondFactor? {
        try await transaction(.practice(practiceID)) { connection in
            for try await (secret, pending, lastStep, enrolledMs, left) in try await connection.query(
                """
                SELECT sealed_secret, sealed_pending, last_step, enrolled_at_ms,
                       (SELECT COUNT(*) FROM second_factor_recovery r WHERE r.user_id = f.user_id
                           AND r.practice_id = f.practice_id)
                FROM second_factor f WHERE f.user_id = \(userID.rawValue) AND f.practice_id = \(practiceID.rawValue)
                """, logger: logger
            ).decode((Data?, Data?, Int64, Int64?, Int64).self) {
                let open = { (sealed: Data?) in
                    try sealed.map {
                        try SealedSecondFactor.open($0, userID: userID, practiceID: practiceID, cipher: self.cipher)
                    }
                }
                return StoredSecondFactor(
                    secret: try open(secret), pendingSecret: try open(pending), lastStep: lastStep,
                    recoveryCodesLeft: Int(left), enrolledAt: enrolledMs.map(Timestamp.date(milliseconds:)))
            }
            return nil
        }
    }

    public func startSecondFactor(secret: [UInt8], scope: AccessScope) async throws {
        let userID = try scope.secondFactorOwner()
        let row = try AccountRows.pendingSecondFactor(
            secret: secret, userID: userID, practiceID: scope.practiceID, cipher: cipher)
        try await transaction(.practice(scope.practiceID)) { connection in
            try await connection.insert(row, logger: self.logger)
            try await self.appendAudit(
                .secondFactorStarted(userID), scope: scope, connection: connection)
        }
    }

    public func confirmSecondFactor(
        secret: [UInt8], step: Int64, recoveryCodeHashes: [String], tokenHash: String, scope: AccessScope
    ) async throws -> Bool {
        let userID = try scope.secondFactorOwner()
        let nowMs = Timestamp.milliseconds(clock.now())
        let practice = scope.practiceID.rawValue
        return try await transaction(.practice(scope.practiceID)) { connection in
            // Locked, then compared opened (sealing is randomized): a concurrent start waits.
            var pending: Data?
            for try await sealed in try await connection.query(
                """
                SELECT sealed_pending FROM second_factor WHERE user_id = \(userID.rawValue)
                    AND practice_id = \(practice) FOR UPDATE
                """, logger: logger
            ).decode(Data?.self) { pending = sealed }
            guard
                try SealedSecondFactor.pending(
                    pending, is: secret, userID: userID, practiceID: scope.practiceID, cipher: self.cipher)
            else { return false }
            try await connection.query(
                """
                UPDATE second_factor SET sealed_secret = sealed_pending, sealed_pending = NULL,
                    last_step = GREATEST(last_step, \(step)), enrolled_at_ms = \(nowMs)
                WHERE user_id = \(userID.rawValue) AND practice_id = \(practice)
                """, logger: logger)
            try await connection.query(
                "DELETE FROM second_factor_recovery WHERE user_id = \(userID.rawValue) AND practice_id = \(practice)",
                logger: logger)
            try await connection.query(
                """
                INSERT INTO second_factor_recovery (user_id, practice_id, code_hash)
                SELECT \(userID.rawValue), \(practice), unnest(\(recoveryCodeHashes)::text[])
                """, logger: logger)
            try await self.proveSecondFactor(
                of: tokenHash, userID: userID, practiceID: scope.practiceID, atMs: nowMs, connection: connection)
            try await self.appendAudit(
                .secondFactorEnrolled(userID, recoveryCodes: recoveryCodeHashes.count), scope: scope,
                connection: connection)
            return true
        }
    }

    public func spendSecondFactorStep(_ step: Int64, userID: UserID, practiceID: PracticeID) async throws -> Bool {
        try await transaction(.practice(practiceID)) { connection in
            var spent = false
            for try await _ in try await connection.query(
                """
                UPDATE second_factor SET last_step = \(step)
                WHERE user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue) AND last_step < \(step)
                  AND sealed_secret IS NOT NULL
                RETURNING 1
                """, logger: logger)
            { spent = true }
            return spent
        }
    }

    public func spendRecoveryCode(hash codeHash: String, userID: UserID, practiceID: PracticeID) async throws -> Bool {
        try await transaction(.practice(practiceID)) { connection in
            var spent = false
            for try await _ in try await connection.query(
                """
                DELETE FROM second_factor_recovery
                WHERE user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue) AND code_hash = \(codeHash)
                RETURNING 1
                """, logger: logger)
            { spent = true }
            return spent
        }
    }

    public func resetSecondFactor(userID: UserID, scope: AccessScope) async throws {
        let nowMs = Timestamp.milliseconds(clock.now())
        let practice = scope.practiceID.rawValue
        try await transaction(.practice(scope.practiceID)) { connection in
            var found = false
            for try await _ in try await connection.query(
                "SELECT 1 FROM staff_user WHERE id = \(userID.rawValue) AND practice_id = \(practice)", logger: logger)
            { found = true }
            guard found else { throw DomainError.notFound(resource: "user") }
            try await connection.query(
                "DELETE FROM second_factor_recovery WHERE user_id = \(userID.rawValue) AND practice_id = \(practice)",
                logger: logger)
            try await connection.query(
                "DELETE FROM second_factor WHERE user_id = \(userID.rawValue) AND practice_id = \(practice)",
                logger: logger)
            // A lost phone is often a lost iPad too: the passkeys go with the codes.
            try await connection.query(
                "DELETE FROM passkey WHERE user_id = \(userID.rawValue) AND practice_id = \(practice)", logger: logger)
            try await connection.query(
                """
                UPDATE session SET revoked_at_ms = \(nowMs)
                WHERE user_id = \(userID.rawValue) AND practice_id = \(practice) AND revoked_at_ms IS NULL
                """, logger: logger)
            try await self.appendAudit(
                AuditRecord.user(.authSecondFactorReset, userID),
                scope: scope, connection: connection)
        }
    }

    /// The session of `tokenHash` proven by the account's new second factor, and the account's
    /// other sessions ended (they were opened without it), in the caller's transaction.
    func proveSecondFactor(
        of tokenHash: String, userID: UserID, practiceID: PracticeID, atMs nowMs: Int64, connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            UPDATE session SET revoked_at_ms = \(nowMs)
            WHERE user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue) AND token_hash <> \(tokenHash)
              AND revoked_at_ms IS NULL
            """, logger: logger)
        try await connection.query(
            """
            UPDATE session SET second_factor = true, must_enrol = false
            WHERE token_hash = \(tokenHash) AND user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue)
            """, logger: logger)
    }
}
