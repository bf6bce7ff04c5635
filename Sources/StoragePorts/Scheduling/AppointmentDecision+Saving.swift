import Foundation
import Scheduling
import SharedKernel

extension AppointmentDecision {
    /// The audit entry of a decided booking or lifecycle step, the same in both stores: a
    /// booking names the patient and, when made from an intake, the assessment it was made
    /// on; a lifecycle step is named by its event.
    public func audit(assessmentID: UUID? = nil) -> AuditRecord {
        let id = current.id.description
        guard previous == nil else {
            return AuditRecord(action: .event(eventKind), resourceType: .appointment, resourceID: id)
        }
        return AuditRecord(
            action: .appointmentBook, resourceType: .appointment, resourceID: id,
            detail: "patient=\(UUIDText.lowercase(current.patientID))"
                + (assessmentID.map { " assessment=\(UUIDText.lowercase($0))" } ?? ""))
    }

    /// The decided appointment as saved over `current`, the stored row (not found when `nil`;
    /// refused unless `expectedVersion`, when given, is its version).
    public func saved(over current: Versioned<Appointment>?, expectedVersion: Int?) throws -> Versioned<Appointment> {
        guard let current else { throw DomainError.notFound(resource: "appointment") }
        if let expectedVersion, expectedVersion != current.version {
            throw DomainError.versionMismatch(current: current.version)
        }
        return Versioned(self.current, version: current.version + 1)
    }
}
