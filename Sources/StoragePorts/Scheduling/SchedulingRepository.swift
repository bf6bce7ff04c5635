import Foundation
import Scheduling
import SharedKernel
import Specialists

/// What booking needs from a store: the practice's clinicians with their availability, rooms
/// and appointment types, the scheduling picture, and appointments booked and changed so that
/// no clinician or room is ever double-booked — whichever server instance writes.
///
/// Smaller than the embedded store on purpose: a booking made from an intake (its triage
/// assessment and ranking stored with it, ``BookingBasis``) needs the patient records and
/// triage tables, which not every store holds yet, so the port books without an assessment.
/// Clinician updates, retirement and calendar feeds are likewise not part of it yet.
public protocol SchedulingRepository: Sendable {
    // MARK: Clinicians

    /// Creates a clinician with their expertise in the scope's practice (validated, audited).
    func createClinician(_ clinician: Clinician, scope: AccessScope) async throws -> Clinician

    /// The practice's clinicians who work here, by name; with `includingRetired`, the retired ones too.
    func clinicians(scope: AccessScope, includingRetired: Bool) async throws -> [Clinician]

    /// Replaces a clinician's availability under optimistic concurrency (audited; an event).
    func setAvailability(_ availability: ClinicianAvailability, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<ClinicianAvailability>

    // MARK: Rooms and appointment types

    /// Adds a room (audited). Names are unique within a practice (``UniquenessConflict``).
    func createRoom(_ room: Room, scope: AccessScope) async throws -> Room

    /// The practice's rooms by name.
    func rooms(scope: AccessScope) async throws -> [Room]

    /// Adds an appointment type (audited). Names are unique within a practice (``UniquenessConflict``).
    func createAppointmentType(_ type: AppointmentType, scope: AccessScope) async throws -> AppointmentType

    /// The practice's appointment types by name.
    func appointmentTypes(scope: AccessScope) async throws -> [AppointmentType]

    /// Changes a room by `decide` (the domain's ``Room/applying(_:)``) on its stored state, in
    /// one audited transaction (`room.update`). Names stay unique (``UniquenessConflict``).
    func updateRoom(id: Identifier<Room>, scope: AccessScope, decide: @escaping @Sendable (Room) throws -> Room)
        async throws -> Room

    /// Changes an appointment type by `decide` (``AppointmentType/applying(_:)`` or
    /// ``AppointmentType/retired(at:)``) on its stored state, audited under `action`. Names stay unique.
    func updateAppointmentType(
        id: Identifier<AppointmentType>, scope: AccessScope, action: AuditAction,
        decide: @escaping @Sendable (AppointmentType) throws -> AppointmentType
    ) async throws -> AppointmentType

    // MARK: Booking

    /// The scheduling picture for `range`; with `clinicianID`, only that clinician, their
    /// availability and the appointments that share their time or the room type of
    /// `appointmentTypeID` (then the only type loaded).
    func schedulingData(
        scope: AccessScope, range: TimeRange, clinicianID: UUID?,
        appointmentTypeID: Identifier<AppointmentType>?
    ) async throws -> SchedulingData

    /// Books in one transaction: `reads` names, from the practice's profile and the requested
    /// type, the appointments the decision depends on; `decide` checks that picture and
    /// returns the appointment (it throws to refuse); the appointment is inserted with its
    /// audit entry and `appointment.booked` event. A write that would still overlap another
    /// booking of the clinician or room — decided on a picture another writer has since
    /// changed — is refused with ``BookingConflict``. Idempotent per key: a replay returns the
    /// first appointment without deciding again (a key reused for another request or by
    /// another account is a ``DomainError/conflict(_:)``). The patient is referenced by id.
    func bookAppointment(
        scope: AccessScope, patientID: UUID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
        reason: String?, staffNotes: String?, assessmentID: UUID?, idempotencyKey: IdempotencyKey?,
        reads: @escaping @Sendable (PracticeProfile, AppointmentType?) throws -> BookingReads,
        decide: @escaping @Sendable (SchedulingData) throws -> Appointment
    ) async throws -> (Versioned<Appointment>, replayed: Bool)

    /// Writes a lifecycle decision (reschedule, check-in, start, complete, cancel, no-show)
    /// under optimistic concurrency; a reschedule onto taken time is a ``BookingConflict``. Audited.
    func saveAppointment(_ decision: AppointmentDecision, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<Appointment>

    /// One appointment of the scope's practice (another practice's is not found).
    func appointment(scope: AccessScope, id: Identifier<Appointment>) async throws -> Versioned<Appointment>

    /// Appointments overlapping `range` (optionally of one clinician, plus — with `orRoomType` —
    /// every appointment using that room type), by start.
    func appointments(
        scope: AccessScope, overlapping range: TimeRange, clinicianID: UUID?,
        orRoomType roomType: RoomType?
    ) async throws -> [Versioned<Appointment>]
}

extension SchedulingRepository {
    /// Active clinicians.
    public func clinicians(scope: AccessScope) async throws -> [Clinician] {
        try await clinicians(scope: scope, includingRetired: false)
    }

    /// Appointments overlapping `range`, of every clinician and room.
    public func appointments(scope: AccessScope, overlapping range: TimeRange, clinicianID: UUID? = nil) async throws
        -> [Versioned<Appointment>]
    {
        try await appointments(scope: scope, overlapping: range, clinicianID: clinicianID, orRoomType: nil)
    }

    /// Everything scheduling reads for `range`, for every clinician and type.
    public func schedulingData(scope: AccessScope, range: TimeRange) async throws -> SchedulingData {
        try await schedulingData(scope: scope, range: range, clinicianID: nil, appointmentTypeID: nil)
    }
}
