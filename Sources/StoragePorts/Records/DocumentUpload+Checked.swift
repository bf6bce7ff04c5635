import Foundation
import PatientRecords
import SharedKernel
import StorageSupport

extension DocumentUpload.Summary {
    /// The kind the content's first bytes show, if any.
    package var detectedKind: DocumentKind? { DocumentKind.detect(leadingBytes) }

    /// Refuses an empty upload, or one whose content is not the declared kind (naming
    /// `body` or `Content-Type`).
    package func check(declared: DocumentKind) throws {
        var errors = FieldErrorCollector()
        if byteCount == 0 { errors.add("body", "is empty") }
        if byteCount > 0, detectedKind != declared {
            errors.add("Content-Type", "does not match the file's content")
        }
        try errors.throwIfAny()
    }
}

extension DocumentUpload {
    /// Finishes the upload and checks it against what the staff member said it is, the same in
    /// both stores: the file name and declared type (``DocumentKind/checkDescription(fileName:declaredType:)``),
    /// then the content, which must not be empty and must be the declared kind. Returns the
    /// name as kept, the kind and what the upload holds.
    package func finishChecked(fileName: String, declaredType: String) throws -> (
        name: String, kind: DocumentKind, summary: Summary
    ) {
        let (name, declared) = try DocumentKind.checkDescription(fileName: fileName, declaredType: declaredType)
        let received = try finish()
        try received.check(declared: declared)
        return (name, declared, received)
    }

    /// The upload finished and checked (``finishChecked(fileName:declaredType:)``) as the
    /// document both stores record for `patientID` at `now`: its details, its audit entry and
    /// its event.
    package func finishedDocument(
        patientID: Identifier<Patient>, fileName: String, declaredType: String, scope: AccessScope, now: Date
    ) throws -> FinishedDocument {
        let (name, declared, received) = try finishChecked(fileName: fileName, declaredType: declaredType)
        let info = DocumentInfo(
            id: UUID(), patientID: patientID, fileName: name, contentType: declared.rawValue,
            byteCount: received.byteCount, sha256: received.sha256, createdAt: now)
        let id = UUIDText.lowercase(info.id)
        return FinishedDocument(
            info: info,
            audit: AuditRecord(
                action: .recordDocumentUpload, resourceType: .document, resourceID: id, detail: "patient=\(patientID)"),
            event: .recordEntryAdded(
                patientID: patientID, entryType: "document", entryID: id, practiceID: scope.practiceID,
                occurredAt: now))
    }
}

/// A finished, checked upload as a store records it: the document's details, its audit entry
/// and its event (``DocumentUpload/finishedDocument(patientID:fileName:declaredType:scope:now:)``).
public struct FinishedDocument: Sendable {
    /// The document as listed.
    public let info: DocumentInfo
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its event.
    public let event: DomainEvent
}
