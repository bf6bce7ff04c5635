import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore {
    public func secondFactor(userID: UserID, practiceID: PracticeID) async throws -> StoredSecondFactor? {
        try await writer.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT sealed_secret, sealed_pending, last_step, enrolled_at_ms,
                               (SELECT COUNT(*) FROM second_factor_recovery r WHERE r.user_id = f.user_id) AS left
                        FROM second_factor f WHERE f.user_id = ? AND f.practice_id = ?
                        """, arguments: [userID.description, practiceID.description])
            else { return nil }
            let open = { (sealed: Data?) in
                try sealed.map {
                    try SealedSecondFactor.open($0, userID: userID, practiceID: practiceID, cipher: self.cipher)
                }
            }
            let enrolledMs: Int64? = try row.read("enrolled_at_ms")
            return StoredSecondFactor(
                secret: try open(try row.read("sealed_secret")),
                pendingSecret: try open(try row.read("sealed_pending")),
                lastStep: try row.read("last_step"), recoveryCodesLeft: try row.read("left"),
                enrolledAt: enrolledMs.map(Timestamp.date(milliseconds:)))
        }
    }

    public func startSecondFactor(secret: [UInt8], scope: AccessScope) async throws {
        let userID = try scope.secondFactorOwner()
        let row = try AccountRows.pendingSecondFactor(
            secret: secret, userID: userID, practiceID: scope.practiceID, cipher: cipher)
        try await write { db in
            try db.insert(row)
            try self.appendAudit(
                .secondFactorStarted(userID), scope: scope, db: db)
        }
    }

    public func confirmSecondFactor(
        secret: [UInt8], step: Int64, recoveryCodeHashes: [String], tokenHash: String, scope: AccessScope
    ) async throws -> Bool {
        let userID = try scope.secondFactorOwner()
        let nowMs = Timestamp.milliseconds(clock.now())
        return try await write { db in
            // No row and a NULL pending secret are alike: nothing to confirm.
            let pending = try Data.fetchOne(
                db, sql: "SELECT sealed_pending FROM second_factor WHERE user_id = ? AND practice_id = ?",
                arguments: [userID.description, scope.practiceID.description])
            guard
                try SealedSecondFactor.pending(
                    pending, is: secret, userID: userID, practiceID: scope.practiceID, cipher: self.cipher)
            else { return false }
            try db.execute(
                sql: """
                    UPDATE second_factor SET sealed_secret = sealed_pending, sealed_pending = NULL,
                        last_step = MAX(last_step, ?), enrolled_at_ms = ?
                    WHERE user_id = ? AND practice_id = ?
                    """, arguments: [step, nowMs, userID.description, scope.practiceID.description])
            try db.execute(
                sql: "DELETE FROM second_factor_recovery WHERE user_id = ? AND practice_id = ?",
                arguments: [userID.description, scope.practiceID.description])
            for hash in recoveryCodeHashes {
                try db.execute(
                    sql: "INSERT INTO second_factor_recovery (user_id, practice_id, code_hash) VALUES (?, ?, ?)",
                    arguments: [userID.description, scope.practiceID.description, hash])
            }
            try Self.proveSecondFactor(
                of: tokenHash, userID: userID, practiceID: scope.practiceID, atMs: nowMs, db: db)
            try self.appendAudit(
                .secondFactorEnrolled(userID, recoveryCodes: recoveryCodeHashes.count), scope: scope, db: db)
            return true
        }
    }

    public func spendSecondFactorStep(_ step: Int64, userID: UserID, practiceID: PracticeID) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE second_factor SET last_step = ?
                    WHERE user_id = ? AND practice_id = ? AND last_step < ? AND sealed_secret IS NOT NULL
                    """, arguments: [step, userID.description, practiceID.description, step])
            return db.changesCount == 1
        }
    }

    public func spendRecoveryCode(hash codeHash: String, userID: UserID, practiceID: PracticeID) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM second_factor_recovery WHERE user_id = ? AND practice_id = ? AND code_hash = ?",
                arguments: [userID.description, practiceID.description, codeHash])
            return db.changesCount == 1
        }
    }

    public func resetSecondFactor(userID: UserID, scope: AccessScope) async throws {
        try await write { db in
            guard try Self.user(db: db, practiceID: scope.practiceID, id: userID) != nil else {
                throw DomainError.notFound(resource: "user")
            }
            try db.execute(
                sql: "DELETE FROM second_factor_recovery WHERE user_id = ? AND practice_id = ?",
                arguments: [userID.description, scope.practiceID.description])
            try db.execute(
                sql: "DELETE FROM second_factor WHERE user_id = ? AND practice_id = ?",
                arguments: [userID.description, scope.practiceID.description])
            // A lost phone is often a lost iPad too: the passkeys go with the codes.
            try db.execute(
                sql: "DELETE FROM passkey WHERE user_id = ? AND practice_id = ?",
                arguments: [userID.description, scope.practiceID.description])
            try db.execute(
                sql:
                    """
                    UPDATE session SET revoked_at_ms = ? WHERE user_id = ? AND practice_id = ? AND revoked_at_ms IS NULL
                    """,
                arguments: [Timestamp.milliseconds(self.clock.now()), userID.description, scope.practiceID.description])
            try self.appendAudit(
                AuditRecord.user(.authSecondFactorReset, userID),
                scope: scope, db: db)
        }
    }

    /// The session of `tokenHash` proven by the account's new second factor, and the account's
    /// other sessions ended (they were opened without it), in the caller's transaction.
    static func proveSecondFactor(
        of tokenHash: String, userID: UserID, practiceID: PracticeID, atMs nowMs: Int64, db: Database
    ) throws {
        try db.execute(
            sql: """
                UPDATE session SET revoked_at_ms = ?
                WHERE user_id = ? AND practice_id = ? AND token_hash <> ? AND revoked_at_ms IS NULL
                """, arguments: [nowMs, userID.description, practiceID.description, tokenHash])
        try db.execute(
            sql: "UPDATE session SET second_factor = 1, must_enrol = 0 WHERE token_hash = ? AND user_id = ?",
            arguments: [tokenHash, userID.description])
    }
}
