import Foundation
import PatientRecords
import SharedKernel

/// A patient's details replaced, decided once for both stores: what is valid, the version
/// check, the record number kept, the audit entry (naming a change of status) and the event.
/// The store reads the patient (locked), checks the owners only it can see, and writes what
/// this names, its archiving date included.
public struct PatientUpdate: Sendable {
    /// The patient as it is to be stored, with its next version.
    public let patient: Versioned<Patient>
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its event.
    public let event: DomainEvent
    /// What becomes of the date the patient was archived.
    public let archiving: Archiving

    /// The stored archiving date after an update. An archived patient keeps the date it was
    /// first archived, which retention runs from; one archived now is stamped; any other has
    /// none.
    public enum Archiving: Sendable, Equatable {
        /// Archived before and still: the stored date stays.
        case kept
        /// Archived by this update, at this time.
        case archived(Date)
        /// Not archived: no date.
        case none
    }

    /// Decides replacing `current` (not found when `nil`; refused unless `expectedVersion`,
    /// when given, is its version) with `patient`.
    public static func decide(
        _ patient: Patient, current: Versioned<Patient>?, expectedVersion: Int?, scope: AccessScope, now: Date
    ) throws -> PatientUpdate {
        try patient.validate(now: now)
        guard let current else { throw DomainError.notFound(resource: "patient") }
        if let expectedVersion, expectedVersion != current.version {
            throw DomainError.versionMismatch(current: current.version)
        }
        var updated = patient
        updated.medicalRecordNumber = current.value.medicalRecordNumber
        return PatientUpdate(
            patient: Versioned(updated, version: current.version + 1),
            audit: AuditRecord(
                action: .patientUpdate, resourceType: .patient, resourceID: updated.id.description,
                detail: current.value.status != updated.status ? "status=\(updated.status.rawValue)" : nil),
            event: updated.changeEvent(previous: current.value, practiceID: scope.practiceID, occurredAt: now),
            archiving: updated.status != .archived
                ? .none : current.value.status == .archived ? .kept : .archived(now))
    }
}
