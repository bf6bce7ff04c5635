import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StorageSupport

/// A patient's medical record beyond the directory (``PatientDirectory``): entries, visits,
/// recalls, and the retention purge. Every write is validated by the domain, audited and
/// published in one transaction; every read of a record is audited by the caller.
public protocol MedicalRecordRepository: Sendable {
    /// Adds an entry (weight, problem, allergy, medication, vaccination, note, addendum) after
    /// the domain's checks against the stored record. Replaying `idempotencyKey` does nothing.
    func addRecordEntry(
        _ entry: RecordEntry, patientID: Identifier<Patient>, scope: AccessScope,
        idempotencyKey: IdempotencyKey?) async throws

    /// Corrects an entry (stop, change, resolve, reopen, update, refute, correct, entered in
    /// error): decided by ``RecordCorrection/decide(_:entryKind:entryID:on:by:at:id:calendar:)``
    /// against the record as it stands, kept, audited and published in one transaction; the
    /// entry itself is never rewritten or deleted. Replaying `idempotencyKey` returns the first.
    func correctRecordEntry(
        _ change: RecordCorrection.Change, entryKind: RecordEntryKind, entryID: UUID, patientID: Identifier<Patient>,
        scope: AccessScope, idempotencyKey: IdempotencyKey?
    ) async throws -> RecordCorrection

    /// The whole record with its version, corrections applied.
    func medicalRecord(scope: AccessScope, patientID: Identifier<Patient>) async throws -> (MedicalRecord, version: Int)

    /// Vaccinations due within `days` of `asOf` or overdue, with the patients' names.
    func vaccinationReminders(scope: AccessScope, asOf: Date, withinDays days: Int) async throws
        -> (report: VaccinationDueReport, patientNames: [Identifier<Patient>: String])

    /// Adds a visit record; `otherErrors` found elsewhere in the same form are reported with
    /// the visit's own, and nothing is written while there are any.
    func addVisit(_ visit: Visit, otherErrors: [FieldError], scope: AccessScope, idempotencyKey: IdempotencyKey?)
        async throws -> StoredVisit

    /// A patient's visits, newest first.
    func visits(scope: AccessScope, patientID: Identifier<Patient>) async throws -> [StoredVisit]

    /// One visit of a patient (404 otherwise).
    func visit(scope: AccessScope, patientID: Identifier<Patient>, id: Identifier<Visit>) async throws -> StoredVisit

    /// Vaccinations and follow-ups due within `days` of `asOf`, and those overdue.
    func recalls(scope: AccessScope, asOf: Date, withinDays days: Int) async throws -> (
        dueSoon: [Recall], overdue: [Recall]
    )

    /// Changes an owner when the stored version is `expectedVersion`.
    func updateOwner(_ owner: Owner, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<Owner>

    /// Number of owners of the practice.
    func ownerCount(scope: AccessScope) async throws -> Int

    /// Number of patients of the practice.
    func patientCount(scope: AccessScope) async throws -> Int

    /// Call names of `ids` in the scope's practice (others are left out).
    func patientNames(ids: [UUID], scope: AccessScope) async throws -> [UUID: String]

    /// Imports a CSV plan of owners and patients in one transaction (or, with `skipRefused`,
    /// every row that passes); nothing is written when any row is refused otherwise.
    func importPatients(
        _ plan: PatientImportPlan, scope: AccessScope, skipRefused: Bool,
        progress: ImportProgressHandler?
    ) async throws -> PatientImportResult

    /// Deletes patients archived longer than the retention period, with their records,
    /// appointments, assessments and documents. Audited with counts, never names.
    func purgeArchivedPatients(scope: AccessScope, retentionYears: Int) async throws -> PurgeSummary
}

extension MedicalRecordRepository {
    /// Adds an entry without an idempotency key.
    public func addRecordEntry(_ entry: RecordEntry, patientID: Identifier<Patient>, scope: AccessScope) async throws {
        try await addRecordEntry(entry, patientID: patientID, scope: scope, idempotencyKey: nil)
    }

    /// Adds a visit without other errors or an idempotency key.
    public func addVisit(_ visit: Visit, scope: AccessScope) async throws -> StoredVisit {
        try await addVisit(visit, otherErrors: [], scope: scope, idempotencyKey: nil)
    }
}

/// Documents attached to records, encrypted at rest. An upload is checked (name, declared
/// type, patient) before any byte is read, streamed encrypted into a ``DocumentUpload``, and
/// committed with its record, audit entry and event.
public protocol DocumentRepository: Sendable {
    /// Begins an upload after checking the file name, declared type and patient.
    func beginDocument(patientID: Identifier<Patient>, fileName: String, declaredType: String, scope: AccessScope)
        async throws -> DocumentUpload

    /// The time source that stamps a document's upload.
    var clock: Clock { get }

    /// Keeps a finished upload as ``addDocument(_:patientID:fileName:declaredType:scope:)``
    /// decided it: its content, its row, its audit entry and its event.
    func storeDocument(_ upload: DocumentUpload, as document: FinishedDocument, scope: AccessScope) async throws

    /// A patient's documents, newest first.
    func documents(patientID: Identifier<Patient>, scope: AccessScope) async throws -> [DocumentInfo]

    /// One document with its decrypted content; a tampered file is refused.
    func document(id: UUID, patientID: Identifier<Patient>, scope: AccessScope) async throws -> (DocumentInfo, Data)

    /// Removes stored content no record refers to (an upload cut off mid-way); returns how many.
    @discardableResult
    func sweepOrphanDocuments() async throws -> Int
}

extension DocumentRepository {
    /// Commits a finished upload: its content must be the declared kind, and the document's
    /// details, audit entry and event are decided here, once for both stores.
    public func addDocument(
        _ upload: DocumentUpload, patientID: Identifier<Patient>, fileName: String, declaredType: String,
        scope: AccessScope
    ) async throws -> DocumentInfo {
        let document = try upload.finishedDocument(
            patientID: patientID, fileName: fileName, declaredType: declaredType, scope: scope, now: clock.now())
        try await storeDocument(upload, as: document, scope: scope)
        return document.info
    }

    /// Adds a document held in memory (imports, tests): the same checks and sealed format as
    /// a streamed upload.
    public func addDocument(
        patientID: Identifier<Patient>, fileName: String, declaredType: String, data: Data,
        scope: AccessScope
    ) async throws -> DocumentInfo {
        let upload = try await beginDocument(
            patientID: patientID, fileName: fileName, declaredType: declaredType, scope: scope)
        do { try upload.append(data) } catch is DocumentTooLarge {
            throw ValidationError(field: "body", message: "exceeds \(maxDocumentBytes / 1_048_576) MB")
        }
        return try await addDocument(
            upload, patientID: patientID, fileName: fileName, declaredType: declaredType, scope: scope)
    }
}

/// The largest document a practice may attach.
public let maxDocumentBytes = 20 * 1024 * 1024
