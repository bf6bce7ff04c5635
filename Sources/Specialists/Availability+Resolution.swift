import Foundation
import SharedKernel

// MARK: - From the weekly pattern to instants

extension ClinicianAvailability {
    /// The intervals in which the clinician can be booked on the local days `first…last`,
    /// as sorted, non-overlapping instants: weekly pattern plus extra sessions, minus breaks,
    /// with days of time off removed.
    ///
    /// Each day is resolved in `timeZone` separately, so a 09:00 start is 08:00Z on a British
    /// summer day and 09:00Z on a winter day, and wall-clock times inside a skipped hour
    /// produce no time at all.
    public func windows(from first: LocalDate, through last: LocalDate, timeZone: TimeZone) -> [TimeRange] {
        guard first <= last else { return [] }
        let local = LocalCalendar(timeZone: timeZone)
        var result: [TimeRange] = []
        for dayNumber in first.dayNumber...last.dayNumber {
            let date = LocalDate(dayNumber: dayNumber)
            for (start, end) in minuteWindows(on: date) {
                let range = TimeRange(start: local.instant(date, minute: start), end: local.instant(date, minute: end))
                // A window wholly inside a skipped hour has no instants; nil drops it.
                if let range { result.append(range) }
            }
        }
        return result
    }

    /// The windows that overlap `range`, clipped to it; the local days are those of `range` in `timeZone`.
    public func windows(overlapping range: TimeRange, timeZone: TimeZone) -> [TimeRange] {
        let local = LocalCalendar(timeZone: timeZone)
        return windows(
            from: local.localDate(of: range.start), through: local.localDate(of: range.end), timeZone: timeZone
        )
        .compactMap { TimeRange(start: max($0.start, range.start), end: min($0.end, range.end)) }
    }

    /// Minutes the clinician can work on `date` (real elapsed minutes, so a window crossing a
    /// daylight-saving change is an hour shorter or longer than its wall-clock length).
    public func availableMinutes(on date: LocalDate, timeZone: TimeZone) -> Int {
        windows(from: date, through: date, timeZone: timeZone).reduce(0) { $0 + Int($1.duration / 60) }
    }

    /// Minutes that may be booked on `date`: the working time, capped by ``maxBookedMinutesPerDay``.
    public func capacityMinutes(on date: LocalDate, timeZone: TimeZone) -> Int {
        let available = availableMinutes(on: date, timeZone: timeZone)
        return maxBookedMinutesPerDay.map { min($0, available) } ?? available
    }

    /// Working minute intervals of one local date, sorted and merged, breaks removed.
    func minuteWindows(on date: LocalDate) -> [(Int, Int)] {
        if timeOff.contains(where: { $0.covers(date) }) { return [] }
        let weekday = date.isoWeekday
        var working = weekly.filter { $0.weekday == weekday }.map { ($0.startMinute, $0.endMinute) }
        working += extraSessions.filter { $0.date == date }.map { ($0.startMinute, $0.endMinute) }
        let merged = Self.merge(working)
        let pauses = Self.merge(breaks.filter { $0.weekday == weekday }.map { ($0.startMinute, $0.endMinute) })
        return Self.subtract(pauses, from: merged)
    }

    // MARK: - Minute interval arithmetic

    static func merge(_ intervals: [(Int, Int)]) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        for (start, end) in intervals.sorted(by: { $0.0 < $1.0 }) where start < end {
            if let last = result.last, start <= last.1 {
                result[result.count - 1].1 = max(last.1, end)
            } else {
                result.append((start, end))
            }
        }
        return result
    }

    /// `base` minus `holes`; both sorted and merged.
    static func subtract(_ holes: [(Int, Int)], from base: [(Int, Int)]) -> [(Int, Int)] {
        var result: [(Int, Int)] = []
        for (start, end) in base {
            var cursor = start
            for (holeStart, holeEnd) in holes where holeEnd > cursor && holeStart < end {
                if holeStart > cursor { result.append((cursor, holeStart)) }
                cursor = max(cursor, holeEnd)
            }
            if cursor < end { result.append((cursor, end)) }
        }
        return result
    }
}

// MARK: - Practice closures

extension ClinicianAvailability {
    /// The windows overlapping `range` (clipped to it) with the practice's closures taken out:
    /// a clinician's rota does not open a practice that is shut for a bank holiday.
    public func windows(overlapping range: TimeRange, timeZone: TimeZone, closures: [PracticeClosure]) -> [TimeRange] {
        closures.removingClosedTime(from: windows(overlapping: range, timeZone: timeZone), timeZone: timeZone)
    }

    /// Minutes that may be booked on `date` once the practice's closures are taken out, capped
    /// by ``maxBookedMinutesPerDay``.
    public func capacityMinutes(on date: LocalDate, timeZone: TimeZone, closures: [PracticeClosure]) -> Int {
        let open = closures.removingClosedTime(
            from: windows(from: date, through: date, timeZone: timeZone), timeZone: timeZone)
        let available = open.reduce(0) { $0 + Int($1.duration / 60) }
        return maxBookedMinutesPerDay.map { min($0, available) } ?? available
    }
}
