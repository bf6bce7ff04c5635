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
    /// Appointments sorted by scheduled start, then by id (one order whatever order they came
    /// in, so an index brought up to date holds them exactly as one built afresh).
    var visits: [Visit]
    var visitStarts: [Double]
    /// The appointments' ids, beside `visits`.
    var visitIDs: [UUID]
    /// Longest valid appointment, so an overlap query can start this far before a window.
    var longestVisit: Double
    /// Triage arrivals sorted by arrival, then by patient.
    var arrivals: [TriageArrival]
    var arrivalTimes: [Double]
    /// Each patient's first visit (seconds), by patient index.
    var firstVisit: [Double?]
    /// Patient index of each patient id, and the ids by index.
    var patientIndex: UUIDTable
    var patientIDs: [UUID]
    var patientCount: Int { patientIDs.count }
    let openRequests: [OpenRequest]
    /// Appointments dropped because their start is not a real instant.
    let unreadableAppointments: Int
    let suppliedPredictor: DurationPredictor?
    /// Working time already resolved, by period. It depends on the configuration alone, so an
    /// index brought up to date keeps it.
    let capacityMemo: CapacityMemo

    /// Indexes `history`. `durationPredictor` is the model whose error the metrics report;
    /// without one, each period trains a model (``AnalyticsOptions/durationModel``) on the
    /// appointments completed before it, so the model is never judged on what it learnt from.
    public init(
        history: PracticeHistory, options: AnalyticsOptions = .standard, durationPredictor: DurationPredictor? = nil
    ) {
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
        var ids: [UUID] = []
        visits.reserveCapacity(history.appointments.count)
        ids.reserveCapacity(history.appointments.count)
        var unreadable = 0
        for record in history.appointments {
            // A start that is not a real instant cannot be placed in any period or sorted.
            guard record.appointment.time.start.timeIntervalSince1970.isFinite else {
                unreadable += 1
                continue
            }
            let patient = Self.patient(record.appointment.patientID, index: &patientIndex, ids: &patients)
            visits.append(Visit(record: record, patient: patient, catalogue: &catalogue))
            ids.append(record.appointment.id.rawValue)
        }
        Self.sortVisits(&visits, ids: &ids)
        self.unreadableAppointments = unreadable
        self.catalogue = catalogue
        self.visits = visits
        self.visitIDs = ids
        self.visitStarts = visits.map(\.start)
        self.longestVisit = Self.longest(visits)
        self.patientIndex = patientIndex
        self.patientIDs = patients
        self.firstVisit = patients.map { history.firstVisits[$0].map(\.timeIntervalSince1970) }
        self.capacityMemo = CapacityMemo()

        var arrivals = history.triageArrivals.filter { $0.arrival.timeIntervalSince1970.isFinite }
        if zip(arrivals, arrivals.dropFirst()).contains(where: { !Self.inOrder($0, $1) }) {
            arrivals.sort(by: Self.inOrder)
        }
        self.arrivals = arrivals
        self.arrivalTimes = arrivals.map { $0.arrival.timeIntervalSince1970 }
    }

    /// The index of `id`, numbering it if it is new.
    static func patient(_ id: UUID, index: inout UUIDTable, ids: inout [UUID]) -> Int32 {
        if let known = index.find(id) { return known }
        let patient = Int32(truncatingIfNeeded: ids.count)
        index.insert(id, patient)
        ids.append(id)
        return patient
    }

    /// The longest valid appointment among `visits`.
    static func longest(_ visits: [Visit]) -> Double {
        visits.lazy.filter(\.hasValidTime).map { $0.end - $0.start }.max() ?? 0
    }

    /// Puts `visits` (and their `ids` beside them) in order of start, then id.
    static func sortVisits(_ visits: inout [Visit], ids: inout [UUID]) {
        if zip(visits, visits.dropFirst()).contains(where: { $0.start > $1.start }) {
            // Not in start order: sort positions rather than moving the larger records around.
            let order = visits.indices.sorted {
                UUIDOrder.precedes(visits[$0].start, ids[$0], visits[$1].start, ids[$1])
            }
            visits = order.map { visits[$0] }
            ids = order.map { ids[$0] }
            return
        }
        // A store hands them over in start order already; only appointments starting together may need ordering.
        var runStart = 0
        var index = 1
        while index <= visits.count {
            if index < visits.count, visits[index].start == visits[runStart].start {
                index += 1
                continue
            }
            if index - runStart > 1,
                zip(ids[runStart..<index], ids[(runStart + 1)..<index]).contains(where: { !UUIDOrder.less($0, $1) })
            {
                let order = (runStart..<index).sorted { UUIDOrder.less(ids[$0], ids[$1]) }
                let runVisits = order.map { visits[$0] }
                let runIDs = order.map { ids[$0] }
                visits.replaceSubrange(runStart..<index, with: runVisits)
                ids.replaceSubrange(runStart..<index, with: runIDs)
            }
            runStart = index
            index += 1
        }
    }

    /// Whether `a` comes before `b` (by arrival, then patient).
    static func inOrder(_ a: TriageArrival, _ b: TriageArrival) -> Bool {
        a.arrival != b.arrival ? a.arrival < b.arrival : UUIDOrder.less(a.patientID, b.patientID)
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
