import Foundation
import SharedKernel

/// A recurring interval on one weekday in local time, e.g. Mondays 09:00–12:30.
///
/// Minutes after local midnight rather than `Date`s: the same wall-clock times apply every
/// week, and the instants they stand for are only computed for a concrete date in the
/// practice's time zone (so 09:00 is 08:00Z in British summer time and 09:00Z in winter).
public struct WeeklyInterval: Hashable, Codable, Sendable, CustomStringConvertible {
    /// ISO weekday, 1 = Monday … 7 = Sunday.
    public var weekday: Int
    /// Start, minutes after local midnight (0–1439).
    public var startMinute: Int
    /// End, minutes after local midnight (1–1440; 1440 is the following midnight).
    public var endMinute: Int

    /// Creates an interval; ``validate(field:into:)`` checks it.
    public init(weekday: Int, startMinute: Int, endMinute: Int) {
        self.weekday = weekday
        self.startMinute = startMinute
        self.endMinute = endMinute
    }

    /// Creates an interval from hours and minutes, e.g. `(weekday: 1, from: (9, 0), to: (12, 30))`.
    public init(weekday: Int, from start: (hour: Int, minute: Int), to end: (hour: Int, minute: Int)) {
        self.init(weekday: weekday, startMinute: start.hour * 60 + start.minute, endMinute: end.hour * 60 + end.minute)
    }

    /// Length in minutes.
    public var minutes: Int { endMinute - startMinute }

    /// Whether the two intervals fall on the same weekday and share a minute.
    public func overlaps(_ other: WeeklyInterval) -> Bool {
        weekday == other.weekday && startMinute < other.endMinute && other.startMinute < endMinute
    }

    /// `Mon 09:00–12:30`.
    public var description: String {
        """
        \(Self.weekdayNames[(1...7).contains(weekday) ? weekday : 0]) \
        \(Self.clock(startMinute))–\(Self.clock(endMinute))
        """
    }

    // MARK: - Validation

    /// Adds this interval's own problems (weekday, bounds, order) under `field`.
    public func validate(field: String, into errors: inout FieldErrorCollector) {
        if !(1...7).contains(weekday) { errors.add("\(field).weekday", "must be 1 (Monday) to 7 (Sunday)") }
        if !(0...1439).contains(startMinute) {
            errors.add("\(field).startMinute", "must be 0 to 1439 minutes after midnight")
        }
        if !(1...1440).contains(endMinute) {
            errors.add("\(field).endMinute", "must be 1 to 1440 minutes after midnight")
        }
        if endMinute <= startMinute { errors.add("\(field).endMinute", "must be after the start") }
    }

    /// Adds an error naming each interval that overlaps an earlier one on the same weekday.
    static func validateNoOverlap(_ intervals: [WeeklyInterval], field: String, into errors: inout FieldErrorCollector)
    {
        for (index, interval) in intervals.enumerated() {
            if let earlier = intervals[..<index].firstIndex(where: { $0.overlaps(interval) }) {
                errors.add("\(field)[\(index)]", "overlaps \(field)[\(earlier)] (\(intervals[earlier]))")
            }
        }
    }

    private static let weekdayNames = ["?", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private static func clock(_ minute: Int) -> String {
        let h = minute / 60
        let m = minute % 60
        return "\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }
}
