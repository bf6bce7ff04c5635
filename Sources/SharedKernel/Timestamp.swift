import Foundation

/// RFC 3339 timestamps as VetNet writes them: UTC, millisecond precision, `Z` suffix.
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let withoutFraction = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// Formats `date` as `2026-11-21T09:30:00.000Z`, rounded to the nearest millisecond (a
    /// formatter that truncates would write a parsed time back 1 ms early).
    public static func string(_ date: Date) -> String {
        let milliseconds = milliseconds(date)
        let seconds = Date(timeIntervalSince1970: Double(milliseconds.floorDivided(by: 1000)))
        let fraction = milliseconds - milliseconds.floorDivided(by: 1000) * 1000
        var text = withoutFraction.format(seconds)
        text.removeLast() // "Z"
        return text + "." + String(String(fraction + 1000).dropFirst()) + "Z"
    }

    /// Parses RFC 3339 text with or without fractional seconds; `nil` if malformed.
    public static func date(_ text: String) -> Date? {
        (try? withFraction.parse(text)) ?? (try? withoutFraction.parse(text))
    }

    /// Milliseconds since 1970, the integer form stored where times are compared in SQL.
    ///
    /// Total: a date too far out for 64 bits (`Date.distantFuture` plus years of minutes, say)
    /// is clamped to the end of the range rather than trapping — callers bound the dates they
    /// accept, and a clamped bound still compares correctly with every storable time.
    public static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return value.isNaN ? 0 : (value < 0 ? .min : .max) }
        if value >= 9_223_372_036_854_774_784 { return .max }
        if value <= -9_223_372_036_854_774_784 { return .min }
        return Int64(value)
    }

    /// The date for a millisecond count.
    public static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}

extension Int64 {
    /// Division rounding toward negative infinity (dates before 1970 keep a positive fraction).
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
