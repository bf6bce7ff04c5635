import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import StorageSupport
import Triage

extension VetNetStore {
    /// The scope's whole practice as one ``PracticeExport``, notes decrypted, with its audit
    /// trail and, with `documentContent`, the documents' decrypted content; audited as
    /// `practice.export`.
    ///
    /// The data is read from one snapshot rather than inside a write transaction: an export
    /// of a large practice takes seconds, and holding the writer lock that long would stall
    /// the clinic. The audit entry is appended once the snapshot is read, before the caller
    /// can write the document anywhere, so no export leaves the store unrecorded.
    public func exportPractice(scope: AccessScope, documentContent: Bool) async throws -> PracticeExport {
        let exportedAt = clock.now()
        var export = try await writer.read { db in
            try self.practiceExport(db: db, practiceID: scope.practiceID, exportedAt: exportedAt)
        }
        if documentContent {
            for index in export.documents.indices {
                export.documents[index].content = try sealedDocumentContent(of: export.documents[index])
                    .base64EncodedString()
            }
        }
        try await recordAudit(.exported(export, documentContent: documentContent), scope: scope)
        return export
    }

    // MARK: - Rows

    func practiceExport(db: Database, practiceID: PracticeID, exportedAt: Date) throws -> PracticeExport {
        let practiceArgument: StatementArguments = [practiceID.description]
        let practice = try Row.fetchOne(db, sql: "SELECT * FROM practice WHERE id = ?", arguments: practiceArgument)
            .map(Self.practice(from:)).orNotFound("practice")
        let staff = try Row.fetchAll(
            db, sql: "SELECT * FROM staff_user WHERE practice_id = ? ORDER BY display_name, id",
            arguments: practiceArgument
        ).map(AccountRows.account(from:))
        let owners = try Row.fetchAll(
            db, sql: "SELECT * FROM owner WHERE practice_id = ? ORDER BY last_name, first_name, id",
            arguments: practiceArgument
        ).map { try self.owner(from: $0).value }

        let stamps = try entryStamps(db: db, practiceID: practiceID)
        // Most patients of a migrated practice have a history; a freshly imported one has
        // none, and skipping the seven per-patient queries for those keeps large exports quick.
        let withEntries = try Set(
            String.fetchAll(
                db,
                sql: """
                    SELECT patient_id FROM weight WHERE practice_id = ?1 UNION SELECT patient_id FROM problem
                        WHERE practice_id = ?1
                    UNION SELECT patient_id FROM allergy WHERE practice_id = ?1 UNION SELECT patient_id FROM medication
                        WHERE practice_id = ?1
                    UNION SELECT patient_id FROM vaccination WHERE practice_id = ?1 UNION SELECT patient_id
                        FROM clinical_note WHERE practice_id = ?1
                    """, arguments: practiceArgument))
        // Record numbers grow past six digits; order by length first so P-1000000 follows P-999999.
        let patientRows = try Row.fetchCursor(
            db, sql: "SELECT * FROM patient WHERE practice_id = ? ORDER BY length(mrn), mrn",
            arguments: practiceArgument)
        var visits: [String: [Visit]] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT * FROM visit WHERE practice_id = ? ORDER BY occurred_at, id", arguments: practiceArgument)
        {
            let visit = try RecordRows.visit(from: row, seal: fieldSeal(practiceID)).visit
            visits[visit.patientID.description, default: []].append(visit)
        }
        var patients: [ExportedPatient] = []
        while let row = try patientRows.next() {
            let patient = try PatientRows.patient(from: row).value
            let id = patient.id.description
            let record =
                withEntries.contains(id)
                ? try self.record(db: db, practiceID: practiceID, patient: patient) : MedicalRecord(patient: patient)
            patients.append(
                ExportedPatient(
                    record: record, archivedAt: (try row.read("archived_at") as String?).flatMap(Timestamp.date),
                    entered: stamps[id] ?? [:], visits: visits[id],
                    corrections: try self.corrections(db: db, practiceID: practiceID, patientID: patient.id)))
        }

        let assessments = try Row.fetchAll(
            db, sql: "SELECT * FROM triage_assessment WHERE practice_id = ? ORDER BY assessed_at_ms, id",
            arguments: practiceArgument
        ).map { row in
            var assessment = try AssessmentRows.exported(from: row, seal: fieldSeal(practiceID))
            assessment.overrides = try self.exportedOverrides(of: row, db: db)
            return assessment
        }
        let arrivals = try Row.fetchAll(
            db, sql: "SELECT * FROM triage_arrival WHERE practice_id = ? ORDER BY arrival_at_ms, patient_id",
            arguments: practiceArgument
        ).map(AssessmentRows.exportedArrival(from:))
        let documents = try Row.fetchAll(
            db, sql: "SELECT * FROM document WHERE practice_id = ? ORDER BY created_at, id",
            arguments: practiceArgument
        ).map { ExportedDocument(try RecordRows.document(from: $0)) }
        let audit = try Row.fetchAll(
            db, sql: "SELECT * FROM audit_entry WHERE practice_id = ? ORDER BY seq", arguments: practiceArgument
        )
        .map(AuditRows.entry(from:))
        return PracticeExport(
            exportedAt: exportedAt, practice: practice, staff: staff, owners: owners, patients: patients,
            triageAssessments: assessments, triageArrivals: arrivals, documents: documents,
            schedule: try schedule(db: db, practiceID: practiceID),
            audit: audit)
    }

    /// Clinicians (active or not), availability, rooms, appointment types and every appointment.
    private func schedule(db: Database, practiceID: PracticeID) throws -> ExportedSchedule {
        let availabilities = ExportedAvailability.ordered(
            try Self.availabilities(db: db, practiceID: practiceID).values)
        let notes = try appointmentNotesByAppointment(practiceID: practiceID, db: db)
        let appointments = try Row.fetchAll(
            db,
            sql: """
                SELECT \(AppointmentRows.selectList()), reason, created_at, staff_notes, match_basis,
                    cancelled_at_ms FROM appointment WHERE practice_id = ? ORDER BY start_ms, id
                """, arguments: [practiceID.description]
        ).map { row in
            let stored = try AppointmentRows.appointment(from: row)
            let count = AppointmentRows.columns.count
            let basis = try (try row.read(at: count + 3) as String?).map {
                try StoreCorruption.decoded(BookingBasis.self, from: $0, column: "appointment.match_basis")
            }
            return ExportedAppointment(
                appointment: stored.value, reason: try row.read(at: count),
                bookedAt: PracticeExport.instant(try row.instant("created_at", table: "appointment")),
                version: stored.version, staffNotes: try row.read(at: count + 2), intake: basis,
                cancelledAt: (try row.read(at: count + 4) as Int64?).map { PracticeExport.instant(milliseconds: $0) },
                notes: notes[stored.value.id])
        }
        return ExportedSchedule(
            clinicians: try Self.clinicians(db: db, practiceID: practiceID, includingInactive: true).map {
                ExportedClinician(clinician: $0.clinician, active: $0.active)
            },
            availabilities: availabilities, rooms: try Self.rooms(db: db, practiceID: practiceID),
            appointmentTypes: try Self.appointmentTypes(db: db, practiceID: practiceID), appointments: appointments)
    }

    /// When and by whom each weight, problem, allergy, medication and vaccination was entered,
    /// by patient then entry id, in one pass over the practice.
    private func entryStamps(db: Database, practiceID: PracticeID) throws -> [String: [String: EntryStamp]] {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT patient_id, id, created_at, recorded_by AS entered_by FROM weight WHERE practice_id = ?1
                UNION ALL SELECT patient_id, id, created_at, NULL FROM problem WHERE practice_id = ?1
                UNION ALL SELECT patient_id, id, created_at, NULL FROM allergy WHERE practice_id = ?1
                UNION ALL SELECT patient_id, id, created_at, prescribed_by FROM medication WHERE practice_id = ?1
                UNION ALL SELECT patient_id, id, created_at, NULL FROM vaccination WHERE practice_id = ?1
                """, arguments: [practiceID.description])
        var stamps: [String: [String: EntryStamp]] = [:]
        while let row = try rows.next() {
            let stamp = EntryStamp(
                at: try row.instant("created_at", table: "record entry"), by: try row.read("entered_by"))
            stamps[try row.read("patient_id"), default: [:]][try row.read("id")] = stamp
        }
        return stamps
    }

    /// A listed document's decrypted content, checked against its SHA-256.
    private func sealedDocumentContent(of document: ExportedDocument) throws -> Data {
        guard let directory = documentsDirectory,
            let sealed = FileManager.default.contents(atPath: directory.appendingPathComponent(document.sha256).path)
        else {
            throw DomainError.notFound(resource: "document content")
        }
        return try DocumentUpload.content(of: sealed, sha256: document.sha256, cipher: cipher)
    }

    /// An assessment's overrides for the export: absent when there are none, as in exports made before overrides.
    func exportedOverrides(of row: Row, db: Database) throws -> [TriageOverride]? {
        let overrides = try storedAssessment(row, db: db).overrides
        return overrides.isEmpty ? nil : overrides
    }
}
