import Logging
import ServiceLifecycle
import StoragePorts

/// Removes rows that no longer serve any purpose, once at start and then every `interval`
/// (hourly in the server): sessions that have ended (signed out, expired, or idle past the
/// policy), idempotency keys older than ``IdempotencyKey/retention`` (24 hours), and events
/// older than `eventRetentionDays` (a client away longer reloads instead of catching up), and
/// sign-in attempts older than a day (the throttle counts the last 15 minutes).
/// None grants or answers anything any more, and without this the tables grow for ever.
struct HousekeepingService: Service {
    let store: any AccountRepository & SignInAttemptLedger & EventLogRepository & StoreMaintenance
    let policy: SessionPolicy
    let interval: Duration
    let logger: Logger
    /// Days the event log keeps a change for clients catching up (default 30).
    var eventRetentionDays = 30

    /// What one sweep removed.
    struct Sweep: Equatable, Sendable {
        var sessions: Int
        var idempotencyKeys: Int
        var events = 0
        var signInAttempts = 0
    }

    /// One sweep of both tables.
    func sweep() async throws -> Sweep {
        Sweep(
            sessions: try await store.pruneSessions(policy: policy),
            idempotencyKeys: try await store.pruneIdempotencyKeys(olderThan: IdempotencyKey.retention),
            events: try await store.pruneEvents(
                before: store.clock.now().addingTimeInterval(-Double(eventRetentionDays) * 86_400)),
            signInAttempts: try await store.pruneSignInAttempts(before: store.clock.now().addingTimeInterval(-86_400)))
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                do {
                    let removed = try await sweep()
                    logger.debug(
                        "housekeeping",
                        metadata: [
                            "sessions_removed": "\(removed.sessions)",
                            "idempotency_keys_removed": "\(removed.idempotencyKeys)",
                            "events_removed": "\(removed.events)",
                            "sign_in_attempts_removed": "\(removed.signInAttempts)",
                        ])
                } catch {
                    // The next sweep retries; nothing depends on this one having run.
                    logger.error("housekeeping failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: interval)
            }
        }
    }
}
