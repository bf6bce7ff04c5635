@_exported import StoragePorts
import Foundation
import Scheduling
import SharedKernel

// The embedded store implements the storage ports with the methods of its repository
// extensions. Re-exporting the ports lets code written against the SQLite store keep using
// the storage-neutral types (audit entries, sessions, event pages) without a second import.

extension VetNetStore: AccountRepository {}
extension VetNetStore: AuditRepository {}
extension VetNetStore: EventLogRepository {}
extension VetNetStore: PatientDirectory {}

extension VetNetStore: SchedulingRepository {
    /// The port's booking: without an intake's assessment (``SchedulingRepository``).
    public func bookAppointment(scope: AccessScope, patientID: UUID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
                                reason: String?, staffNotes: String?, idempotencyKey: IdempotencyKey?,
                                reads: @escaping @Sendable (PracticeProfile, AppointmentType?) throws -> BookingReads,
                                decide: @escaping @Sendable (SchedulingData) throws -> Appointment) async throws -> (Versioned<Appointment>, replayed: Bool) {
        try await bookAppointment(scope: scope, patientID: patientID, clinicianID: clinicianID, appointmentTypeID: appointmentTypeID,
                                  reason: reason, staffNotes: staffNotes, assessmentID: nil, idempotencyKey: idempotencyKey, reads: reads, decide: decide)
    }
}
