import Foundation
import SharedKernel

/// A practice's local days and opening hours as instants, in its IANA time zone.
///
/// "A day" in the schedule is the practice's local day: 23 hours on the spring
/// daylight-saving change, 25 in autumn. Foundation's `Calendar` owns the zone rules; a wall
/// time inside a skipped hour resolves to just after the gap, a repeated wall time to its
/// first occurrence.
public struct PracticeCalendar: Sendable {
    /// The zone.
    public let timeZone: TimeZone
    let calendar: Calendar

    /// Creates the calendar for an IANA identifier such as `Europe/London`.
    public init(timeZoneIdentifier: String) throws(ValidationError) {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else {
            throw ValidationError(field: "timeZone", message: "'\(timeZoneIdentifier)' is not an IANA time zone")
        }
        self.init(timeZone: zone)
    }

    /// Creates the calendar for a zone.
    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The local day containing `instant`, from its midnight to the next.
    public func day(containing instant: Date) -> TimeRange {
        let start = calendar.startOfDay(for: instant)
        return TimeRange(start: start, end: nextDayStart(after: start))!
    }

    /// The local day `year-month-day`; `nil` if there is no such date.
    public func day(year: Int, month: Int, day: Int) -> TimeRange? {
        guard let noon = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) else {
            return nil
        }
        let parts = calendar.dateComponents([.year, .month, .day], from: noon)
        guard parts.year == year, parts.month == month, parts.day == day else { return nil }
        return self.day(containing: noon)
    }

    /// The instant of a local wall-clock time on the day starting at `dayStart`.
    public func instant(onDayStarting dayStart: Date, minute: Int) -> Date {
        if minute >= 1440 { return nextDayStart(after: dayStart) }
        var parts = calendar.dateComponents([.year, .month, .day], from: dayStart)
        parts.hour = minute / 60
        parts.minute = minute % 60
        return calendar.date(from: parts)!
    }

    /// The local days overlapping `range`, in order.
    func days(overlapping range: TimeRange) -> [LocalDay] {
        var result: [LocalDay] = []
        var start = calendar.startOfDay(for: range.start)
        while start < range.end {
            let end = nextDayStart(after: start)
            // Calendar weekdays are 1 = Sunday … 7 = Saturday; opening hours use ISO (1 = Monday).
            let weekday = (calendar.component(.weekday, from: start) + 5) % 7 + 1
            result.append(LocalDay(start: start, end: end, isoWeekday: weekday))
            start = end
        }
        return result
    }

    /// Opening intervals of `hours` on the local days overlapping `range`, as instants in day
    /// order; not merged across midnight, so each interval belongs to exactly one day.
    public func openIntervals(_ hours: [OpeningHours], overlapping range: TimeRange) -> [TimeRange] {
        days(overlapping: range).flatMap { openIntervals(hours, on: $0) }
    }

    func openIntervals(_ hours: [OpeningHours], on day: LocalDay) -> [TimeRange] {
        hours.filter { $0.weekday == day.isoWeekday }
            .sorted { $0.opensMinute < $1.opensMinute }
            .compactMap {
                TimeRange(
                    start: instant(onDayStarting: day.start, minute: $0.opensMinute),
                    end: instant(onDayStarting: day.start, minute: $0.closesMinute))
            }
    }

    private func nextDayStart(after dayStart: Date) -> Date {
        // Adding a calendar day (not 86 400 s) keeps midnight on 23- and 25-hour days.
        calendar.startOfDay(for: calendar.date(byAdding: .day, value: 1, to: dayStart)!)
    }
}

/// One local day: its instants and ISO weekday.
struct LocalDay: Hashable, Sendable {
    let start: Date
    let end: Date
    let isoWeekday: Int
}
