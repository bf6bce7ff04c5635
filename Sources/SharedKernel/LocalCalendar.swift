import Foundation

/// Converts between local dates/wall-clock minutes and instants in one IANA time zone.
///
/// Foundation's `Calendar` owns the daylight-saving rules: a wall time that does not exist
/// (inside a skipped hour) resolves to the instant just after the gap, and a wall time that
/// occurs twice (in a repeated hour) resolves to its first occurrence.
public struct LocalCalendar: Sendable {
    /// Gregorian, in the zone.
    public let calendar: Calendar

    /// Creates the calendar of `timeZone`.
    public init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The instant of `minute` minutes of wall-clock time after local midnight of `date`;
    /// 1440 is the following midnight.
    public func instant(_ date: LocalDate, minute: Int) -> Date {
        let day = date.adding(days: minute / 1440)
        let rest = minute % 1440
        let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: rest / 60, minute: rest % 60)
        // Every Gregorian date and wall time resolves to some instant in a valid zone, as far
        // as Foundation's calendar reaches (about 4713 BC to AD 500 000). Beyond that no zone
        // has rules anyway: the wall time is read at the zone's offset for that instant.
        if let instant = calendar.date(from: components) { return instant }
        let wallClock = Date(timeIntervalSince1970: (Double(day.dayNumber) * 1440 + Double(rest)) * 60)
        return wallClock.addingTimeInterval(-Double(calendar.timeZone.secondsFromGMT(for: wallClock)))
    }

    /// The local date `instant` falls on.
    public func localDate(of instant: Date) -> LocalDate {
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        // Foundation's calendar always yields these components, with years inside
        // ``LocalDate/supportedYears`` (it stops counting at about AD 500 000).
        return LocalDate(year: parts.year!, month: parts.month!, day: parts.day!)!
    }
}
