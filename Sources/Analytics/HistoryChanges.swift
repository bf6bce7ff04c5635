import Foundation
import SharedKernel

/// What changed in a practice's records, since a history was indexed, within the window it
/// was read for (``HistoryWindow``): enough to bring the index up to date rather than read
/// and index the whole window again after every booking.
///
/// A store fills it from the rows written since (their current form when the window covers
/// them) and from the rows removed since. The index it is applied to then holds exactly what
/// indexing a fresh read of the window would hold.
public struct HistoryChanges: Sendable {
    /// Appointments to take out, by id: every one written or removed since, whether or not the
    /// index holds it (one written since comes back in ``appointments`` if the window covers it).
    public var removedAppointments: [UUID]
    /// The current form of the appointments written since that the window covers.
    public var appointments: [AppointmentRecord]
    /// Triage arrivals to take out (written or removed since), by patient and arrival.
    public var removedArrivals: [ArrivalKey]
    /// The current form of the triage arrivals written since that the window covers.
    public var arrivals: [TriageArrival]
    /// The patients whose first visit these changes may have moved: every patient of an
    /// appointment written or removed since.
    public var patientsConcerned: Set<UUID>
    /// The first visit, as ``PracticeHistory/firstVisits`` states it for the window, of each
    /// patient concerned who has one.
    public var firstVisits: [UUID: Date]

    /// A triage arrival's identity: the patient and when they arrived.
    public struct ArrivalKey: Hashable, Sendable {
        /// The patient.
        public var patientID: UUID
        /// When they arrived.
        public var arrival: Date

        /// Creates a key.
        public init(patientID: UUID, arrival: Date) {
            self.patientID = patientID
            self.arrival = arrival
        }
    }

    /// Creates a set of changes.
    public init(
        removedAppointments: [UUID] = [], appointments: [AppointmentRecord] = [], removedArrivals: [ArrivalKey] = [],
        arrivals: [TriageArrival] = [], patientsConcerned: Set<UUID> = [], firstVisits: [UUID: Date] = [:]
    ) {
        self.removedAppointments = removedAppointments
        self.appointments = appointments
        self.removedArrivals = removedArrivals
        self.arrivals = arrivals
        self.patientsConcerned = patientsConcerned
        self.firstVisits = firstVisits
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        removedAppointments.isEmpty && appointments.isEmpty && removedArrivals.isEmpty && arrivals.isEmpty
            && patientsConcerned.isEmpty
    }
}

extension PracticeAnalytics {
    /// Appointments held by the index (those whose start is not a real instant included).
    public var appointmentCount: Int { visits.count + unreadableAppointments }
    /// Triage arrivals held by the index.
    public var arrivalCount: Int { arrivals.count }

    /// The index brought up to date with `changes`: the same figures as indexing a fresh read
    /// of the window, at the cost of the changes rather than of the window. `nil` when that
    /// cannot be promised — a change names a clinician, appointment type or room the
    /// configuration does not know (their positions would depend on the order records were
    /// read in), or has a start that is not a real instant — and the history must be indexed
    /// afresh. The configuration (types, clinicians, availability, rooms, opening hours) must
    /// be the one this index was built with.
    public func applying(_ changes: HistoryChanges) -> PracticeAnalytics? {
        guard catalogue.clinicianIDs.count == catalogue.knownClinicians,
            catalogue.typeIDs.count == catalogue.knownTypes,
            catalogue.roomIDs.count == catalogue.knownRooms, unreadableAppointments == 0
        else { return nil }
        var updated = self

        // Appointments: the ones written or removed since go out; the current form of those the window covers comes in.
        if !changes.removedAppointments.isEmpty || !changes.appointments.isEmpty {
            var removed = UUIDTable(capacity: changes.removedAppointments.count + changes.appointments.count)
            for id in changes.removedAppointments { removed.insert(id, 0) }
            for record in changes.appointments { removed.insert(record.appointment.id.rawValue, 0) }

            var catalogue = self.catalogue
            var added: [(visit: Visit, id: UUID)] = []
            added.reserveCapacity(changes.appointments.count)
            for record in changes.appointments {
                guard record.appointment.time.start.timeIntervalSince1970.isFinite else { return nil }
                let patient = Self.patient(
                    record.appointment.patientID, index: &updated.patientIndex, ids: &updated.patientIDs)
                added.append(
                    (Visit(record: record, patient: patient, catalogue: &catalogue), record.appointment.id.rawValue))
            }
            // An id the configuration lacks would have been given a position of its own.
            guard catalogue.clinicianIDs.count == catalogue.knownClinicians,
                catalogue.typeIDs.count == catalogue.knownTypes,
                catalogue.roomIDs.count == catalogue.knownRooms
            else { return nil }
            added.sort { UUIDOrder.precedes($0.visit.start, $0.id, $1.visit.start, $1.id) }

            // One merge of the kept visits (in order already) with the added ones.
            var visits: [Visit] = []
            var ids: [UUID] = []
            visits.reserveCapacity(self.visits.count + added.count)
            ids.reserveCapacity(self.visits.count + added.count)
            var next = 0
            for index in self.visits.indices where removed.find(visitIDs[index]) == nil {
                let visit = self.visits[index]
                let id = visitIDs[index]
                while next < added.count, UUIDOrder.precedes(added[next].visit.start, added[next].id, visit.start, id) {
                    visits.append(added[next].visit)
                    ids.append(added[next].id)
                    next += 1
                }
                visits.append(visit)
                ids.append(id)
            }
            for entry in added[next...] {
                visits.append(entry.visit)
                ids.append(entry.id)
            }
            updated.visits = visits
            updated.visitIDs = ids
            updated.visitStarts = visits.map(\.start)
            updated.longestVisit = Self.longest(visits)
        }

        // First visits of the patients concerned, as the store states them now.
        updated.firstVisit.reserveCapacity(updated.patientIDs.count)
        while updated.firstVisit.count < updated.patientIDs.count {
            updated.firstVisit.append(
                changes.firstVisits[updated.patientIDs[updated.firstVisit.count]].map(\.timeIntervalSince1970))
        }
        for patient in changes.patientsConcerned {
            guard let index = updated.patientIndex.find(patient) else { continue }
            updated.firstVisit[Int(index)] = changes.firstVisits[patient].map(\.timeIntervalSince1970)
        }

        // Triage arrivals, likewise.
        if !changes.removedArrivals.isEmpty || !changes.arrivals.isEmpty {
            var removed = Set(changes.removedArrivals)
            for arrival in changes.arrivals {
                removed.insert(HistoryChanges.ArrivalKey(patientID: arrival.patientID, arrival: arrival.arrival))
            }
            var arrivals = self.arrivals.filter {
                !removed.contains(HistoryChanges.ArrivalKey(patientID: $0.patientID, arrival: $0.arrival))
            }
            arrivals += changes.arrivals.filter { $0.arrival.timeIntervalSince1970.isFinite }
            arrivals.sort(by: Self.inOrder)
            updated.arrivals = arrivals
            updated.arrivalTimes = arrivals.map { $0.arrival.timeIntervalSince1970 }
        }
        return updated
    }
}
