import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Runs `create` at most once per idempotency key: the key is claimed in the same
    /// transaction as the creation, so concurrent retries serialize on SQLite's writer lock and
    /// all but the first find the key and get the first resource's id. Returns the id and
    /// whether this was a replay.
    ///
    /// A key belongs to the account that sent it: another account's same key is a request of
    /// its own; the same account's key reused for a different request is refused; every
    /// replay is audited as a read of what it returns.
    func idempotent(
        db: Database, scope: AccessScope, key: IdempotencyKey?, operation: AuditAction,
        create: () throws -> String
    ) throws -> (id: String, replayed: Bool) {
        guard let key else { return (try create(), false) }
        let actor = scope.actorID?.description ?? ""
        if let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT operation, fingerprint,
                        resource_id FROM idempotency_key WHERE practice_id = ? AND IFNULL(actor_id, '') = ? AND key = ?
                    """), arguments: [scope.practiceID.description, actor, key.key])
        {
            try key.replaying(
                operation, claimedBy: try row.read("operation") ?? "", fingerprint: try row.read("fingerprint") ?? "")
            let id: String = try row.read("resource_id")
            try appendAudit(.replay(of: operation, resourceID: id), scope: scope, db: db)
            return (id, true)
        }
        let id = try create()
        try db.execute(
            sql:
                """
                INSERT INTO idempotency_key (practice_id, key, operation, fingerprint, resource_id, created_at, \
                actor_id) VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                scope.practiceID.description, key.key, operation.name, key.fingerprint, id,
                Timestamp.string(clock.now()),
                scope.actorID?.description,
            ])
        return (id, false)
    }

    /// Forgets idempotency keys claimed more than `age` ago (by default
    /// ``IdempotencyKey/retention``, 24 hours), in every practice. Housekeeping; returns how many.
    @discardableResult
    public func pruneIdempotencyKeys(olderThan age: TimeInterval = IdempotencyKey.retention) async throws -> Int {
        let cutoff = Timestamp.string(clock.now().addingTimeInterval(-age))
        return try await write { db in
            try db.execute(sql: "DELETE FROM idempotency_key WHERE created_at < ?", arguments: [cutoff])
            return db.changesCount
        }
    }
}
