import Foundation

/// Converts between local dates/wall-clock minutes and instants in one IANA time zone.
///
/// Foundation's `Calendar` owns the daylight-saving rules: a wall time that does not exist
/// (inside a skipped hour) resolves to the instant just after the gap, and a wall time that
/// occurs twice (in a repeated hour) resolves to its first occurrence.
struct LocalCalendar: Sendable {
    let calendar: Calendar

    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The instant of `minute` minutes of wall-clock time after local midnight of `date`;
    /// 1440 is the following midnight.
    func instant(_ date: LocalDate, minute: Int) -> Date {
        let day = date.adding(days: minute / 1440)
        let rest = minute % 1440
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: rest / 60, minute: rest % 60)
        // Every Gregorian date and wall time resolves to some instant in a valid zone.
        return calendar.date(from: components)!
    }

    /// The local date `instant` falls on.
    func localDate(of instant: Date) -> LocalDate {
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
}
