import Foundation
import Scheduling
import SharedKernel
import Specialists
import Triage

/// The practice's analytics over its history: metrics for any period, time series,
/// bottlenecks, a demand forecast and insights.
///
/// Built once from a ``PracticeHistory``: the records are indexed (appointments sorted by
/// start, ids turned into array positions) so that every question afterwards costs a
/// binary search plus one pass over the records it concerns — O(n log n) to build and O(n)
/// per period for n appointments. Pure and `Sendable`: no clock, no I/O; "now" is always an
/// argument.
public struct PracticeAnalytics: Sendable {
    /// The definitions in force.
    public let options: AnalyticsOptions
    /// The practice's zone (UTC if its profile names no valid zone).
    public let timeZone: TimeZone

    let openingHours: [OpeningHours]
    /// Days and hours the practice is shut; taken out of working time as the scheduler does.
    let closures: [PracticeClosure]
    let catalogue: Catalogue
    /// Appointments sorted by scheduled start.
    let visits: [Visit]
    let visitStarts: [Double]
    /// Longest valid appointment, so an overlap query can start this far before a window.
    let longestVisit: Double
    /// Triage arrivals sorted by arrival.
    let arrivals: [TriageArrival]
    let arrivalTimes: [Double]
    /// Each patient's first visit (seconds), by patient index.
    let firstVisit: [Double?]
    let patientCount: Int
    let openRequests: [OpenRequest]
    /// Appointments dropped because their start is not a real instant.
    let unreadableAppointments: Int
    let suppliedPredictor: DurationPredictor?
    /// Working time already resolved, by period.
    let capacityMemo = CapacityMemo()

    /// Indexes `history`. `durationPredictor` is the model whose error the metrics report;
    /// without one, each period trains a model (``AnalyticsOptions/durationModel``) on the
    /// appointments completed before it, so the model is never judged on what it learnt from.
    public init(history: PracticeHistory, options: AnalyticsOptions = .standard, durationPredictor: DurationPredictor? = nil) {
        self.options = options
        self.timeZone = TimeZone(identifier: history.practice.timeZone) ?? TimeZone(identifier: "UTC")!
        self.openingHours = history.practice.openingHours.filter {
            (1...7).contains($0.weekday) && (0...1439).contains($0.opensMinute) && (1...1440).contains($0.closesMinute)
                && $0.opensMinute < $0.closesMinute
        }
        self.closures = history.practice.closures
        self.suppliedPredictor = durationPredictor
        self.openRequests = history.openRequests

        var catalogue = Catalogue(history: history)
        var patientIndex = UUIDTable(capacity: history.firstVisits.count)
        var patients: [UUID] = []
        var visits: [Visit] = []
        visits.reserveCapacity(history.appointments.count)
        var unreadable = 0
        for record in history.appointments {
            // A start that is not a real instant cannot be placed in any period or sorted.
            guard record.appointment.time.start.timeIntervalSince1970.isFinite else {
                unreadable += 1
                continue
            }
            let patient: Int32
            if let known = patientIndex.find(record.appointment.patientID) {
                patient = known
            } else {
                patient = Int32(truncatingIfNeeded: patients.count)
                patientIndex.insert(record.appointment.patientID, patient)
                patients.append(record.appointment.patientID)
            }
            visits.append(Visit(record: record, patient: patient, catalogue: &catalogue))
        }
        // A store hands appointments over in start order already; otherwise sort compact
        // (start, position) pairs rather than moving the larger records around.
        if zip(visits, visits.dropFirst()).contains(where: { $0.start > $1.start }) {
            let order = visits.indices.map { (start: visits[$0].start, index: $0) }.sorted { $0.start < $1.start }
            visits = order.map { visits[$0.index] }
        }
        self.unreadableAppointments = unreadable
        self.catalogue = catalogue
        self.visits = visits
        self.visitStarts = visits.map(\.start)
        self.longestVisit = visits.lazy.filter(\.hasValidTime).map { $0.end - $0.start }.max() ?? 0
        self.patientCount = patients.count
        self.firstVisit = patients.map { history.firstVisits[$0].map(\.timeIntervalSince1970) }

        var arrivals = history.triageArrivals.filter { $0.arrival.timeIntervalSince1970.isFinite }
        if zip(arrivals, arrivals.dropFirst()).contains(where: { $0.arrival > $1.arrival }) {
            arrivals.sort { $0.arrival < $1.arrival }
        }
        self.arrivals = arrivals
        self.arrivalTimes = arrivals.map { $0.arrival.timeIntervalSince1970 }
    }

    /// The local days `first…last` in the practice's zone.
    public func period(from first: LocalDate, through last: LocalDate) -> AnalyticsPeriod? {
        AnalyticsPeriod(from: first, through: last, timeZone: timeZone)
    }

    /// `interval` read in the practice's zone.
    public func period(_ interval: DateInterval) -> AnalyticsPeriod {
        AnalyticsPeriod(interval: interval, timeZone: timeZone)
    }

    // MARK: - Range lookups

    /// Indices of visits that may overlap `[from, to)`: those starting before `to` and no
    /// longer ago than the longest appointment.
    func visitRange(overlapping from: Double, _ to: Double) -> Range<Int> {
        let low = IntervalSet.firstIndex(in: visitStarts) { $0 > from - longestVisit - 1 }
        let high = IntervalSet.firstIndex(in: visitStarts) { $0 >= to }
        return low..<max(low, high)
    }

    /// Indices of visits starting in `[from, to)`.
    func visitRange(startingIn from: Double, _ to: Double) -> Range<Int> {
        let low = IntervalSet.firstIndex(in: visitStarts) { $0 >= from }
        let high = IntervalSet.firstIndex(in: visitStarts) { $0 >= to }
        return low..<max(low, high)
    }

    /// Indices of triage arrivals in `[from, to)`.
    func arrivalRange(_ from: Double, _ to: Double) -> Range<Int> {
        let low = IntervalSet.firstIndex(in: arrivalTimes) { $0 >= from }
        let high = IntervalSet.firstIndex(in: arrivalTimes) { $0 >= to }
        return low..<max(low, high)
    }
}
