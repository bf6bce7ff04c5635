import ArgumentParser

/// Reads weekly hours as people write them on the command line: `mon-fri 08:00-18:30`,
/// `sat 09:00-12:00`, `sun 00:00-24:00`. Weekdays are ISO (1 = Monday … 7 = Sunday).
enum WeeklyHoursOption {
    private static let days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The intervals of one option value, one per weekday it names.
    static func parse(_ text: String, option: String) throws -> [(weekday: Int, start: Int, end: Int)] {
        let parts = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else { throw failure(text, option) }
        let dayNames = parts[0].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(dayNames.count), let first = days.firstIndex(of: dayNames[0]),
            let last = days.firstIndex(of: dayNames[dayNames.count - 1]), first <= last
        else { throw failure(text, option) }
        let times = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard times.count == 2, let start = minutes(times[0]), let end = minutes(times[1]), start < end, start < 1440
        else {
            throw failure(text, option)
        }
        return (first...last).map { (weekday: $0 + 1, start: start, end: end) }
    }

    /// `HH:mm` (00:00–24:00) as minutes after midnight.
    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60,
            hours < 24 || (hours == 24 && minutes == 0)
        else { return nil }
        return hours * 60 + minutes
    }

    private static func failure(_ text: String, _ option: String) -> ValidationError {
        ValidationError("\(option) '\(text)': write days and times like 'mon-fri 08:00-18:30' or 'sat 09:00-12:00'")
    }
}
