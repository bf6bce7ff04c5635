import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Records a new session for `account` by the SHA-256 of its token (the token itself is
    /// never stored) and audits the sign-in, in one transaction. Returns the idle expiry.
    public func createSession(
        tokenHash: String, account: StaffAccount, assurance: SessionAssurance, policy: SessionPolicy,
        requestID: String?, detail: String?
    ) async throws -> Date {
        let session = AccountRows.session(
            tokenHash: tokenHash, account: account, assurance: assurance, policy: policy, now: clock.now())
        try await write { db in
            try db.insert(session.row)
            try self.appendAudit(
                .signedIn(account, detail: detail), scope: AccessScope(account: account, requestID: requestID),
                db: db)
        }
        return session.expiresAt
    }

    /// The session of a token hash when it is neither revoked, idle-expired, past its absolute
    /// expiry, nor owned by a disabled account.
    public func liveSession(tokenHash: String, check: SessionCheck) async throws -> StoredSession? {
        let (nowMs, idleMs) = (check.nowMilliseconds, check.idleMilliseconds)
        return try await writer.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT s.last_seen_at_ms, s.expires_at_ms, s.second_factor, s.must_enrol,
                            u.* FROM session s JOIN staff_user u ON u.id = s.user_id
                        WHERE s.token_hash = ? AND s.revoked_at_ms IS NULL AND s.expires_at_ms > ?
                            AND s.last_seen_at_ms + ? > ?
                          AND u.disabled = 0
                        """), arguments: [tokenHash, nowMs, idleMs, nowMs]
            ).map { row in
                StoredSession(
                    account: try AccountRows.account(from: row), lastSeenMilliseconds: try row.read("last_seen_at_ms"),
                    expiresAtMilliseconds: try row.read("expires_at_ms"),
                    assurance: SessionAssurance(
                        secondFactor: try row.read("second_factor"), mustEnrolSecondFactor: try row.read("must_enrol")))
            }
        }
    }

    public func touchSession(tokenHash: String, practiceID: PracticeID, at milliseconds: Int64) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE session SET last_seen_at_ms = MAX(last_seen_at_ms, ?)
                    WHERE token_hash = ? AND practice_id = ? AND revoked_at_ms IS NULL
                    """,
                arguments: [milliseconds, tokenHash, practiceID.description])
        }
    }

    /// Revokes one session at once (sign-out), audited.
    public func revokeSession(tokenHash: String, scope: AccessScope) async throws {
        try await write { db in
            try db.execute(
                sql:
                    """
                    UPDATE session SET revoked_at_ms = ? WHERE token_hash = ? AND practice_id = ? AND revoked_at_ms \
                    IS NULL
                    """,
                arguments: [Timestamp.milliseconds(self.clock.now()), tokenHash, scope.practiceID.description])
            try self.appendAudit(
                .signedOut(scope), scope: scope, db: db)
        }
    }

    /// Deletes every session that has ended — signed out, past its absolute expiry, or idle
    /// longer than `policy` allows — in every practice. Such a session grants nothing any more
    /// (``activeSession(tokenHash:policy:)`` refuses it) and the sign-in and sign-out stay in
    /// the audit trail. Housekeeping, run hourly; returns how many were deleted.
    @discardableResult
    public func pruneSessions(policy: SessionPolicy) async throws -> Int {
        let check = SessionCheck(now: clock.now(), policy: policy)
        let (nowMs, idleMs) = (check.nowMilliseconds, check.idleMilliseconds)
        return try await write { db in
            try db.execute(
                sql:
                    """
                    DELETE FROM session WHERE revoked_at_ms IS NOT NULL OR expires_at_ms <= ? OR last_seen_at_ms + ? \
                    <= ?
                    """,
                arguments: [nowMs, idleMs, nowMs])
            return db.changesCount
        }
    }
}
