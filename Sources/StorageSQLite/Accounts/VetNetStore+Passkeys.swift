import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore: PasskeyRepository {
    public func passkeys(userID: UserID, practiceID: PracticeID) async throws -> [StoredPasskey] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(AccountRows.passkeyColumns) FROM passkey WHERE user_id = ? AND practice_id = ?
                    ORDER BY created_at_ms, id
                    """, arguments: [userID.description, practiceID.description]
            ).map(AccountRows.passkey(from:))
        }
    }

    public func addPasskey(_ passkey: StoredPasskey, firstFactor: Bool, tokenHash: String, scope: AccessScope)
        async throws
    {
        let nowMs = Timestamp.milliseconds(passkey.createdAt)
        try await write { db in
            guard
                try Row.fetchOne(
                    db, sql: "SELECT 1 FROM passkey WHERE credential_id = ?", arguments: [passkey.credentialID])
                    == nil
            else { throw StoredPasskey.alreadyRegistered }
            try db.insert(AccountRows.insert(passkey))
            if firstFactor {
                try Self.proveSecondFactor(
                    of: tokenHash, userID: passkey.userID, practiceID: passkey.practiceID, atMs: nowMs, db: db)
            }
            try self.appendAudit(
                passkey.addedAudit(firstFactor: firstFactor), scope: scope, db: db)
        }
    }

    public func spendPasskeyChallenge(
        _ challenge: String, passkeyID: UUID, userID: UserID, practiceID: PracticeID, expectedSignCount: Int64,
        signCount: Int64, at: Date
    ) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE passkey SET sign_count = ?, last_challenge = ?, last_used_at_ms = ?
                    WHERE id = ? AND user_id = ? AND practice_id = ? AND sign_count = ?
                      AND (last_challenge IS NULL OR last_challenge <> ?)
                    """,
                arguments: [
                    signCount, challenge, Timestamp.milliseconds(at), UUIDText.lowercase(passkeyID),
                    userID.description, practiceID.description, expectedSignCount, challenge,
                ])
            return db.changesCount == 1
        }
    }

    public func removePasskey(id: UUID, scope: AccessScope) async throws {
        guard let userID = scope.actorID else { throw DomainError.forbidden(action: "remove a passkey") }
        try await write { db in
            try db.execute(
                sql: "DELETE FROM passkey WHERE id = ? AND user_id = ? AND practice_id = ?",
                arguments: [UUIDText.lowercase(id), userID.description, scope.practiceID.description])
            guard db.changesCount == 1 else { throw DomainError.notFound(resource: "passkey") }
            try self.appendAudit(
                AuditRecord.passkeyRemoved(id, from: userID),
                scope: scope, db: db)
        }
    }
}
