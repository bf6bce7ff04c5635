import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Adds an entry to a patient's record after checking it against the patient (species for
    /// weights, date of birth for dates), in one audited transaction.
    /// With an idempotency key, a retried request adds nothing the second time.
    public func addRecordEntry(
        _ entry: RecordEntry, patientID: Identifier<Patient>, scope: AccessScope,
        idempotencyKey: IdempotencyKey? = nil
    ) async throws {
        let now = clock.now()
        try await write { db in
            _ = try self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: entry.auditAction) {
                let patient = try Self.patient(db: db, practiceID: scope.practiceID, id: patientID.description)
                    .orNotFound("patient").value
                let pid = patientID.description
                let note = try entry.amendedNoteID.flatMap { id in
                    try self.notes(db: db, practiceID: scope.practiceID, patientID: pid).first { $0.id == id }
                }
                try entry.validate(patient: patient, amending: note, now: now)
                try db.insert(
                    RecordRows.insert(
                        entry, patientID: patientID, practiceID: scope.practiceID,
                        stamp: EntryStamp(at: now, by: scope.actorID?.description), cipher: self.cipher))
                try self.appendAudit(
                    AuditRecord.patient(entry.auditAction, patientID.rawValue), scope: scope,
                    db: db)
                try self.appendEvent(
                    .recordEntryAdded(
                        patientID: patientID, entryType: entry.eventEntryType, entryID: entry.id,
                        practiceID: scope.practiceID, occurredAt: now), scope: scope, db: db)
                return entry.id
            }
        }
    }

    // MARK: - Reading

    /// The whole medical record of a patient, notes decrypted (audited read).
    public func medicalRecord(scope: AccessScope, patientID: Identifier<Patient>) async throws -> (
        MedicalRecord, version: Int
    ) {
        try await write { db in
            let patient = try Self.patient(db: db, practiceID: scope.practiceID, id: patientID.description).orNotFound(
                "patient")
            let record = try self.record(db: db, practiceID: scope.practiceID, patient: patient.value)
                .applying(try self.corrections(db: db, practiceID: scope.practiceID, patientID: patientID))
            try self.appendAudit(
                AuditRecord.patient(.recordRead, patientID.rawValue),
                scope: scope, db: db)
            return (record, patient.version)
        }
    }

    /// Vaccinations of active patients due within `days` of `asOf` or overdue, practice-wide,
    /// with the patient's name (audited).
    public func vaccinationReminders(scope: AccessScope, asOf: Date, withinDays days: Int) async throws -> (
        report: VaccinationDueReport, patientNames: [Identifier<Patient>: String]
    ) {
        try await write { db in
            let practice = scope.practiceID.description
            let horizon = VaccinationSchedule.lastListedDay(asOf: asOf, dueWithinDays: days)
            let concerned = """
                SELECT v.patient_id FROM vaccination v JOIN patient p ON p.id = v.patient_id
                    AND p.practice_id = v.practice_id
                WHERE v.practice_id = ? AND p.status = 'active' AND v.next_due_date IS NOT NULL
                  AND (v.next_due_date <= ? OR v.id IN (SELECT entry_id FROM record_correction
                      WHERE practice_id = v.practice_id AND entry_kind = 'vaccination'))
                """
            var names: [Identifier<Patient>: String] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT id, name FROM patient WHERE practice_id = ? AND id IN (\(concerned))",
                arguments: [practice, practice, horizon])
            {
                names[try row.identifier("id")] = try row.read("name")
            }
            // Later doses of the same vaccine supersede earlier reminders, so every dose of the
            // patients concerned is read. As corrected: one entered in error is due nothing, a
            // corrected date is the one that counts.
            let vaccinations = RecordCorrection.applying(
                try self.vaccinationCorrections(db: db, practiceID: scope.practiceID),
                to: try Row.fetchAll(
                    db, sql: "SELECT * FROM vaccination WHERE practice_id = ? AND patient_id IN (\(concerned))",
                    arguments: [practice, practice, horizon]
                ).map { try RecordRows.vaccination(from: $0, seal: self.fieldSeal(scope.practiceID)) })
            let report = VaccinationSchedule.dueAndOverdue(vaccinations: vaccinations, asOf: asOf, dueWithinDays: days)
            try self.appendAudit(.vaccinationsDueRead(report), scope: scope, db: db)
            return (report, names)
        }
    }

    // MARK: - Rows

    func record(db: Database, practiceID: PracticeID, patient: Patient) throws -> MedicalRecord {
        let args: StatementArguments = [patient.id.description, practiceID.description]
        let filter = "WHERE patient_id = ? AND practice_id = ?"
        let seal = fieldSeal(practiceID)
        func rows(_ table: String, orderedBy order: String) throws -> [Row] {
            try Row.fetchAll(db, sql: "SELECT * FROM \(table) \(filter) ORDER BY \(order)", arguments: args)
        }
        let weights = try rows("weight", orderedBy: "measured_at").map {
            try RecordRows.weight(from: $0, patientID: patient.id)
        }
        let problems = try rows("problem", orderedBy: "created_at").map {
            try RecordRows.problem(from: $0, patientID: patient.id, seal: seal)
        }
        let allergies = try rows("allergy", orderedBy: "created_at").map {
            try RecordRows.allergy(from: $0, patientID: patient.id, seal: seal)
        }
        let medications = try rows("medication", orderedBy: "start_date").map {
            try RecordRows.medication(from: $0, patientID: patient.id, seal: seal)
        }
        let vaccinations = try rows("vaccination", orderedBy: "administered_date").map {
            try RecordRows.vaccination(from: $0, seal: seal)
        }
        let notes = try self.notes(db: db, practiceID: practiceID, patientID: patient.id.description)
        let addenda = try rows("note_addendum", orderedBy: "created_at").map {
            try RecordRows.addendum(from: $0, practiceID: practiceID, cipher: cipher)
        }
        return MedicalRecord(
            patient: patient, weights: weights, problems: problems, allergies: allergies, medications: medications,
            vaccinations: vaccinations, notes: notes, addenda: addenda)
    }

    func notes(db: Database, practiceID: PracticeID, patientID: String) throws -> [ClinicalNote] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM clinical_note WHERE patient_id = ? AND practice_id = ? ORDER BY created_at",
            arguments: [patientID, practiceID.description]
        ).map { try RecordRows.note(from: $0, practiceID: practiceID, cipher: self.cipher) }
    }
}
