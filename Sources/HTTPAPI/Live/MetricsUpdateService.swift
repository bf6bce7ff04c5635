import Analytics
import Foundation
import Logging
import ServiceLifecycle
import SharedKernel
import StoragePorts
import Synchronization

/// Watches every practice's event log and appends `metrics.updated` when changes that move
/// the practice's figures were committed — at most once per practice per interval
/// (``MetricsUpdateThrottle``: the first change after a quiet spell at once, later ones
/// gathered into one event when the interval has passed). The event goes through the log like
/// any other, so the live stream delivers it to the roles that may read analytics and the
/// change feed keeps it for clients that were away.
///
/// It reads the practices' head sequences at every step (one query of a small table), so
/// changes made by another process on the same store count too.
final class MetricsUpdateNotifier: Sendable {
    private struct Practice {
        var cursor: Int64
        var throttle: MetricsUpdateThrottle
    }

    private let store: any EventLogRepository
    private let clock: Clock
    private let interval: Double
    private let practices = Mutex<[PracticeID: Practice]>([:])
    private let primed = Mutex(false)

    /// A notifier over `store`'s event log, with `interval` seconds between two events of a
    /// practice; its events are stamped with `clock`'s time.
    init(store: any EventLogRepository, clock: Clock, interval: Double) {
        self.store = store
        self.clock = clock
        self.interval = interval
    }

    /// Reads what was committed since the last step and appends the events that are due at
    /// `now` (seconds of a monotonic clock). Returns the events appended. The first step only
    /// notes where each practice's log stands: what happened before the server started is
    /// not news.
    @discardableResult
    func step(now: Double) async throws -> [DomainEvent] {
        let heads = try await store.eventHeads()
        if !primed.withLock({ $0 }) {
            practices.withLock { practices in
                for (id, head) in heads {
                    practices[id] = Practice(cursor: head, throttle: MetricsUpdateThrottle(interval: interval))
                }
            }
            primed.withLock { $0 = true }
            return []
        }
        for (id, head) in heads {
            let cursor = practices.withLock { $0[id]?.cursor } ?? 0
            guard head > cursor else { continue }
            var position = cursor
            var events: [DomainEvent] = []
            while position < head {
                let page = try await store.events(practiceID: id, after: position, limit: 1000)
                events += page.events
                guard let last = page.events.last?.sequence, page.hasMore else { break }
                position = last
            }
            let reached = max(head, events.last?.sequence ?? head)
            practices.withLock { practices in
                var practice = practices[id] ?? Practice(cursor: 0, throttle: MetricsUpdateThrottle(interval: interval))
                practice.throttle.record(events)
                practice.cursor = reached
                practices[id] = practice
            }
        }
        var appended: [DomainEvent] = []
        let due = practices.withLock { practices -> [(PracticeID, MetricsChangeSummary)] in
            var due: [(PracticeID, MetricsChangeSummary)] = []
            for id in practices.keys {
                if let summary = practices[id]?.throttle.emit(at: now) { due.append((id, summary)) }
            }
            return due
        }
        for (id, summary) in due.sorted(by: { $0.0 < $1.0 }) {
            let event = summary.event(practiceID: id, occurredAt: clock.now())
            try await store.recordEvents([event], scope: .system(id, requestID: "metrics-update"))
            appended.append(event)
        }
        return appended
    }
}

/// Runs the ``MetricsUpdateNotifier`` every `tick` until the server shuts down.
struct MetricsUpdateService: Service {
    let store: any EventLogRepository
    /// The time events are stamped with.
    let clock: Clock
    /// Shortest time between two `metrics.updated` of a practice.
    let interval: Duration
    /// How often the logs are looked at.
    let tick: Duration
    let logger: Logger

    func run() async throws {
        let notifier = MetricsUpdateNotifier(store: store, clock: clock, interval: Self.seconds(interval))
        let clock = ContinuousClock()
        let origin = clock.now
        try? await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await notifier.step(now: Self.seconds(clock.now - origin))
                } catch is CancellationError {
                    return
                } catch {
                    // The next step reads from the same positions; nothing is lost.
                    logger.error("metrics update failed", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: tick)
            }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
