import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: PasskeyRepository {
    public func passkeys(userID: UserID, practiceID: PracticeID) async throws -> [StoredPasskey] {
        try await transaction(.practice(practiceID)) { connection in
            let found: [StoredPasskey] = try await connection.rows(
                """
                SELECT \(unescaped: AccountRows.passkeyColumns)
                FROM passkey WHERE user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue)
                ORDER BY created_at_ms, id
                """, logger: logger
            ) { try AccountRows.passkey(from: $0) }
            return found
        }
    }

    public func addPasskey(_ passkey: StoredPasskey, firstFactor: Bool, tokenHash: String, scope: AccessScope)
        async throws
    {
        let nowMs = Timestamp.milliseconds(passkey.createdAt)
        do {
            try await transaction(.practice(scope.practiceID)) { connection in
                try await connection.insert(AccountRows.insert(passkey), logger: self.logger)
                if firstFactor {
                    try await self.proveSecondFactor(
                        of: tokenHash, userID: passkey.userID, practiceID: passkey.practiceID, atMs: nowMs,
                        connection: connection)
                }
                try await self.appendAudit(
                    passkey.addedAudit(firstFactor: firstFactor), scope: scope, connection: connection)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            // The credential id is unique across the installation; another practice's row is
            // invisible here, so the constraint is what tells.
            throw StoredPasskey.alreadyRegistered
        }
    }

    public func spendPasskeyChallenge(
        _ challenge: String, passkeyID: UUID, userID: UserID, practiceID: PracticeID, expectedSignCount: Int64,
        signCount: Int64, at: Date
    ) async throws -> Bool {
        try await transaction(.practice(practiceID)) { connection in
            var spent = false
            for try await _ in try await connection.query(
                """
                UPDATE passkey SET sign_count = \(signCount), last_challenge = \(challenge),
                    last_used_at_ms = \(Timestamp.milliseconds(at))
                WHERE id = \(passkeyID) AND user_id = \(userID.rawValue) AND practice_id = \(practiceID.rawValue)
                  AND sign_count = \(expectedSignCount) AND last_challenge IS DISTINCT FROM \(challenge)
                RETURNING 1
                """, logger: logger)
            { spent = true }
            return spent
        }
    }

    public func removePasskey(id: UUID, scope: AccessScope) async throws {
        guard let userID = scope.actorID else { throw DomainError.forbidden(action: "remove a passkey") }
        try await transaction(.practice(scope.practiceID)) { connection in
            var removed = false
            for try await _ in try await connection.query(
                """
                DELETE FROM passkey
                WHERE id = \(id) AND user_id = \(userID.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                RETURNING 1
                """, logger: logger)
            { removed = true }
            guard removed else { throw DomainError.notFound(resource: "passkey") }
            try await self.appendAudit(
                AuditRecord.passkeyRemoved(id, from: userID),
                scope: scope, connection: connection)
        }
    }
}
