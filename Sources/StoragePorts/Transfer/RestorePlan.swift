import Foundation
import PatientRecords
import SharedKernel

// What restoring an export decides before either store writes a row: the ids a file must
// carry as UUIDs, where the record-number counter starts, and how the restore is summed up
// and audited. The rows themselves are described with the readers (`RecordRows`,
// `AssessmentRows`, `AccountRows`); each store writes them in its own dialect.

extension StaffAccount {
    /// The account as a restore writes it: in the restored practice, its address in the
    /// lower case sign-in looks it up by.
    public func restored(in practiceID: PracticeID) -> StaffAccount {
        var account = self
        account.practiceID = practiceID
        account.email = email.lowercased()
        return account
    }
}

extension ExportedAssessment {
    /// The assessment's id and its patient's, as UUIDs; a file naming either otherwise is
    /// refused naming the field.
    public func checkedIDs() throws -> (id: UUID, patientID: UUID) {
        guard let id = UUIDText.parse(id), let patientID = UUIDText.parse(patientID) else {
            throw ValidationError(
                field: "triageAssessments", message: "assessment \(id) has an id that is not a UUID")
        }
        return (id, patientID)
    }
}

extension ExportedTriageArrival {
    /// The arrival's patient id as a UUID; a file naming it otherwise is refused naming the field.
    public func checkedPatientID() throws -> UUID {
        guard let patientID = UUIDText.parse(patientID) else {
            throw ValidationError(field: "triageArrivals", message: "patient \(patientID) is not a UUID")
        }
        return patientID
    }
}

extension ExportedDocument {
    /// The document's id and its patient's, as UUIDs; a file naming either otherwise is
    /// refused naming the field.
    public func checkedIDs() throws -> (id: UUID, patientID: UUID) {
        guard let id = UUIDText.parse(id), let patientID = UUIDText.parse(patientID) else {
            throw ValidationError(field: "documents", message: "document \(id) has an id that is not a UUID")
        }
        return (id, patientID)
    }

    /// The document as a restore stores it, its type and digest in lower case.
    public func restoredInfo() throws -> DocumentInfo {
        let (id, patientID) = try checkedIDs()
        return DocumentInfo(
            id: id, patientID: Identifier(patientID), fileName: fileName, contentType: contentType.lowercased(),
            byteCount: byteCount, sha256: sha256.lowercased(), createdAt: createdAt)
    }
}

extension PracticeExport {
    /// The highest record number the file's patients carry (0 when none does): a store moves
    /// its counter past it before the patients go in, so a patient without a number (a
    /// hand-made file) gets a fresh one that cannot collide.
    public var highestRecordNumber: Int64 {
        patients.compactMap { $0.patient.medicalRecordNumber.flatMap(MedicalRecordNumber.value(of:)) }.max() ?? 0
    }
}

extension RestoreSummary {
    /// What restoring `export` stores, given how many record entries went in, how many
    /// documents came with their content and how many audit entries were carried.
    public init(restoring export: PracticeExport, recordEntries: Int, documents: Int, auditEntries: Int) {
        self.init(
            practice: export.practice, staff: export.staff, owners: export.owners.count,
            patients: export.patients.count, recordEntries: recordEntries,
            triageAssessments: export.triageAssessments.count, clinicians: export.schedule?.clinicians.count ?? 0,
            appointments: export.schedule?.appointments.count ?? 0, documents: documents,
            documentsNotRestored: export.documents.count - documents, auditEntries: auditEntries)
    }

    /// The `practice.restore` entry that sums the restore up, after the practice's carried history.
    public var auditRecord: AuditRecord {
        AuditRecord(
            action: .practiceRestore, resourceType: .practice, resourceID: practice.id.description,
            detail: "staff=\(staff.count) owners=\(owners) patients=\(patients) entries=\(recordEntries) "
                + "clinicians=\(clinicians) appointments=\(appointments) documents=\(documents) "
                + "documents_not_restored=\(documentsNotRestored) audit_carried=\(auditEntries)")
    }
}

extension AuditRecord {
    /// The entry of a staff account a restore brings back: it has no password until one is set.
    public static func restoredAccount(_ account: StaffAccount) -> AuditRecord {
        AuditRecord(
            action: .userCreate, resourceType: .user, resourceID: account.id.description,
            detail: "restored; password reset required")
    }
}
