import Foundation
import Scheduling
import SharedKernel
import Triage

/// Counts by local weekday and wall-clock hour: when things happen in the practice's week.
///
/// Wall-clock hours in the practice's zone: on the autumn change both passes through 01:00
/// count as hour 1, and on the spring change hour 1 stays empty, because that hour never
/// happened on the practice's clocks.
public struct WeekHourCounts: Hashable, Codable, Sendable {
    /// `counts[weekday − 1][hour]`, weekday ISO (1 = Monday … 7 = Sunday), hour 0–23.
    public let counts: [[Int]]

    /// Creates counts; rows or columns missing from `counts` read as 0.
    public init(counts: [[Int]]) {
        self.counts = (0..<7).map { day in
            (0..<24).map { hour in day < counts.count && hour < counts[day].count ? counts[day][hour] : 0 }
        }
    }

    /// All zero.
    public static let empty = WeekHourCounts(counts: [])

    /// The count on ISO `weekday` (1–7) in `hour` (0–23); 0 outside those ranges.
    public func count(weekday: Int, hour: Int) -> Int {
        guard (1...7).contains(weekday), (0...23).contains(hour) else { return 0 }
        return counts[weekday - 1][hour]
    }

    /// Totals per hour of day, 0–23.
    public var byHour: [Int] { (0..<24).map { hour in counts.reduce(0) { $0 + $1[hour] } } }

    /// Totals per ISO weekday, Monday first.
    public var byWeekday: [Int] { counts.map { $0.reduce(0, +) } }

    /// Everything counted.
    public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }
}

/// Triage arrivals of one VTL level by weekday and hour.
public struct LevelArrivals: Hashable, Codable, Sendable {
    /// The level.
    public let level: TriageLevel
    /// Its arrivals.
    public let counts: WeekHourCounts

    /// Creates the counts of a level.
    public init(level: TriageLevel, counts: WeekHourCounts) {
        self.level = level
        self.counts = counts
    }
}

/// When patients arrive: triage arrivals and appointment starts by weekday and hour.
public struct ArrivalPattern: Hashable, Codable, Sendable {
    /// Triage arrivals (walk-in and emergency demand).
    public let triage: WeekHourCounts
    /// Triage arrivals per level, red to blue.
    public let triageByLevel: [LevelArrivals]
    /// Starts of appointments that were not cancelled (booked demand).
    public let appointments: WeekHourCounts

    /// Creates a pattern.
    public init(triage: WeekHourCounts, triageByLevel: [LevelArrivals], appointments: WeekHourCounts) {
        self.triage = triage
        self.triageByLevel = triageByLevel
        self.appointments = appointments
    }

    /// The triage arrivals of `level` (all zero when none arrived).
    public func triage(_ level: TriageLevel) -> WeekHourCounts {
        triageByLevel.first { $0.level == level }?.counts ?? .empty
    }
}

extension PracticeAnalytics {
    /// Arrivals by hour of day and weekday over `period`.
    public func arrivalPattern(for period: AnalyticsPeriod) -> ArrivalPattern {
        let (from, to) = bounds(of: period)
        let grid = DayGrid(
            covering: DateInterval(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to)),
            timeZone: period.timeZone)
        let empty = Array(repeating: Array(repeating: 0, count: 24), count: 7)
        var triage = empty
        var appointments = empty
        var byLevel = Array(repeating: empty, count: TriageLevel.allCases.count)
        for index in arrivalRange(from, to) {
            guard let (day, hour) = grid.weekdayAndHour(of: arrivalTimes[index]) else { continue }
            triage[day][hour] += 1
            byLevel[arrivals[index].level.rawValue - 1][day][hour] += 1
        }
        for index in visitRange(startingIn: from, to) where visits[index].status != .cancelled {
            guard let (day, hour) = grid.weekdayAndHour(of: visits[index].start) else { continue }
            appointments[day][hour] += 1
        }
        let levels = TriageLevel.allCases.map {
            LevelArrivals(level: $0, counts: WeekHourCounts(counts: byLevel[$0.rawValue - 1]))
        }
        return ArrivalPattern(
            triage: WeekHourCounts(counts: triage), triageByLevel: levels,
            appointments: WeekHourCounts(counts: appointments))
    }
}

extension DayGrid {
    /// Zero-based ISO weekday (0 = Monday) and wall-clock hour of `seconds`, if on the grid.
    func weekdayAndHour(of seconds: Double) -> (Int, Int)? {
        guard let index = index(of: seconds) else { return nil }
        return (days[index].date.isoWeekday - 1, wallMinute(of: seconds, onDay: index) / 60)
    }
}
