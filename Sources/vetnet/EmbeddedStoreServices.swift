import Logging
import ServiceLifecycle
import StorageSQLite

/// Keeps the audit checkpoint (the signed head of the chain, kept outside the database)
/// within `interval` of the newest entry, so deleting the newest entries shows in
/// `vetnet audit verify` for everything older than that. The store writes a last one when it
/// closes at shutdown.
struct AuditCheckpointService: Service {
    let store: VetNetStore
    let interval: Duration
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var reported = false
            while true {
                try await Task.sleep(for: interval)
                do {
                    try store.writeAuditCheckpoint()
                    reported = false
                } catch {
                    // Once per episode: a cut chain or a full disk would otherwise log every second.
                    if !reported { logger.error("audit checkpoint not written", metadata: ["error": "\(error)"]) }
                    reported = true
                }
            }
        }
    }
}

/// Closes the store once the server has stopped accepting and finished in-flight requests.
struct StoreLifecycleService: Service {
    let store: VetNetStore
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        try store.close()
        logger.info("store closed")
    }
}
