import Foundation

/// Calendar arithmetic shared by the records rules.
///
/// Birth dates, vaccination dates and due dates are calendar days. They are stored as midnight
/// UTC, so the default calendar is Gregorian in UTC: the same instant is the same day on every
/// server, whatever its local time zone. Callers that know the practice's time zone can pass a
/// calendar set to it instead.
public enum RecordCalendar {
    /// Gregorian calendar in UTC, the default for every date rule in this module.
    public static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0)!
        return calendar
    }()

    /// Parses an ISO 8601 calendar date (`2024-02-29`) as midnight in `calendar`'s time zone.
    ///
    /// Returns `nil` for any other shape and for days that do not exist (`2023-02-29`), which a
    /// lenient date parser would silently roll over into the next month.
    public static func date(fromISODay text: String, calendar: Calendar = utc) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return date
    }

    /// Formats `date` as an ISO 8601 calendar day (`2024-02-29`) in `calendar`'s time zone.
    public static func isoDay(_ date: Date, calendar: Calendar = utc) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = parts.year ?? 0
        let month = parts.month ?? 0
        let day = parts.day ?? 0
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// Whole calendar days from the day containing `start` to the day containing `end`
    /// (negative when `end` is earlier).
    public static func days(from start: Date, to end: Date, calendar: Calendar = utc) -> Int {
        let from = calendar.startOfDay(for: start)
        let to = calendar.startOfDay(for: end)
        return calendar.dateComponents([.day], from: from, to: to).day ?? 0
    }
}
