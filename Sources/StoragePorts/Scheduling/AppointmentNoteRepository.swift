import Foundation
import Scheduling
import SharedKernel

/// The notes staff add to appointments.
public protocol AppointmentNoteRepository: Sendable {
    /// Adds `note` to its appointment (which must be one of the scope's practice: 404
    /// otherwise), audited and published, in one transaction; its text is sealed at rest. With
    /// an idempotency key, a repeat adds nothing and answers the first note.
    func addAppointmentNote(_ note: AppointmentNote, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws
        -> AppointmentNote

    /// The appointment's notes, oldest first (audited); 404 for an appointment of another practice.
    func appointmentNotes(scope: AccessScope, appointmentID: Identifier<Appointment>) async throws -> [AppointmentNote]

    /// How many notes each of `appointmentIDs` has (absent: none), for the schedule's markers;
    /// counts only, so not audited as a read of the notes.
    func appointmentNoteCounts(scope: AccessScope, appointmentIDs: [Identifier<Appointment>]) async throws
        -> [Identifier<Appointment>: Int]
}
