import Foundation

/// A calendar date in a practice's local time zone (`2026-03-29`), without a time of day.
///
/// Availability exceptions are stated in local days because a day off is a day off whatever
/// its length in hours (23 or 25 on daylight-saving changes). Day arithmetic uses the proleptic
/// Gregorian day count, so it needs no `Calendar` and cannot drift across time-zone rules.
public struct LocalDate: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Year, e.g. 2026.
    public let year: Int
    /// Month, 1–12.
    public let month: Int
    /// Day of the month, 1–31.
    public let day: Int

    /// Years a date may have: far beyond any calendar a practice keeps, and small enough that
    /// day-number arithmetic on them cannot overflow.
    public static let supportedYears = -1_000_000...1_000_000

    /// Creates a date; `nil` when the day does not exist (e.g. 2026-02-30) or the year is
    /// outside ``supportedYears``.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.supportedYears.contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        let roundTrip = LocalDate(dayNumber: LocalDate.dayNumber(year: year, month: month, day: day))
        guard roundTrip.year == year, roundTrip.month == month, roundTrip.day == day else { return nil }
        self = roundTrip
    }

    /// Parses `yyyy-MM-dd` (ASCII digits only); `nil` when malformed or not a real date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        // Digits only: `Int` would also read "+1" and "-1", so "2026-+1-05" would pass as January.
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (negative before it).
    public var dayNumber: Int { Self.dayNumber(year: year, month: month, day: day) }

    /// ISO weekday, 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (ISO 4).
        let offset = (dayNumber + 3) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate { LocalDate(dayNumber: dayNumber + days) }

    /// `yyyy-MM-dd`.
    public var description: String {
        let y = String(year)
        let m = month < 10 ? "0\(month)" : String(month)
        let d = day < 10 ? "0\(day)" : String(day)
        return "\(String(repeating: "0", count: max(0, 4 - y.count)))\(y)-\(m)-\(d)"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a yyyy-MM-dd date")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Day numbers (H. Hinnant's civil-from-days algorithms)

    /// Creates the date with the given day number.
    public init(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        self.day = day
    }

    private static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
