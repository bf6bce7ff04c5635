import Foundation
import Scheduling
import SharedKernel
import Specialists

/// How a time series groups the local days of a period.
public enum BucketSize: String, CaseIterable, Codable, Sendable {
    /// One local day (23 or 25 hours long on a daylight-saving change).
    case day
    /// An ISO week, Monday to Sunday.
    case week
    /// A calendar month.
    case month
}

/// The stretch of time an analysis covers: instants `[start, end)` read in the practice's
/// time zone, which decides where its days, weeks and months begin.
///
/// Instants rather than dates, so a report can start mid-day (a shift, "since 17:00"); the
/// usual report is whole local days, which ``init(from:through:timeZone:)`` builds.
public struct AnalyticsPeriod: Hashable, Sendable {
    /// The instants covered, start included, end excluded.
    public let interval: DateInterval
    /// The practice's zone.
    public let timeZone: TimeZone

    /// Creates a period over `interval` read in `timeZone`.
    public init(interval: DateInterval, timeZone: TimeZone) {
        self.interval = interval
        self.timeZone = timeZone
    }

    /// The local days `first…last` (both included): from local midnight of `first` to local
    /// midnight after `last`; `nil` when `last` is before `first` or a year is outside 1–9999.
    public init?(from first: LocalDate, through last: LocalDate, timeZone: TimeZone) {
        // Years 1–9999 only: beyond them the calendar's arithmetic is not to be trusted.
        guard first <= last, (1...9999).contains(first.year), (1...9999).contains(last.year) else { return nil }
        let calendar = PracticeCalendar(timeZone: timeZone)
        guard let start = calendar.day(year: first.year, month: first.month, day: first.day)?.start,
            let end = calendar.day(year: last.year, month: last.month, day: last.day)?.end
        else { return nil }
        self.init(interval: DateInterval(start: start, end: end), timeZone: timeZone)
    }

    /// Whether `instant` lies inside the period (start included, end excluded).
    public func contains(_ instant: Date) -> Bool { interval.start <= instant && instant < interval.end }

    /// The local days the period touches, each clipped to the period.
    public var days: [PeriodBucket] { buckets(.day) }

    /// The period cut into local days, ISO weeks or calendar months, in order. Each bucket's
    /// instants are clipped to the period, so the buckets tile it exactly; ``PeriodBucket/label``
    /// names the whole calendar bucket (the Monday of a week that the period enters on a
    /// Wednesday), which is what a chart axis shows.
    public func buckets(_ size: BucketSize) -> [PeriodBucket] {
        DayGrid(covering: interval, timeZone: timeZone).buckets(size, clippedTo: interval)
    }
}

/// One bucket of a period: the instants it covers and the calendar bucket it belongs to.
public struct PeriodBucket: Hashable, Codable, Sendable {
    /// First local day of the calendar bucket (the day itself, the week's Monday, the month's 1st).
    public let label: LocalDate
    /// Start of the bucket inside the period.
    public let start: Date
    /// End of the bucket inside the period (excluded).
    public let end: Date

    /// Creates a bucket.
    public init(label: LocalDate, start: Date, end: Date) {
        self.label = label
        self.start = start
        self.end = end
    }

    /// The bucket's instants.
    public var interval: DateInterval { DateInterval(start: start, end: max(start, end)) }

    /// Length in hours (23 or 25 for a daylight-saving day).
    public var hours: Double { end.timeIntervalSince(start) / 3600 }
}
