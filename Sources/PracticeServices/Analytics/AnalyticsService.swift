import Analytics
import Foundation
import SharedKernel
import Specialists
import StoragePorts
import Synchronization

/// Practice analytics over the store: reads the stretch of history a question needs (one
/// snapshot, audited as a read of the practice's data), indexes it and asks the Analytics
/// module. The figures, their definitions and every rule come from that module; this type
/// only loads and hands over. Used by the API and the command line alike.
public struct AnalyticsService: Sendable {
    /// The ports it reads: the history, the practice's settings, and the audit trail its reads are recorded in.
    public let store: any AnalyticsHistorySource & AppointmentDetailsRepository & AuditRepository
    /// The definitions in force.
    public let options: AnalyticsOptions
    /// Indexed histories kept between requests (`nil`: every request reads the store).
    public let cache: AnalyticsCache?

    /// Creates the service.
    public init(
        store: any AnalyticsHistorySource & AppointmentDetailsRepository & AuditRepository,
        options: AnalyticsOptions = .standard, cache: AnalyticsCache? = nil
    ) {
        self.store = store
        self.options = options
        self.cache = cache
    }

    /// A practice's history, indexed.
    public struct Loaded: Sendable {
        /// The analytics engine over the loaded history.
        public let analytics: PracticeAnalytics
        /// The practice.
        public let practice: PracticeProfile
        /// Appointments and triage arrivals read.
        public let appointments: Int, arrivals: Int
    }

    /// The practice's time zone (UTC if its profile names none that exists).
    public func timeZone(scope: AccessScope) async throws -> TimeZone {
        let practice = try await store.schedulingPractice(scope: scope)
        return TimeZone(identifier: practice.timeZone) ?? TimeZone(identifier: "UTC")!
    }

    /// The period `from`…`to` (local days, `to` included) of the scope's practice, checked
    /// as a request's period (each problem names its field).
    public func period(from: String, to: String, scope: AccessScope) async throws -> AnalyticsPeriod {
        try AnalyticsPeriod.parse(from: from, to: to, timeZone: try await timeZone(scope: scope))
    }

    /// Reads what `window` covers and indexes it; the read is audited under `action`. With a
    /// cache, a history indexed for the same window is reused while the practice's records are
    /// unchanged (one small query says so), and brought up to date with what was written since
    /// when they have changed (the rows changed since, found by their change stamps); either
    /// is audited like a read.
    public func load(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Loaded {
        try await compute(scope: scope, window: window, action: action, progress: progress) { $0 }
    }

    /// ``load(scope:window:action:progress:)``, then `body` on what was loaded; when the history
    /// is reused or brought up to date, its audit entry is written while `body` computes (both
    /// must succeed).
    public func compute<T: Sendable>(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)? = nil,
        _ body: @Sendable (Loaded) throws -> T
    ) async throws -> T {
        let key = AnalyticsCache.Key(practiceID: scope.practiceID, window: window, options: options)
        if let cache, let entry = cache.entry(for: key) {
            let (kept, keptVersion) = entry
            var loaded: Loaded?
            var how = "reused"
            // One small read when nothing changed (the version alone); the changed rows otherwise.
            let changed = try await store.practiceHistoryChanges(scope: scope, window: window, since: keptVersion)
            if let changed, changed.version == keptVersion {
                loaded = kept
            } else if let changed, let analytics = kept.analytics.applying(changed.changes) {
                let updated = Loaded(
                    analytics: analytics, practice: kept.practice, appointments: analytics.appointmentCount,
                    arrivals: analytics.arrivalCount)
                cache.remember(updated, for: key, version: changed.version)
                loaded = updated
                how = "updated"
            }
            if let loaded {
                async let audited: Void = store.recordAudit(
                    .historyRead(action, of: scope.practiceID, window: window, served: how), scope: scope)
                let result = try body(loaded)
                try await audited
                return result
            }
        }
        let (history, version) = try await store.versionedPracticeHistory(
            scope: scope, window: window, action: action, progress: progress)
        let loaded = Loaded(
            analytics: PracticeAnalytics(history: history, options: options), practice: history.practice,
            appointments: history.appointments.count, arrivals: history.triageArrivals.count)
        cache?.remember(loaded, for: key, version: version)
        return try body(loaded)
    }

    /// The window of a dashboard of `period` seen at `asOf`.
    public func dashboardWindow(period: AnalyticsPeriod, asOf: Date, horizonDays: Int = 14, historyWeeks: Int = 8)
        -> HistoryWindow
    {
        let today = today(asOf, in: period.timeZone)
        return HistoryWindow(
            period: period, bottlenecks: (asOf, horizonDays), forecast: today.map { ($0, historyWeeks) },
            timeZone: period.timeZone, options: options)
    }

    /// The local day of `instant` in `zone`.
    public func today(_ instant: Date, in zone: TimeZone) -> LocalDate? {
        AnalyticsPeriod(interval: DateInterval(start: instant, duration: 1), timeZone: zone).days.first?.label
    }
}

/// Indexed practice histories kept between requests: a dashboard that reloads after
/// `metrics.updated`, or several people looking at the same period, read the store once and
/// then only what changed. An entry is used as it is only while the practice's
/// ``AnalyticsDataVersion`` is the one it was read at — any write to appointments, triage
/// arrivals or the configuration, by any path or process, moves it — and is otherwise brought
/// up to date with the rows written since (a change of configuration means a fresh read). At
/// most `capacity` entries (a year of a busy practice is some 15 MB), the least recently used
/// going first.
public final class AnalyticsCache: Sendable {
    /// What an entry answers for.
    public struct Key: Hashable, Sendable {
        let practiceID: PracticeID
        let window: HistoryWindow
        let options: AnalyticsOptions
    }

    private struct Entry {
        let version: AnalyticsDataVersion
        let loaded: AnalyticsService.Loaded
        var used: UInt64
    }

    private let capacity: Int
    private let state = Mutex<(entries: [Key: Entry], clock: UInt64)>(([:], 0))

    /// A cache of at most `capacity` histories.
    public init(capacity: Int = 4) {
        self.capacity = max(1, capacity)
    }

    /// The history kept for `key`, with the version it stands at.
    func entry(for key: Key) -> (AnalyticsService.Loaded, AnalyticsDataVersion)? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.used = state.clock
            state.entries[key] = entry
            return (entry.loaded, entry.version)
        }
    }

    /// Keeps `loaded`, standing at `version`, for `key` (unless a later one is kept already).
    func remember(_ loaded: AnalyticsService.Loaded, for key: Key, version: AnalyticsDataVersion) {
        state.withLock { state in
            if let kept = state.entries[key], kept.version.configuration >= version.configuration,
                kept.version.analytics > version.analytics
            {
                return
            }
            state.clock += 1
            state.entries[key] = Entry(version: version, loaded: loaded, used: state.clock)
            while state.entries.count > capacity,
                let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key
            {
                state.entries[oldest] = nil
            }
        }
    }

    /// Histories kept.
    public var count: Int { state.withLock { $0.entries.count } }
}
