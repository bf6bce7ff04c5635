import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Runs `create` at most once per idempotency key, inside the caller's transaction, with
    /// the claim of ``claim(_:operation:scope:connection:)``: a concurrent retry through any
    /// instance waits until the first transaction ends, then answers with the first resource
    /// (a replay, audited as `<operation>.replay`), or claims the key itself if the first
    /// rolled back.
    func idempotent(
        connection: PostgresConnection, scope: AccessScope, key: IdempotencyKey?, operation: AuditAction,
        resourceID: String,
        create: () async throws -> Void
    ) async throws -> (id: String, replayed: Bool) {
        guard let key else {
            try await create()
            return (resourceID, false)
        }
        if let first = try await claim(key, operation: operation, scope: scope, connection: connection) {
            return (first, true)
        }
        try await create()
        try await finishClaim(key, operation: operation, resourceID: resourceID, scope: scope, connection: connection)
        return (resourceID, false)
    }
}
