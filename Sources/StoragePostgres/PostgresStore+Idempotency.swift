import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Claims `key` for `operation` in the caller's transaction, or finds the resource of the
    /// request that claimed it first.
    ///
    /// The claim is an insert into a primary key: when another instance's transaction holds
    /// the same key uncommitted, this waits for it, and then either finds its committed
    /// resource (a replay) or — if it rolled back — claims the key itself. Returns the first
    /// resource's id for a replay (audited as a read of what it returns), `nil` when this
    /// transaction now owns the key and must ``finishClaim(_:operation:resourceID:scope:connection:)``.
    ///
    /// A key belongs to the account that sent it: another account's same key is a claim of
    /// its own; the same account's key with a different request is refused.
    func claim(_ key: IdempotencyKey, operation: AuditAction, scope: AccessScope, connection: PostgresConnection)
        async throws -> String?
    {
        let practice = scope.practiceID.rawValue
        let actor = scope.actorID?.description
        let nowMs = Timestamp.milliseconds(clock.now())
        var claimed = false
        for try await _ in try await connection.query(
            """
            INSERT INTO idempotency_key (practice_id, operation, key, fingerprint, actor_id, created_at_ms)
            VALUES (\(practice), \(operation.name), \(key.key), \(key.fingerprint), \(actor), \(nowMs))
            ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger)
        { claimed = true }
        if claimed { return nil }
        for try await (storedOperation, fingerprint, resource) in try await connection.query(
            """
            SELECT operation, fingerprint, resource_id FROM idempotency_key
            WHERE practice_id = \(practice) AND COALESCE(actor_id, '') = \(actor ?? "") AND key = \(key.key)
            """, logger: logger
        ).decode((String, String, String?).self) {
            // As in the embedded store, a key names one request of one account, whatever the operation.
            try key.replaying(operation, claimedBy: storedOperation, fingerprint: fingerprint)
            guard let resource else {
                throw StoreCorruption(
                    column: "idempotency_key.resource_id", reason: "a committed claim names no resource")
            }
            _ = try await appendAudit(
                .replay(of: operation, resourceID: resource), scope: scope, connection: connection)
            return resource
        }
        // Claimed and released between the two statements (pruned): a retry claims it afresh.
        throw TransientFailure()
    }

    /// Records the resource the claiming transaction created under `key`.
    func finishClaim(
        _ key: IdempotencyKey, operation: AuditAction, resourceID: String, scope: AccessScope,
        connection: PostgresConnection
    ) async throws {
        try await connection.query(
            """
            UPDATE idempotency_key SET resource_id = \(resourceID)
            WHERE practice_id = \(scope.practiceID.rawValue) AND COALESCE(actor_id,
                '') = \(scope.actorID?.description ?? "")
                AND operation = \(operation.name) AND key = \(key.key)
            """, logger: logger)
    }

    /// Forgets idempotency keys claimed more than `age` ago (by default
    /// ``IdempotencyKey/retention``), in every practice. Housekeeping; returns how many.
    @discardableResult
    public func pruneIdempotencyKeys(olderThan age: TimeInterval = IdempotencyKey.retention) async throws -> Int {
        let cutoff = Timestamp.milliseconds(clock.now().addingTimeInterval(-age))
        return try await transaction(.installation) { connection in
            for try await count in try await connection.query(
                "SELECT vetnet_prune_idempotency_keys(\(cutoff))", logger: logger
            )
            .decode(Int64.self) { return Int(count) }
            return 0
        }
    }
}
