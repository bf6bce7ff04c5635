import Logging
import ServiceLifecycle
import StorageSQLite

/// Removes rows that no longer serve any purpose, once at start and then every `interval`
/// (hourly in the server): sessions that have ended (signed out, expired, or idle past the
/// policy) and idempotency keys older than ``IdempotencyKey/retention`` (24 hours). Neither
/// grants or answers anything any more, and without this both tables grow for ever.
struct HousekeepingService: Service {
    let store: VetNetStore
    let policy: SessionPolicy
    let interval: Duration
    let logger: Logger

    /// What one sweep removed.
    struct Sweep: Equatable, Sendable {
        var sessions: Int
        var idempotencyKeys: Int
    }

    /// One sweep of both tables.
    func sweep() async throws -> Sweep {
        Sweep(sessions: try await store.pruneSessions(policy: policy),
              idempotencyKeys: try await store.pruneIdempotencyKeys(olderThan: IdempotencyKey.retention))
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                do {
                    let removed = try await sweep()
                    logger.debug("housekeeping", metadata: ["sessions_removed": "\(removed.sessions)",
                                                            "idempotency_keys_removed": "\(removed.idempotencyKeys)"])
                } catch {
                    // The next sweep retries; nothing depends on this one having run.
                    logger.error("housekeeping failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
