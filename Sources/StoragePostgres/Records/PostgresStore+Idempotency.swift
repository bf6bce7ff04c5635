import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Runs `create` at most once per idempotency key, inside the caller's transaction.
    ///
    /// The key is claimed first (`ON CONFLICT DO NOTHING`): a concurrent retry through any
    /// instance waits on the claim until the first transaction ends, then finds the key and
    /// answers with the first resource — or claims it itself if the first rolled back. As in
    /// the embedded store, a key belongs to the account that sent it and to one request: any
    /// other use is a conflict, and a replay is audited as `<operation>.replay`.
    func idempotent(connection: PostgresConnection, scope: AccessScope, key: IdempotencyKey?, operation: String, resourceID: String,
                    create: () async throws -> Void) async throws -> (id: String, replayed: Bool) {
        guard let key else {
            try await create()
            return (resourceID, false)
        }
        var claimed = false
        for try await _ in try await connection.query("""
            INSERT INTO idempotency_key (practice_id, key, operation, fingerprint, resource_id, actor_id, created_at)
            VALUES (\(scope.practiceID.rawValue), \(key.key), \(operation), \(key.fingerprint), \(resourceID), \(scope.actorID?.description),
                    \(clock.now()))
            ON CONFLICT (practice_id, key) DO NOTHING RETURNING 1
            """, logger: logger) { claimed = true }
        if claimed {
            try await create()
            return (resourceID, false)
        }
        for try await (storedOperation, fingerprint, storedID, actorID) in try await connection.query("""
            SELECT operation, fingerprint, resource_id, actor_id FROM idempotency_key
            WHERE practice_id = \(scope.practiceID.rawValue) AND key = \(key.key)
            """, logger: logger).decode((String, String, String, String?).self) {
            guard storedOperation == operation, fingerprint == key.fingerprint, actorID == scope.actorID?.description else {
                throw DomainError.conflict("This Idempotency-Key was already used for a different request.")
            }
            let resource = operation.split(separator: ".").first.map(String.init) ?? operation
            try await appendAudit(AuditRecord(action: "\(operation).replay", resourceType: resource, resourceID: storedID),
                                  scope: scope, connection: connection)
            return (storedID, true)
        }
        throw StoreCorruption(column: "idempotency_key", reason: "a claimed key could not be read back")
    }
}
