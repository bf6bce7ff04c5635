import Foundation
import PatientRecords
import SharedKernel

/// What both stores decide alike when a patient is registered.
extension Patient {
    /// When a patient registered now (`now`) starts its retention period: a patient
    /// registered as archived starts it at once; any other has no archiving date.
    public func archivingDate(registeredAt now: Date) -> Date? { status == .archived ? now : nil }
}

extension AuditRecord {
    /// A patient registered (by hand, by an import or by a restore).
    public static func patientCreated(_ id: Identifier<Patient>) -> AuditRecord {
        AuditRecord(action: .patientCreate, resourceType: .patient, resourceID: id.description)
    }
}
