import Foundation
import SharedKernel
import Specialists

/// The stretches of a practice's records a store must load to answer one set of questions
/// (a period's metrics, bottlenecks over the coming days, a forecast), so a request reads
/// what its answer depends on and nothing else, however long the practice's history is.
///
/// Margins of a day are added where the analysis cuts by local day: a store cannot know
/// where a local day starts without the zone's rules, and a day too much costs nothing but
/// a few rows (the engine skips what lies outside each question).
public struct HistoryWindow: Hashable, Sendable {
    /// Appointments starting inside these intervals are loaded whatever their status; sorted
    /// and without overlaps.
    public let appointmentRanges: [DateInterval]
    /// Completed appointments starting inside this interval are loaded as well: the duration
    /// model whose error the metrics report is trained on them (``DurationModelSettings/trainingDays``).
    public let trainingRange: DateInterval?
    /// Triage arrivals inside these intervals are loaded; sorted and without overlaps.
    public let arrivalRanges: [DateInterval]
    /// Patients who came before this instant are returning patients in the period; the store
    /// reads each one's first visit before it (``PracticeHistory/firstVisits``). `nil` when
    /// no period is analysed.
    public let firstVisitCutoff: Date?

    /// Creates a window from its parts (ranges are sorted and merged).
    public init(
        appointmentRanges: [DateInterval], trainingRange: DateInterval? = nil, arrivalRanges: [DateInterval] = [],
        firstVisitCutoff: Date? = nil
    ) {
        self.appointmentRanges = Self.merged(appointmentRanges)
        self.trainingRange = trainingRange
        self.arrivalRanges = Self.merged(arrivalRanges)
        self.firstVisitCutoff = firstVisitCutoff
    }

    /// What answering about `period` (its metrics, time series, arrival pattern, insights),
    /// bottlenecks over the `horizonDays` local days from `asOf` and the forecast of the week
    /// from `asOf`'s day learnt from `historyWeeks` weeks needs. Pass `nil` for the parts not asked.
    public init(
        period: AnalyticsPeriod?, bottlenecks: (asOf: Date, days: Int)? = nil,
        forecast: (weekStart: LocalDate, historyWeeks: Int)? = nil, timeZone: TimeZone,
        options: AnalyticsOptions = .standard
    ) {
        let day: TimeInterval = 86_400
        var appointments: [DateInterval] = []
        var arrivals: [DateInterval] = []
        var training: DateInterval?
        if let period {
            let start = period.interval.start
            let end = period.interval.end
            // An appointment lasts less than a day, so one starting up to a day before the period can reach into it.
            appointments.append(DateInterval(start: start.addingTimeInterval(-day), end: max(start, end)))
            arrivals.append(period.interval)
            let trainingDays = max(0, options.durationModel.trainingDays)
            if trainingDays > 0 {
                training = DateInterval(
                    start: start.addingTimeInterval(-Double(trainingDays) * day), end: start.addingTimeInterval(-day))
            }
        }
        if let bottlenecks, bottlenecks.asOf.timeIntervalSince1970.isFinite {
            let days = Double(min(366, max(1, bottlenecks.days)))
            // Whole UTC days: the window is then the same all day, so a history read for it can be reused.
            appointments.append(
                DateInterval(
                    start: Self.utcDay(bottlenecks.asOf.addingTimeInterval(-2 * day), roundingUp: false),
                    end: Self.utcDay(bottlenecks.asOf.addingTimeInterval((days + 1) * day), roundingUp: true)))
        }
        if let forecast,
            let weekStart = AnalyticsPeriod(from: forecast.weekStart, through: forecast.weekStart, timeZone: timeZone)
        {
            let weeks = Double(min(260, max(1, forecast.historyWeeks)))
            appointments.append(
                DateInterval(
                    start: weekStart.interval.start.addingTimeInterval(-(7 * weeks + 1) * day),
                    end: weekStart.interval.start.addingTimeInterval(8 * day)))
        }
        self.init(
            appointmentRanges: appointments, trainingRange: training, arrivalRanges: arrivals,
            firstVisitCutoff: period?.interval.start)
    }

    /// `instant` moved to a UTC midnight, down or up.
    static func utcDay(_ instant: Date, roundingUp: Bool) -> Date {
        let seconds = instant.timeIntervalSince1970 / 86_400
        return Date(timeIntervalSince1970: (roundingUp ? seconds.rounded(.up) : seconds.rounded(.down)) * 86_400)
    }

    /// `ranges` sorted by start, overlapping or touching ones joined.
    static func merged(_ ranges: [DateInterval]) -> [DateInterval] {
        var result: [DateInterval] = []
        for range in ranges.sorted(by: { $0.start < $1.start }) {
            if let last = result.last, range.start <= last.end {
                result[result.count - 1] = DateInterval(start: last.start, end: max(last.end, range.end))
            } else {
                result.append(range)
            }
        }
        return result
    }
}

extension HistoryWindow {
    /// What a store reads for this window, in start order: whole appointments in its
    /// appointment ranges, and completed ones only where the duration model's training range
    /// lies outside them (nothing twice where the two meet).
    public var appointmentStretches: [(range: DateInterval, completedOnly: Bool)] {
        var stretches = appointmentRanges.map { (range: $0, completedOnly: false) }
        if let trainingRange {
            var cursor = trainingRange.start
            for block in appointmentRanges where block.end > cursor && block.start < trainingRange.end {
                if block.start > cursor { stretches.append((DateInterval(start: cursor, end: block.start), true)) }
                cursor = max(cursor, block.end)
            }
            if cursor < trainingRange.end {
                stretches.append((DateInterval(start: cursor, end: trainingRange.end), true))
            }
        }
        return stretches.sorted { $0.range.start < $1.range.start }
    }
}
