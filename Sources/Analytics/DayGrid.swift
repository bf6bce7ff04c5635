import Foundation
import Scheduling
import SharedKernel
import Specialists

/// The practice's local days over a stretch of time, resolved once so that placing an
/// instant on its day, weekday and wall-clock hour is a binary search and integer arithmetic
/// rather than a `Calendar` call per appointment.
///
/// Day boundaries come from the Scheduling context's `PracticeCalendar` (Foundation's zone
/// rules), so a day is 23 or 25 hours long on a daylight-saving change exactly as the
/// schedule sees it.
struct DayGrid: Sendable {
    /// One local day.
    struct Day: Sendable {
        let date: LocalDate
        let start: Double
        let end: Double
        /// Offset from UTC at the start and at the last second of the day; they differ only on
        /// the day of a zone change, where the offset is looked up per instant.
        let offsetAtStart: Int
        let offsetAtEnd: Int
    }

    let timeZone: TimeZone
    let days: [Day]
    private let starts: [Double]

    /// The local days overlapping `interval`; none for an empty interval.
    init(covering interval: DateInterval, timeZone: TimeZone) {
        self.timeZone = timeZone
        var days: [Day] = []
        // Clamped to years 1–9999: the calendar's date arithmetic (and `Int` seconds) are only
        // trusted there, and no practice keeps records outside it.
        let lower = max(interval.start, Self.earliest)
        let upper = min(interval.end, Self.latest)
        if lower < upper {
            let calendar = PracticeCalendar(timeZone: timeZone)
            var day = calendar.day(containing: lower)
            // The cap keeps a caller's absurd interval (centuries) from looping for minutes.
            while day.start < upper, days.count < Self.maximumDays {
                let start = day.start.timeIntervalSince1970
                let end = day.end.timeIntervalSince1970
                let offsetStart = timeZone.secondsFromGMT(for: day.start)
                let offsetEnd = timeZone.secondsFromGMT(for: day.end.addingTimeInterval(-1))
                let wall = Int((start + Double(offsetStart)).rounded(.down))
                let date = LocalDate(dayNumber: Self.floorDivide(wall, 86_400))
                days.append(Day(date: date, start: start, end: end, offsetAtStart: offsetStart, offsetAtEnd: offsetEnd))
                day = calendar.day(containing: day.end)
            }
        }
        self.days = days
        self.starts = days.map(\.start)
    }

    /// Longest run of days resolved (about 55 years).
    static let maximumDays = 20_000
    /// 0001-01-02T00:00:00Z, a day after the first Gregorian day, so no zone offset reaches before it.
    static let earliest = Date(timeIntervalSince1970: -62_135_510_400)
    /// 9999-12-31T00:00:00Z.
    static let latest = Date(timeIntervalSince1970: 253_402_214_400)

    /// Index of the day containing `seconds` (since 1970), or `nil` outside the grid.
    func index(of seconds: Double) -> Int? {
        var low = 0
        var high = starts.count
        while low < high {
            let mid = (low + high) / 2
            if starts[mid] <= seconds { low = mid + 1 } else { high = mid }
        }
        let index = low - 1
        guard index >= 0, seconds < days[index].end else { return nil }
        return index
    }

    /// Wall-clock minute of the local day (0–1439) at `seconds` on day `index`. In the hour
    /// repeated in autumn both passes read 01:xx; in the hour skipped in spring nothing can.
    func wallMinute(of seconds: Double, onDay index: Int) -> Int {
        let day = days[index]
        let offset =
            day.offsetAtStart == day.offsetAtEnd
            ? day.offsetAtStart
            : timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))
        let wall = Int((seconds + Double(offset)).rounded(.down))
        return Self.floorModulo(wall, 86_400) / 60
    }

    /// The buckets of `size` formed by consecutive days, clipped to `interval`.
    func buckets(_ size: BucketSize, clippedTo interval: DateInterval) -> [PeriodBucket] {
        var result: [PeriodBucket] = []
        var current: (label: LocalDate, start: Double, end: Double)?
        for day in days {
            let label = Self.label(of: day.date, size)
            let start = max(day.start, interval.start.timeIntervalSince1970)
            let end = min(day.end, interval.end.timeIntervalSince1970)
            guard start < end else { continue }
            if let open = current, open.label == label {
                current = (label, open.start, end)
            } else {
                if let open = current { result.append(Self.bucket(open)) }
                current = (label, start, end)
            }
        }
        if let open = current { result.append(Self.bucket(open)) }
        return result
    }

    /// First day of the calendar bucket of `size` that `date` belongs to.
    static func label(of date: LocalDate, _ size: BucketSize) -> LocalDate {
        switch size {
        case .day: return date
        case .week: return date.adding(days: 1 - date.isoWeekday)
        case .month: return LocalDate(year: date.year, month: date.month, day: 1) ?? date
        }
    }

    private static func bucket(_ open: (label: LocalDate, start: Double, end: Double)) -> PeriodBucket {
        PeriodBucket(
            label: open.label, start: Date(timeIntervalSince1970: open.start),
            end: Date(timeIntervalSince1970: open.end))
    }

    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    static func floorModulo(_ value: Int, _ divisor: Int) -> Int { value - floorDivide(value, divisor) * divisor }
}
