import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import StorageSupport

extension VetNetStore {
    /// Restores an export into an empty store in one transaction: the practice, staff accounts,
    /// owners, and patients keeping their ids and record numbers, every record entry, and
    /// triage assessments, and the schedule (clinicians, availability, rooms, appointment types,
    /// appointments in every status). Notes are sealed again with this store's key.
    ///
    /// Password hashes are never exported, so each account gets a hash no password matches:
    /// staff must have a new password set (`vetnet users` or an administrator) before signing in.
    /// Owners and patients go through the same inserts as single creates, so the search index
    /// and the audit trail are built as usual; `practice.restore` sums it up.
    public func restorePractice(
        _ export: PracticeExport, requestID: String? = nil,
        progress: ImportProgressHandler? = nil
    ) async throws -> RestoreSummary {
        let now = clock.now()
        try export.validate(now: now)
        let carriedAudit = try export.checkedAudit()
        // Carried documents are checked and their files written first (content-addressed and
        // encrypted as uploads are); should the restore not commit, the sweep removes them.
        var carried: [ExportedDocument] = []
        for (index, document) in export.documents.enumerated() {
            guard let content = try document.checkedContent(index: index) else { continue }
            try storeDocumentContent(content, sha256: document.sha256.lowercased())
            carried.append(document)
        }
        let carriedDocuments = carried
        let practiceID = export.practice.id
        let scope = AccessScope.system(practiceID, requestID: requestID)
        return try await write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM practice") == 0 else {
                throw RestoreError.storeNotEmpty
            }
            // The practice's history comes first in the chain, as it happened; the restore's own
            // entries follow it.
            for entry in carriedAudit { try self.appendCarriedAudit(entry, db: db) }
            let stamp = Timestamp.string(now)
            let practice = export.practice
            try Self.insertPracticeRow(practice, id: practiceID, createdAt: stamp, db: db)
            for account in export.staff {
                try db.insert(
                    AccountRows.insert(
                        account.restored(in: practiceID), passwordHash: StoredCredentials.unusablePasswordHash()))
                try self.appendAudit(.restoredAccount(account), scope: scope, db: db)
            }
            for owner in export.owners { try self.insertOwner(owner, db: db, scope: scope) }
            // Move the counter past every restored number first, so a patient without one
            // (a hand-made file) gets a fresh number that cannot collide.
            try Self.advanceRecordNumberCounter(
                db: db, practiceID: practiceID, to: Int(clamping: export.highestRecordNumber))
            var entries = 0
            for (index, item) in export.patients.enumerated() {
                try self.insertPatient(
                    item.patient, db: db, scope: scope, recordNumber: item.patient.medicalRecordNumber,
                    archivedAt: item.archivedAt)
                entries += try self.insertRecordEntries(of: item, db: db, practiceID: practiceID, now: now)
                if let progress, (index + 1) % 500 == 0 || index + 1 == export.patients.count {
                    progress(index + 1, export.patients.count)
                }
            }
            let seal = self.fieldSeal(practiceID)
            for assessment in export.triageAssessments {
                try db.insert(AssessmentRows.insert(assessment, practiceID: practiceID, seal: seal))
                let ids = try assessment.checkedIDs()
                for override in assessment.overrides ?? [] where override.assessmentID.rawValue == ids.id {
                    try db.insert(AssessmentRows.insert(override, patientID: ids.patientID, seal: seal))
                }
            }
            for arrival in export.triageArrivals ?? [] {
                try db.insert(AssessmentRows.insert(arrival, practiceID: practiceID))
            }
            if let schedule = export.schedule {
                try self.restoreSchedule(schedule, practiceID: practiceID, createdAt: now, db: db)
            }
            // Visits refer to appointments and clinicians, so they come after the schedule.
            for item in export.patients {
                for visit in item.visits ?? [] where visit.patientID == item.patient.id {
                    try db.insert(
                        RecordRows.insert(
                            visit, seal: self.fieldSeal(practiceID), recordedBy: visit.recordedBy?.id.description,
                            createdAt: visit.occurredAt))
                }
                for correction in item.corrections ?? [] where correction.patientID == item.patient.id {
                    try db.insert(RecordRows.insert(correction, seal: self.fieldSeal(practiceID)))
                }
            }
            for document in carriedDocuments {
                try db.insert(RecordRows.insert(try document.restoredInfo(), practiceID: practiceID, uploadedBy: nil))
            }
            let summary = RestoreSummary(
                restoring: export, recordEntries: entries, documents: carriedDocuments.count,
                auditEntries: carriedAudit.count)
            try self.appendAudit(summary.auditRecord, scope: scope, db: db)
            return summary
        }
    }

    // MARK: - Rows

    /// Writes a carried document's content as an upload would: encrypted, named by its SHA-256,
    /// flushed and renamed into place (identical content is stored once).
    private func storeDocumentContent(_ content: Data, sha256: String) throws {
        guard let directory = documentsDirectory else { throw DomainError.conflict("this store keeps no documents") }
        let fileURL = directory.appendingPathComponent(sha256)
        guard !FileManager.default.fileExists(atPath: fileURL.path) else { return }
        let upload = try DocumentUpload(directory: directory, keyBytes: cipher.keyBytes, limit: maxDocumentBytes)
        try upload.append(content)
        _ = try upload.finish()
        try DurableFile.replace(fileURL, with: upload.temporaryURL)
        upload.keep()
    }

    /// The schedule's rows. Appointments go through the same overlap triggers as bookings, so
    /// a hand-made file cannot double-book anyone.
    private func restoreSchedule(_ schedule: ExportedSchedule, practiceID: PracticeID, createdAt: Date, db: Database)
        throws
    {
        for item in schedule.clinicians {
            try Self.insertClinician(
                item.clinician, active: item.active, practiceID: practiceID, createdAt: createdAt, db: db)
        }
        for item in schedule.availabilities {
            try db.insert(AppointmentRows.insert(item.availability, version: item.version, practiceID: practiceID))
        }
        for room in schedule.rooms { try db.insert(AppointmentRows.insert(room, practiceID: practiceID)) }
        for type in schedule.appointmentTypes { try db.insert(AppointmentRows.insert(type, practiceID: practiceID)) }
        for item in schedule.appointments {
            do {
                try Self.insertRow(
                    item.appointment, reason: item.reason, createdAt: item.bookedAt, version: item.version,
                    practiceID: practiceID,
                    cancelledAt: item.cancelledAt, db: db)
                if item.staffNotes != nil || item.intake != nil {
                    try db.execute(
                        sql:
                            """
                            UPDATE appointment SET staff_notes = ?, assessment_id = ?, triage_level = ?, match_basis \
                            = ? WHERE id = ?
                            """,
                        arguments: [
                            item.staffNotes, item.intake.map { Self.text($0.assessmentID) }, item.intake?.triageLevel,
                            try item.intake.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) },
                            item.appointment.id.description,
                        ])
                }
            } catch is OverlapRefusal {
                throw RestoreError.overlappingAppointment(id: item.appointment.id.description)
            }
            for note in item.notes ?? [] {
                try db.insert(
                    AppointmentRows.insert(
                        note, patientID: item.appointment.patientID, practiceID: practiceID, cipher: cipher))
            }
        }
    }

    /// Inserts a restored patient's record entries as stored originally (no re-validation
    /// against today: a dose or weight that was valid when entered stays part of the history).
    /// Returns how many were inserted.
    private func insertRecordEntries(of item: ExportedPatient, db: Database, practiceID: PracticeID, now: Date)
        throws -> Int
    {
        let entries = item.restoredEntries(fallback: now)
        for (entry, stamp) in entries {
            try db.insert(
                RecordRows.insert(
                    entry, patientID: item.patient.id, practiceID: practiceID, stamp: stamp, cipher: cipher))
        }
        return entries.count
    }
}
