import Foundation
import Scheduling
import SharedKernel
import Specialists
import Triage

// MARK: - Facts about one appointment

/// An appointment as analytics reads it: the scheduling record plus the facts the lifecycle
/// does not keep on the appointment itself.
///
/// A storage adapter fills it from one row of the appointment table (`created_at` is
/// ``bookedAt``), the patient's species and, for cancellations, the time of the cancelling
/// event. Missing facts are `nil` and only the metrics that need them skip the appointment.
public struct AppointmentRecord: Hashable, Sendable {
    /// The appointment as scheduling stores it.
    public var appointment: Appointment
    /// The patient's species, for the per-species breakdown and the duration model.
    public var species: Species?
    /// When the booking was made, for lead time.
    public var bookedAt: Date?
    /// When it was cancelled, for late cancellations (ignored unless the status is cancelled).
    public var cancelledAt: Date?

    /// Creates a record.
    public init(_ appointment: Appointment, species: Species? = nil, bookedAt: Date? = nil, cancelledAt: Date? = nil) {
        self.appointment = appointment
        self.species = species
        self.bookedAt = bookedAt
        self.cancelledAt = cancelledAt
    }
}

extension Sequence<AppointmentRecord> {
    /// Each patient's first attended visit (``Scheduling/AppointmentStatus/isAttended``): the
    /// earliest among these records, unless `known` (the visits before them) has an earlier one.
    public func firstVisits(after known: [UUID: Date]) -> [UUID: Date] {
        var first = known
        for record in self where record.appointment.status.isAttended {
            let start = record.appointment.time.start
            if let earlier = first[record.appointment.patientID], earlier <= start { continue }
            first[record.appointment.patientID] = start
        }
        return first
    }
}

// MARK: - Triage arrivals

/// One triaged arrival at the emergency service: how urgent, when the patient came, and
/// when a clinician first saw them.
///
/// The level is the one the patient was seen under (the latest assessment before first
/// contact); the wait runs from arrival, as on the ER board, even after a re-triage.
public struct TriageArrival: Hashable, Sendable {
    /// The patient (`Identifier<Patient>.rawValue`).
    public var patientID: UUID
    /// VTL level.
    public var level: TriageLevel
    /// When the patient arrived.
    public var arrival: Date
    /// When a clinician first saw the patient; `nil` while waiting or if they left unseen.
    public var firstSeenAt: Date?
    /// The patient's species, when known.
    public var species: Species?
    /// When the patient left without being seen; their wait stops there.
    public var leftAt: Date?

    /// Creates an arrival.
    public init(
        patientID: UUID, level: TriageLevel, arrival: Date, firstSeenAt: Date?, species: Species? = nil,
        leftAt: Date? = nil
    ) {
        self.patientID = patientID
        self.level = level
        self.arrival = arrival
        self.firstSeenAt = firstSeenAt
        self.species = species
        self.leftAt = leftAt
    }
}

// MARK: - Unbooked demand

/// Work asked for but not yet on the schedule (a referral, a waiting-list entry): demand the
/// bottleneck report adds to what is already booked.
public struct OpenRequest: Hashable, Sendable {
    /// Specialty needed; `nil` when any clinician can take it (counted as general practice).
    public var specialty: Specialty?
    /// Minutes of clinician time it will need (the appointment type's duration, or a prediction).
    public var minutes: Int

    /// Creates a request.
    public init(specialty: Specialty?, minutes: Int) {
        self.specialty = specialty
        self.minutes = minutes
    }
}

// MARK: - Everything analysed

/// A practice's records as the analytics engine reads them: plain domain values an adapter
/// can load with a handful of range queries (appointments, triage arrivals) and whole-table
/// reads of the small catalogues (types, clinicians, availability, rooms).
///
/// Nothing has to be pre-filtered: appointments and arrivals outside a period are skipped,
/// and ids that point nowhere are reported in ``DataQuality`` rather than trusted.
public struct PracticeHistory: Sendable {
    /// Time zone and opening hours (the opening hours are the rooms' open time).
    public var practice: PracticeProfile
    /// The appointment types, with their fees and required specialties.
    public var appointmentTypes: [AppointmentType]
    /// The clinicians.
    public var clinicians: [Clinician]
    /// Their availability; a clinician without one has no working time.
    public var availabilities: [ClinicianAvailability]
    /// The rooms.
    public var rooms: [Room]
    /// Appointments, in any order, covering at least the periods asked about (and the history
    /// the forecast should learn from).
    public var appointments: [AppointmentRecord]
    /// Triage arrivals, in any order.
    public var triageArrivals: [TriageArrival]
    /// Each patient's first visit to the practice, so a patient seen in a period is new when
    /// the first visit falls inside it. An adapter reads it as one grouped `MIN`.
    public var firstVisits: [UUID: Date]
    /// Demand not yet booked.
    public var openRequests: [OpenRequest]

    /// Creates a history.
    public init(
        practice: PracticeProfile, appointmentTypes: [AppointmentType] = [], clinicians: [Clinician] = [],
        availabilities: [ClinicianAvailability] = [], rooms: [Room] = [], appointments: [AppointmentRecord] = [],
        triageArrivals: [TriageArrival] = [], firstVisits: [UUID: Date] = [:], openRequests: [OpenRequest] = []
    ) {
        self.practice = practice
        self.appointmentTypes = appointmentTypes
        self.clinicians = clinicians
        self.availabilities = availabilities
        self.rooms = rooms
        self.appointments = appointments
        self.triageArrivals = triageArrivals
        self.firstVisits = firstVisits
        self.openRequests = openRequests
    }
}
