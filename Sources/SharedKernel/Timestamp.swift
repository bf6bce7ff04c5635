import Foundation

/// RFC 3339 timestamps as VetNet writes them: UTC, millisecond precision, `Z` suffix.
public enum Timestamp {
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

    /// Parses an RFC 3339 date-time (`2026-11-21T09:30:00Z`, `…T09:30:00.5+01:00`, any number
    /// of fraction digits, `t`/`z` in either case, a leap second); `nil` if malformed.
    ///
    /// Read by hand rather than by a formatter so that exactly RFC 3339 is accepted — the
    /// grammar the OpenAPI document promises with `format: date-time` — and nothing else.
    public static func date(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// ``date(_:)`` of the UTF-8 bytes of the text (a database column read in place).
    public static func date(utf8 b: UnsafeRawBufferPointer) -> Date? {
        guard b.count >= 20 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for index in from..<(from + count) {
                let digit = Int(b[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), b[4] == 0x2D, let month = number(5, 2), b[7] == 0x2D, let day = number(8, 2),
            b[10] == 0x54 || b[10] == 0x74, let hour = number(11, 2), b[13] == 0x3A, let minute = number(14, 2),
            b[16] == 0x3A, let second = number(17, 2)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if b[index] == 0x2E {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, (0x30...0x39).contains(b[index]) {
                fraction += Double(b[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < b.count else { return nil }
        var offsetMinutes = 0
        if b[index] == 0x5A || b[index] == 0x7A {
            index += 1
        } else if b[index] == 0x2B || b[index] == 0x2D, index + 6 == b.count, b[index + 3] == 0x3A,
            let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours <= 23, minutes <= 59
        {
            offsetMinutes = (hours * 60 + minutes) * (b[index] == 0x2D ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard index == b.count, (1...12).contains(month), (1...monthDays[month - 1]).contains(day),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        // Days from 1970-01-01 to the civil date (H. Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetMinutes * 60) + fraction
        return Date(timeIntervalSince1970: seconds)
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
