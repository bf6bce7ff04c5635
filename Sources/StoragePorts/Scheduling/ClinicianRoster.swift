import Foundation
import Scheduling
import SharedKernel
import Specialists

/// The practice's clinicians beyond what booking reads (``SchedulingRepository``): their
/// lifecycle, availability, and the calendar feeds staff subscribe to.
public protocol ClinicianRoster: Sendable {
    /// The time source that stamps the roster's changes.
    var clock: Clock { get }

    /// Stores a new clinician as ``ClinicianRosterWrite/create(_:availability:scope:now:)``
    /// decided at `now` — the clinician, their availability when given, the audit entry and
    /// the event — in one transaction, the staff account and the preferred appointment types
    /// checked to be the practice's own; replaying `idempotencyKey` stores nothing and returns
    /// the first request's clinician.
    func storeNewClinician(
        _ decision: ClinicianRosterWrite, at now: Date, scope: AccessScope, idempotencyKey: IdempotencyKey?
    ) async throws -> Versioned<Clinician>

    /// Changes a clinician's name, expertise or limits when the stored version is `expectedVersion`.
    func updateClinician(
        id: Identifier<Clinician>, change: ClinicianChange, scope: AccessScope,
        expectedVersion: Int?
    ) async throws -> Versioned<Clinician>

    /// Retires a clinician; their bookings still to come are reported for re-planning.
    func retireClinician(id: Identifier<Clinician>, scope: AccessScope, expectedVersion: Int?) async throws
        -> ClinicianRetirement

    /// One clinician of the practice, retired or not (404 otherwise).
    func clinician(scope: AccessScope, id: Identifier<Clinician>) async throws -> Versioned<Clinician>

    /// Every clinician's weekly availability with its version.
    func availabilities(scope: AccessScope) async throws -> [Identifier<Clinician>: Versioned<ClinicianAvailability>]

    /// Clinicians who have seen the patient before (for continuity of care in ranking).
    func previousClinicians(patientID: UUID, scope: AccessScope) async throws -> Set<Identifier<Clinician>>

    /// Stores a calendar feed's token hash for a clinician.
    func createCalendarFeed(tokenHash: String, clinicianID: Identifier<Clinician>, scope: AccessScope) async throws

    /// Revokes every calendar feed of a clinician.
    func revokeCalendarFeeds(clinicianID: Identifier<Clinician>, scope: AccessScope) async throws

    /// The practice and clinician of a calendar feed token hash, if it is live.
    func calendarFeed(tokenHash: String) async throws -> (PracticeID, Identifier<Clinician>)?
}

/// Appointments as staff read them beyond the schedule: reasons, notes, booking basis, a
/// patient's history of appointments, and the practice's scheduling profile.
public protocol AppointmentDetailsRepository: Sendable {
    /// One appointment with its reason, notes, basis and visit.
    func appointmentDetails(scope: AccessScope, id: Identifier<Appointment>) async throws -> AppointmentDetails

    /// A patient's appointments, newest first, with when they were last seen and are next due.
    func patientAppointments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: String?) async throws
        -> PatientAppointments

    /// Changes an appointment's reason and staff notes when the stored version is `expectedVersion`.
    func updateAppointmentNotes(
        scope: AccessScope, id: Identifier<Appointment>, reason: String?, staffNotes: String?,
        expectedVersion: Int?
    ) async throws -> AppointmentDetails

    /// Completed appointments with the patient's species (the duration model's training data).
    func completedAppointments(scope: AccessScope) async throws -> [(Appointment, species: String)]

    /// The practice profile as scheduling reads it (hours, closures, rules).
    func schedulingPractice(scope: AccessScope) async throws -> PracticeProfile

    /// One appointment type of the practice, if it exists.
    func appointmentType(scope: AccessScope, id: Identifier<AppointmentType>) async throws -> AppointmentType?
}

extension ClinicianRoster {
    /// Creates a clinician with an optional weekly availability in one transaction, so they
    /// can be matched and booked as soon as this returns: decided here
    /// (``ClinicianRosterWrite/create(_:availability:scope:now:)``), stored by the store.
    /// Replaying `idempotencyKey` — through any instance — creates nothing the second time and
    /// returns the first request's clinician.
    public func createClinician(
        _ clinician: Clinician, availability: ClinicianAvailability?, scope: AccessScope,
        idempotencyKey: IdempotencyKey?
    ) async throws -> Versioned<Clinician> {
        let now = clock.now()
        let decision = try ClinicianRosterWrite.create(clinician, availability: availability, scope: scope, now: now)
        return try await storeNewClinician(decision, at: now, scope: scope, idempotencyKey: idempotencyKey)
    }
}

extension SchedulingRepository where Self: ClinicianRoster {
    /// Creates a clinician with their expertise in the scope's practice (validated, audited),
    /// with no availability yet.
    public func createClinician(_ clinician: Clinician, scope: AccessScope) async throws -> Clinician {
        try await createClinician(clinician, availability: nil, scope: scope, idempotencyKey: nil).value
    }
}
