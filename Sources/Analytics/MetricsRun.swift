import Foundation
import Scheduling
import SharedKernel
import Specialists
import Synchronization

/// Positions of every segment in one flat array: the practice, then clinicians, specialties,
/// appointment types, rooms and species. One appointment touches at most six of them.
struct SegmentLayout: Sendable {
    let clinicianBase: Int
    let specialtyBase: Int
    let typeBase: Int
    let roomBase: Int
    let speciesBase: Int
    let count: Int

    init(_ catalogue: Catalogue) {
        clinicianBase = 1
        specialtyBase = clinicianBase + catalogue.clinicianIDs.count
        typeBase = specialtyBase + Visit.specialties.count
        roomBase = typeBase + catalogue.typeIDs.count
        speciesBase = roomBase + catalogue.roomIDs.count
        count = speciesBase + Visit.speciesList.count
    }

    /// Calls `body` with each segment `visit` belongs to.
    @inline(__always)
    func forEachSegment(of visit: Visit, _ body: (Int) -> Void) {
        body(0)
        body(clinicianBase + Int(visit.clinician))
        if visit.specialty >= 0 { body(specialtyBase + Int(visit.specialty)) }
        body(typeBase + Int(visit.type))
        if visit.room >= 0 { body(roomBase + Int(visit.room)) }
        if visit.species >= 0 { body(speciesBase + Int(visit.species)) }
    }

    /// Whether `visit` belongs to segment `index`.
    func contains(_ visit: Visit, segment index: Int) -> Bool {
        var found = false
        forEachSegment(of: visit) { if $0 == index { found = true } }
        return found
    }
}

/// Running totals of one segment.
struct Tally: Sendable {
    var statuses = StatusCounts()
    var bookedSeconds = 0.0
    var lateCancellations = 0
    var cancellationsWithoutTime = 0
    var durationCount = 0, plannedMinutes = 0, actualMinutes = 0, absoluteDifference = 0
    var modelCount = 0, modelError = 0
    var leadHours: [Double] = []
    var leadSum = 0.0
    var newPatients = 0, returningPatients = 0, unknownPatients = 0
    /// One bit per patient index: seen in this segment already.
    var patientBits: [UInt64] = []
    /// Minor units per currency position; sums that would overflow `Int` move to `revenueCarry`.
    var revenue: [Int] = []
    var revenueCarry: [Decimal] = []

    var hasActivity: Bool { statuses.total > 0 || bookedSeconds > 0 }

    mutating func addRevenue(_ minorUnits: Int, currency: Int, currencies: Int) {
        if revenue.isEmpty {
            revenue = Array(repeating: 0, count: currencies)
            revenueCarry = Array(repeating: 0, count: currencies)
        }
        let (sum, overflow) = revenue[currency].addingReportingOverflow(minorUnits)
        if overflow {
            revenueCarry[currency] += Decimal(revenue[currency])
            revenue[currency] = minorUnits
        } else {
            revenue[currency] = sum
        }
    }

    /// Marks `patient` as seen; true the first time.
    mutating func markPatient(_ patient: Int, patientCount: Int) -> Bool {
        if patientBits.isEmpty { patientBits = Array(repeating: 0, count: (patientCount + 63) / 64) }
        let word = patient >> 6
        let bit = UInt64(1) << UInt64(patient & 63)
        if patientBits[word] & bit != 0 { return false }
        patientBits[word] |= bit
        return true
    }
}

/// Working windows and opening hours over one period, resolved once and then measured for
/// any window inside it (the period itself, or each bucket of a time series).
struct CapacityIndex: Sendable {
    /// Per clinician position; empty for clinicians without availability.
    let clinicianWindows: [IntervalSet]
    /// The practice's opening hours: every active room's open time.
    let openHours: IntervalSet
}

extension PracticeAnalytics {
    /// Resolves every clinician's availability over `[from, to)` with the Specialists
    /// context's own resolution (weekly pattern, extra sessions, breaks, time off, in the
    /// practice's zone, closures taken out), and the opening hours with Scheduling's practice
    /// calendar, so a closed day is neither capacity nor idle time.
    func capacity(from: Double, to: Double) -> CapacityIndex {
        // A dashboard asks for the same period's working time several times (its figures, its
        // trend): resolved once and kept with the indexed history.
        if let known = capacityMemo.value(from: from, to: to) { return known }
        let resolved = resolveCapacity(from: from, to: to)
        capacityMemo.remember(resolved, from: from, to: to)
        return resolved
    }

    private func resolveCapacity(from: Double, to: Double) -> CapacityIndex {
        guard let range = TimeRange(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to))
        else {
            return CapacityIndex(
                clinicianWindows: catalogue.availabilities.map { _ in IntervalSet([]) }, openHours: IntervalSet([]))
        }
        let windows = catalogue.availabilities.map { availability in
            IntervalSet(availability?.windows(overlapping: range, timeZone: timeZone, closures: closures) ?? [])
        }
        let open = closures.removingClosedTime(
            from: PracticeCalendar(timeZone: timeZone).openIntervals(openingHours, overlapping: range)
                .compactMap { TimeRange(start: max($0.start, range.start), end: min($0.end, range.end)) },
            timeZone: timeZone)
        return CapacityIndex(clinicianWindows: windows, openHours: IntervalSet(open))
    }

    /// The duration model whose error is reported for a period starting at `start`: the one
    /// supplied, or one trained on the appointments completed before `start`.
    func durationModel(before start: Double) -> DurationPredictor {
        if let suppliedPredictor { return suppliedPredictor }
        let settings = options.durationModel
        var history: [CompletedVisit] = []
        for visit in visits[visitRange(startingIn: -.infinity, start)] {
            guard let actual = visit.actualMinutes, visit.completedAt < start, visit.species >= 0,
                Int(visit.type) < catalogue.knownTypes
            else { continue }
            history.append(
                CompletedVisit(
                    appointmentTypeID: Identifier(catalogue.typeIDs[Int(visit.type)]),
                    species: Visit.speciesList[Int(visit.species)], complexity: 0,
                    clinicianID: catalogue.clinicianIDs[Int(visit.clinician)],
                    actualMinutes: actual, completedAt: Date(timeIntervalSince1970: visit.completedAt)))
        }
        return DurationPredictor(
            history: history, minimumSamples: settings.minimumSamples, shrinkage: settings.shrinkage,
            gridMinutes: settings.gridMinutes)
    }
}

/// Memoised predictions: the model's clinician level walks that clinician's history, so each
/// (type, species, clinician) is predicted once per run rather than once per appointment. A
/// flat table indexed by the three positions (-2 = not yet asked, -1 = not predictable); a
/// dictionary instead when a huge catalogue would make the table too big to allocate per run.
struct PredictionCache {
    let predictor: DurationPredictor?
    private var table: [Int]
    private var overflow: [Int: Int] = [:]
    private let speciesCount = Visit.speciesList.count
    private let clinicianCount: Int

    init(predictor: DurationPredictor, catalogue: Catalogue) {
        self.predictor = predictor
        clinicianCount = max(1, catalogue.clinicianIDs.count)
        let size = catalogue.knownTypes * speciesCount * clinicianCount
        table = size <= 1 << 18 ? Array(repeating: -2, count: size) : []
    }

    private init() {
        predictor = nil
        table = []
        clinicianCount = 1
    }

    /// Predicts nothing: for figures that do not report the model's error.
    static let disabled = PredictionCache()

    mutating func minutes(for visit: Visit, catalogue: Catalogue) -> Int? {
        guard predictor != nil, visit.species >= 0, Int(visit.type) < catalogue.knownTypes else { return nil }
        let slot = (Int(visit.type) * speciesCount + Int(visit.species)) * clinicianCount + Int(visit.clinician)
        if table.isEmpty {
            if let known = overflow[slot] { return known >= 0 ? known : nil }
            let predicted = predict(visit, catalogue: catalogue)
            overflow[slot] = predicted ?? -1
            return predicted
        }
        if table[slot] == -2 { table[slot] = predict(visit, catalogue: catalogue) ?? -1 }
        return table[slot] >= 0 ? table[slot] : nil
    }

    private func predict(_ visit: Visit, catalogue: Catalogue) -> Int? {
        // A type whose default is outside what a booking can be would make the model's own
        // arithmetic meaningless; such types are left unpredicted.
        guard let predictor, let type = catalogue.types[Int(visit.type)],
            (1...1440).contains(type.defaultDurationMinutes)
        else { return nil }
        return predictor.predict(
            type: type, species: Visit.speciesList[Int(visit.species)],
            clinicianID: catalogue.clinicianIDs[Int(visit.clinician)]
        ).minutes
    }
}

extension PracticeAnalytics {
    /// Tallies every segment (or only segment `only`) over `[from, to)`.
    ///
    /// One pass over the appointments that overlap the window: booked minutes from the part
    /// inside it, everything else from those that start in it.
    func tally(
        from: Double, to: Double, only: Int?, layout: SegmentLayout, predictions: inout PredictionCache,
        quality: inout DataQuality
    ) -> [Tally] {
        var tallies = Array(repeating: Tally(), count: layout.count)
        let notice = options.lateCancellationNotice
        let currencies = catalogue.currencies.count
        for index in visitRange(overlapping: from, to) {
            let visit = visits[index]
            if let only, !layout.contains(visit, segment: only) { continue }
            // Booked time: the part of a time-holding appointment inside the window.
            if visit.hasValidTime, visit.holdsTime {
                let seconds = min(visit.end, to) - max(visit.start, from)
                if seconds > 0 { layout.forEachSegment(of: visit) { tallies[$0].bookedSeconds += seconds } }
            }
            guard visit.start >= from, visit.start < to else { continue }

            if only == nil { note(visit, in: &quality) }
            let late: Bool? = visit.status == .cancelled ? visit.cancelledAt.map { visit.start - $0 < notice } : nil
            var lead: Double?
            if let booked = visit.bookedAt { lead = max(0, visit.start - booked) / 3600 }
            var predicted: Int?
            if let actual = visit.actualMinutes, visit.hasValidTime {
                predicted = predictions.minutes(for: visit, catalogue: catalogue).map { abs($0 - actual) }
            }
            let fee = visit.status == .completed ? catalogue.typeFee[Int(visit.type)] : 0
            let currency = visit.status == .completed ? catalogue.typeCurrency[Int(visit.type)] : -1
            let firstVisit = firstVisit[Int(visit.patient)]

            let fact = VisitFact(
                visit: visit, late: late, lead: lead, modelError: predicted, fee: fee, currency: currency,
                currencies: currencies, firstVisit: firstVisit, windowStart: from)
            // In place (`inout` on the element): copying a tally out and back would copy its arrays every time.
            layout.forEachSegment(of: visit) { Self.add(fact, to: &tallies[$0], patientCount: patientCount) }
        }
        return tallies
    }

    /// What one appointment adds to each of its segments.
    struct VisitFact {
        let visit: Visit
        let late: Bool?
        let lead: Double?
        let modelError: Int?
        let fee: Int
        let currency: Int
        let currencies: Int
        let firstVisit: Double?
        let windowStart: Double
    }

    static func add(_ fact: VisitFact, to tally: inout Tally, patientCount: Int) {
        let visit = fact.visit
        tally.statuses[visit.status] += 1
        if let late = fact.late {
            if late { tally.lateCancellations += 1 }
        } else if visit.status == .cancelled {
            tally.cancellationsWithoutTime += 1
        }
        if let actual = visit.actualMinutes, visit.hasValidTime {
            tally.durationCount += 1
            tally.plannedMinutes += visit.plannedMinutes
            tally.actualMinutes += actual
            tally.absoluteDifference += abs(actual - visit.plannedMinutes)
            if let error = fact.modelError {
                tally.modelCount += 1
                tally.modelError += error
            }
        }
        if let lead = fact.lead {
            tally.leadHours.append(lead)
            tally.leadSum += lead
        }
        if fact.currency >= 0 { tally.addRevenue(fact.fee, currency: fact.currency, currencies: fact.currencies) }
        if visit.attended, tally.markPatient(Int(visit.patient), patientCount: patientCount) {
            if let first = fact.firstVisit {
                // A first visit before the window means the patient had been before; at or after its start, this is
                // their first time.
                if first < fact.windowStart { tally.returningPatients += 1 } else { tally.newPatients += 1 }
            } else {
                tally.unknownPatients += 1
            }
        }
    }

    private func note(_ visit: Visit, in quality: inout DataQuality) {
        // Known entries come first in the catalogue; positions past them are ids the history lacks.
        if Int(visit.type) >= catalogue.knownTypes { quality.unknownAppointmentType += 1 }
        if Int(visit.clinician) >= catalogue.knownClinicians { quality.unknownClinician += 1 }
        if visit.room >= 0, Int(visit.room) >= catalogue.knownRooms { quality.unknownRoom += 1 }
        if !visit.hasValidTime { quality.invalidTime += 1 }
        if visit.status == .completed, visit.actualMinutes == nil { quality.completedWithoutDuration += 1 }
        if visit.species < 0 { quality.unknownSpecies += 1 }
        if let booked = visit.bookedAt, booked > visit.start { quality.bookedAfterStart += 1 }
    }
}

/// The last few resolutions of working time, by period. The history never changes once
/// indexed, so a resolution stays true; a reference type so that the value-typed
/// ``PracticeAnalytics`` can keep it across calls, guarded by a lock for concurrent readers.
final class CapacityMemo: Sendable {
    private let entries = Mutex<[(from: Double, to: Double, capacity: CapacityIndex)]>([])

    func value(from: Double, to: Double) -> CapacityIndex? {
        entries.withLock { entries in entries.first { $0.from == from && $0.to == to }?.capacity }
    }

    func remember(_ capacity: CapacityIndex, from: Double, to: Double) {
        entries.withLock { entries in
            entries.append((from, to, capacity))
            if entries.count > 8 { entries.removeFirst() }
        }
    }
}
