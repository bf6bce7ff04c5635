import Foundation

/// A practice-wide closure: a bank holiday, a staff training afternoon, Christmas Eve from
/// 13:00. Nobody can be booked while the practice is closed, whatever their own rota says.
///
/// Stated in the practice's wall-clock time and local days, like opening hours: on each day
/// from ``firstDay`` to ``lastDay`` the practice is closed from ``fromMinute`` to
/// ``untilMinute`` (the whole day by default). The instants are only worked out for a concrete
/// day in the practice's time zone, so a closure on a daylight-saving day covers its 23 or
/// 25 hours, and "from 13:00" is 13:00 local time in summer and in winter.
///
/// A yearly closure recurs on the same month and day every year from ``firstDay``'s year on
/// (a 29 February closure recurs only in leap years); one that runs over New Year
/// (24 December – 2 January) recurs as a whole.
public struct PracticeClosure: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<PracticeClosure>
    /// First closed day.
    public var firstDay: LocalDate
    /// Last closed day (the same as ``firstDay`` for one day).
    public var lastDay: LocalDate
    /// Closed from this many minutes after local midnight on each day (0 = from midnight).
    public var fromMinute: Int
    /// Closed until this many minutes after local midnight on each day (1440 = until midnight).
    public var untilMinute: Int
    /// Whether the closure comes back every year.
    public var recursYearly: Bool
    /// What staff see ("Christmas Day", "Staff training").
    public var reason: String

    /// Longest reason, in characters.
    public static let maxReasonLength = 120
    /// Longest closure, in days: a closure is a holiday, not a way to shut the practice for good.
    public static let maxDays = 366
    /// Longest yearly closure, in days: a season's holiday, not most of every year.
    public static let maxYearlyDays = 62

    /// Creates a closure; ``validate()`` checks it.
    public init(
        id: Identifier<PracticeClosure> = .init(), firstDay: LocalDate, lastDay: LocalDate? = nil, fromMinute: Int = 0,
        untilMinute: Int = 1440, recursYearly: Bool = false, reason: String
    ) {
        self.id = id
        self.firstDay = firstDay
        self.lastDay = lastDay ?? firstDay
        self.fromMinute = fromMinute
        self.untilMinute = untilMinute
        self.recursYearly = recursYearly
        self.reason = reason
    }

    /// Whether it closes whole days (rather than part of each day).
    public var isWholeDay: Bool { fromMinute == 0 && untilMinute == 1440 }

    /// Checks the closure, naming every bad field under `field` (empty: no prefix).
    public func validate(field: String = "") throws(ValidationError) {
        var errors = FieldErrorCollector()
        validate(field: field, into: &errors)
        try errors.throwIfAny()
    }

    /// Adds this closure's problems under `field` (`closures[2].lastDay`).
    public func validate(field: String, into errors: inout FieldErrorCollector) {
        let prefix = field.isEmpty ? "" : field + "."
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { errors.add(prefix + "reason", "must not be empty") }
        if trimmed.count > Self.maxReasonLength {
            errors.add(prefix + "reason", "must be at most \(Self.maxReasonLength) characters")
        }
        if lastDay < firstDay {
            errors.add(prefix + "lastDay", "must not be before the first day (\(firstDay))")
        } else if lastDay.dayNumber - firstDay.dayNumber >= (recursYearly ? Self.maxYearlyDays : Self.maxDays) {
            errors.add(
                prefix + "lastDay",
                recursYearly
                    ? "a yearly closure lasts at most \(Self.maxYearlyDays) days"
                    : "a closure lasts at most \(Self.maxDays) days")
        }
        if !(1900...9999).contains(firstDay.year) {
            errors.add(prefix + "firstDay", "must be a date in the years 1900 to 9999")
        }
        if !(0...1439).contains(fromMinute) {
            errors.add(prefix + "fromMinute", "must be 0 to 1439 minutes after midnight")
        }
        if !(1...1440).contains(untilMinute) {
            errors.add(prefix + "untilMinute", "must be 1 to 1440 minutes after midnight")
        }
        if untilMinute <= fromMinute { errors.add(prefix + "untilMinute", "must be after the time the closure starts") }
    }

    // MARK: - Resolution

    /// The closed days of this closure that fall between `first` and `last` (inclusive), in order.
    public func closedDays(from first: LocalDate, through last: LocalDate) -> [LocalDate] {
        guard first <= last else { return [] }
        let length = lastDay.dayNumber - firstDay.dayNumber
        var starts: [LocalDate] = []
        if recursYearly {
            // Occurrences that start in the years around the window; one starting the year
            // before can reach into it over New Year.
            for year in max(firstDay.year, first.year - 1)...max(firstDay.year, last.year) {
                if let start = LocalDate(year: year, month: firstDay.month, day: firstDay.day) { starts.append(start) }
            }
        } else {
            starts = [firstDay]
        }
        var days: [LocalDate] = []
        for start in starts {
            let from = max(start.dayNumber, first.dayNumber)
            let through = min(start.dayNumber + length, last.dayNumber)
            guard from <= through else { continue }
            days += (from...through).map(LocalDate.init(dayNumber:))
        }
        return days
    }

    /// The instants at which this closure keeps the practice closed on the local days that
    /// `range` touches in `timeZone`, sorted; not clipped to `range`.
    public func closedIntervals(overlapping range: TimeRange, timeZone: TimeZone) -> [TimeRange] {
        let local = LocalCalendar(timeZone: timeZone)
        let days = closedDays(from: local.localDate(of: range.start), through: local.localDate(of: range.end))
        return days.compactMap { day in
            TimeRange(start: local.instant(day, minute: fromMinute), end: local.instant(day, minute: untilMinute))
        }
        .filter { $0.overlaps(range) }
    }
}

// MARK: - Several closures

extension Array where Element == PracticeClosure {
    /// Every instant at which one of the closures keeps the practice closed, over the local days
    /// `range` touches, merged and sorted.
    public func closedIntervals(overlapping range: TimeRange, timeZone: TimeZone) -> [TimeRange] {
        TimeRange.merged(flatMap { $0.closedIntervals(overlapping: range, timeZone: timeZone) })
    }

    /// The first closure that keeps the practice closed during some of `range`, if any.
    public func closure(overlapping range: TimeRange, timeZone: TimeZone) -> PracticeClosure? {
        first { !$0.closedIntervals(overlapping: range, timeZone: timeZone).isEmpty }
    }

    /// `windows` with every closed instant removed (sorted, disjoint windows in; the same out).
    public func removingClosedTime(from windows: [TimeRange], timeZone: TimeZone) -> [TimeRange] {
        guard !isEmpty, let first = windows.map(\.start).min(), let last = windows.map(\.end).max(),
            let span = TimeRange(start: first, end: last)
        else { return windows }
        return TimeRange.subtracting(closedIntervals(overlapping: span, timeZone: timeZone), from: windows)
    }
}
