import Analytics
import Foundation
import SharedKernel
import Specialists
import StorageSQLite

/// Practice analytics over the store: reads the stretch of history a question needs (one
/// snapshot, audited as a read of the practice's data), indexes it and asks the Analytics
/// module. The figures, their definitions and every rule come from that module; this type
/// only loads and hands over. Used by the API and the command line alike.
public struct AnalyticsService: Sendable {
    /// The store.
    public let store: VetNetStore
    /// The definitions in force.
    public let options: AnalyticsOptions

    /// Creates the service.
    public init(store: VetNetStore, options: AnalyticsOptions = .standard) {
        self.store = store
        self.options = options
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

    /// Reads what `window` covers and indexes it; the read is audited under `action`.
    public func load(scope: AccessScope, window: HistoryWindow, action: String,
                     progress: (@Sendable (Int, Int) -> Void)? = nil) async throws -> Loaded {
        let history = try await store.practiceHistory(scope: scope, window: window, action: action, progress: progress)
        return Loaded(analytics: PracticeAnalytics(history: history, options: options), practice: history.practice,
                      appointments: history.appointments.count, arrivals: history.triageArrivals.count)
    }

    /// The window of a dashboard of `period` seen at `asOf`.
    public func dashboardWindow(period: AnalyticsPeriod, asOf: Date, horizonDays: Int = 14, historyWeeks: Int = 8) -> HistoryWindow {
        let today = today(asOf, in: period.timeZone)
        return HistoryWindow(period: period, bottlenecks: (asOf, horizonDays), forecast: today.map { ($0, historyWeeks) },
                             timeZone: period.timeZone, options: options)
    }

    /// The local day of `instant` in `zone`.
    public func today(_ instant: Date, in zone: TimeZone) -> LocalDate? {
        AnalyticsPeriod(interval: DateInterval(start: instant, duration: 1), timeZone: zone).days.first?.label
    }
}
