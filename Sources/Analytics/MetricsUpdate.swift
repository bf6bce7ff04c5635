import Foundation
import Scheduling
import SharedKernel
import Specialists
import Triage

/// The `metrics.updated` event: the practice's figures changed because the records they are
/// computed from changed. Dashboards listening on the live stream reload when it comes,
/// instead of polling; it reaches only roles allowed to read analytics
/// (``DomainEvent/requiredPermission``: `metrics.*` needs `readAnalytics`).
public enum MetricsUpdate {
    /// The event kind.
    public static let kind = "metrics.updated"

    /// Event kinds whose changes move a metric: every appointment lifecycle step (counts,
    /// utilization, durations, revenue), triage and the ER board (arrivals, levels, first-seen
    /// times) and clinician availability (working time). Summaries of schedule runs are not
    /// listed: each booking or move they made has its own event.
    public static func affectsMetrics(_ kind: String) -> Bool {
        AppointmentEventKind.all.contains(kind) || kind == TriageEventKind.queueChanged
            || kind == TriageEventKind.patientTriaged
            || ClinicianEventKind.all.contains(kind)
    }
}

/// The changes one `metrics.updated` event stands for: how many, of which kinds, and the
/// span of time they touch, so a client can tell whether the period it shows is affected.
public struct MetricsChangeSummary: Hashable, Sendable {
    /// Changes counted.
    public private(set) var changes = 0
    /// Their kinds.
    public private(set) var kinds: Set<String> = []
    /// Earliest instant a change touches (an appointment's start or previous start, or the
    /// time of the change itself when it names no appointment time).
    public private(set) var earliest: Date?
    /// Latest instant a change touches.
    public private(set) var latest: Date?
    /// The last event sequence counted.
    public private(set) var throughSequence: Int64 = 0

    /// Nothing counted yet.
    public init() {}

    /// Whether nothing has been counted.
    public var isEmpty: Bool { changes == 0 }

    /// Counts `event` when it moves a metric; returns whether it did.
    @discardableResult
    public mutating func add(_ event: DomainEvent) -> Bool {
        guard MetricsUpdate.affectsMetrics(event.kind) else { return false }
        changes += 1
        kinds.insert(event.kind)
        throughSequence = max(throughSequence, event.sequence)
        let instants = ["start", "end", "previousStart", "previousEnd"].compactMap {
            event.payload[$0].flatMap(Timestamp.date)
        }
        for instant in instants.isEmpty ? [event.occurredAt] : instants {
            earliest = min(earliest ?? instant, instant)
            latest = max(latest ?? instant, instant)
        }
        return true
    }

    /// The `metrics.updated` event for these changes.
    public func event(practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        var payload = [
            "changes": String(changes), "kinds": kinds.sorted().joined(separator: ","),
            "throughSequence": String(throughSequence),
        ]
        if let earliest { payload["changedFrom"] = Timestamp.string(earliest) }
        if let latest { payload["changedTo"] = Timestamp.string(latest) }
        return DomainEvent(
            practiceID: practiceID, kind: MetricsUpdate.kind, occurredAt: occurredAt, resourceType: .metrics,
            payload: payload)
    }
}

/// At most one `metrics.updated` per practice per `interval`, and no change left unannounced:
/// the first change after a quiet spell is announced at once; changes that follow within the
/// interval are gathered and announced together when it has passed (throttling with a
/// trailing event). Pure: the caller supplies the time, from a monotonic clock, in seconds.
public struct MetricsUpdateThrottle: Sendable {
    /// Shortest time between two events.
    public let interval: Double
    /// When the last event was emitted.
    public private(set) var lastEmitted: Double?
    /// Changes not announced yet.
    public private(set) var pending = MetricsChangeSummary()

    /// A throttle with `interval` seconds between events.
    public init(interval: Double) {
        self.interval = max(0, interval)
    }

    /// Counts `events`; returns how many moved a metric.
    @discardableResult
    public mutating func record(_ events: [DomainEvent]) -> Int {
        events.reduce(0) { $0 + (pending.add($1) ? 1 : 0) }
    }

    /// When the pending changes may be announced; `nil` when nothing is pending.
    public var nextEmission: Double? {
        guard !pending.isEmpty else { return nil }
        return lastEmitted.map { $0 + interval } ?? -.infinity
    }

    /// The changes to announce at `now`, if any are pending and the interval has passed;
    /// they are then no longer pending.
    public mutating func emit(at now: Double) -> MetricsChangeSummary? {
        guard let due = nextEmission, now >= due else { return nil }
        let summary = pending
        pending = MetricsChangeSummary()
        lastEmitted = now
        return summary
    }
}
