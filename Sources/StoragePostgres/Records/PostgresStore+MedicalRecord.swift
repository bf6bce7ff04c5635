import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: MedicalRecordRepository {
    // MARK: - Writing

    /// Adds an entry to a patient's record after the domain's checks against the stored
    /// patient (species for weights, date of birth for dates, the note an addendum amends), with
    /// its audit entry and `record.entry_added` event, in one transaction. Note and addendum
    /// text is sealed with the record key under the same context as the embedded store
    /// (`<practice>/note/<id>`, `<practice>/addendum/<id>`). Replaying `idempotencyKey` adds
    /// nothing.
    public func addRecordEntry(
        _ entry: RecordEntry, patientID: Identifier<Patient>, scope: AccessScope,
        idempotencyKey: IdempotencyKey?
    ) async throws {
        try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let now = self.clock.now()
                _ = try await self.idempotent(
                    connection: connection, scope: scope, key: idempotencyKey, operation: entry.auditAction,
                    resourceID: entry.id
                ) {
                    let patient = try await self.patient(
                        connection: connection, practiceID: scope.practiceID, id: patientID.rawValue
                    ).orNotFound("patient").value
                    var note: ClinicalNote?
                    if let id = entry.amendedNoteID {
                        note = try await self.notes(
                            practiceID: scope.practiceID, patientID: patientID.rawValue, id: id.rawValue,
                            connection: connection
                        ).first
                    }
                    try entry.validate(patient: patient, amending: note, now: now)
                    try await connection.insert(
                        RecordRows.insert(
                            entry, patientID: patientID, practiceID: scope.practiceID,
                            stamp: EntryStamp(at: now, by: scope.actorID?.description), cipher: self.cipher),
                        logger: self.logger)
                    try await self.appendAudit(
                        AuditRecord.patient(entry.auditAction, patientID.rawValue),
                        scope: scope, connection: connection)
                    try await self.appendEvent(
                        .recordEntryAdded(
                            patientID: patientID, entryType: entry.eventEntryType, entryID: entry.id,
                            practiceID: scope.practiceID, occurredAt: now), scope: scope, connection: connection)
                }
            }
        }
    }

    // MARK: - Reading

    /// The whole record of a patient, notes opened (audited read). Its version is the
    /// patient's, as in the embedded store.
    public func medicalRecord(scope: AccessScope, patientID: Identifier<Patient>) async throws -> (
        MedicalRecord, version: Int
    ) {
        try await transaction(.practice(scope.practiceID)) { connection in
            let patient = try await self.patient(
                connection: connection, practiceID: scope.practiceID, id: patientID.rawValue
            ).orNotFound("patient")
            let record = try await self.record(of: patient.value, practiceID: scope.practiceID, connection: connection)
                .applying(
                    try await self.corrections(
                        practiceID: scope.practiceID, condition: "patient_id = $2", binding: patientID.rawValue,
                        connection: connection))
            try await self.appendAudit(
                AuditRecord.patient(.recordRead, patientID.rawValue),
                scope: scope, connection: connection)
            return (record, patient.version)
        }
    }

    /// Vaccinations of active patients due within `days` of `asOf` or overdue, practice-wide,
    /// with the patients' names (audited).
    public func vaccinationReminders(scope: AccessScope, asOf: Date, withinDays days: Int) async throws
        -> (report: VaccinationDueReport, patientNames: [Identifier<Patient>: String])
    {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.vaccinationReminders(scope: scope, asOf: asOf, withinDays: days, connection: connection)
        }
    }

    /// ``vaccinationReminders(scope:asOf:withinDays:)`` in the caller's transaction.
    func vaccinationReminders(scope: AccessScope, asOf: Date, withinDays days: Int, connection: PostgresConnection)
        async throws
        -> (report: VaccinationDueReport, patientNames: [Identifier<Patient>: String])
    {
        let horizon = VaccinationSchedule.lastListedDay(asOf: asOf, dueWithinDays: days)
        var names: [Identifier<Patient>: String] = [:]
        for try await (id, name) in try await connection.query(
            """
            SELECT DISTINCT v.patient_id,
                p.name FROM vaccination v JOIN patient p ON p.id = v.patient_id AND p.practice_id = v.practice_id
            WHERE v.practice_id = \(scope.practiceID.rawValue) AND p.status = 'active' AND v.next_due_date IS NOT NULL
              AND (v.next_due_date <= \(horizon)::date OR v.id IN (SELECT entry_id FROM record_correction
                                                                   WHERE practice_id = v.practice_id
                                                                       AND entry_kind = 'vaccination'))
            """, logger: logger
        ).decode((UUID, String).self) {
            names[Identifier(id)] = name
        }
        // Later doses of the same vaccine supersede earlier reminders, so every dose of the patients concerned counts.
        // As corrected: one entered in error is due nothing, a corrected date is the one that counts.
        let vaccinations = RecordCorrection.applying(
            try await corrections(
                practiceID: scope.practiceID, condition: "entry_kind = $2", binding: "vaccination",
                connection: connection),
            to: try await self.vaccinations(
                practiceID: scope.practiceID, patientIDs: names.keys.map(\.rawValue), connection: connection))
        let report = VaccinationSchedule.dueAndOverdue(vaccinations: vaccinations, asOf: asOf, dueWithinDays: days)
        try await appendAudit(
            .vaccinationsDueRead(report), scope: scope,
            connection: connection)
        return (report, names)
    }

    /// Number of owners of the practice.
    public func ownerCount(scope: AccessScope) async throws -> Int {
        try await count("SELECT count(*) FROM owner WHERE practice_id = \(scope.practiceID.rawValue)", scope: scope)
    }

    /// Number of patients of the practice.
    public func patientCount(scope: AccessScope) async throws -> Int {
        try await count("SELECT count(*) FROM patient WHERE practice_id = \(scope.practiceID.rawValue)", scope: scope)
    }

    private func count(_ query: PostgresQuery, scope: AccessScope) async throws -> Int {
        try await transaction(.practice(scope.practiceID)) { connection in
            for try await value in try await connection.query(query, logger: self.logger).decode(Int64.self) {
                return Int(value)
            }
            return 0
        }
    }

    /// Call names of `ids` in the scope's practice, for calendar entries (a name, never
    /// clinical detail); ids of no patient of the practice are left out.
    public func patientNames(ids: [UUID], scope: AccessScope) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return try await transaction(.practice(scope.practiceID)) { connection in
            var names: [UUID: String] = [:]
            for try await (id, name) in try await connection.query(
                """
                SELECT id,
                    name FROM patient WHERE practice_id = \(scope.practiceID.rawValue)
                    AND id = ANY(\(Array(Set(ids)))::uuid[])
                """, logger: self.logger
            ).decode((UUID, String).self) {
                names[id] = name
            }
            return names
        }
    }

    // MARK: - Rows

    /// Every entry of `patient`'s record, in the embedded store's order (insertion order among equals).
    func record(of patient: Patient, practiceID: PracticeID, connection: PostgresConnection) async throws
        -> MedicalRecord
    {
        let practice = practiceID.rawValue
        let pid = patient.id.rawValue
        let seal = fieldSeal(practiceID)
        let weights: [WeightMeasurement] = try await connection.rows(
            """
            SELECT id, value, unit, measured_at_ms AS measured_at FROM weight
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY measured_at_ms, seq
            """, logger: logger
        ) { try RecordRows.weight(from: $0, patientID: patient.id) }
        let problems: [Problem] = try await connection.rows(
            """
            SELECT id, name, status, to_char(onset_date, 'YYYY-MM-DD') AS onset_date,
                to_char(resolved_date, 'YYYY-MM-DD') AS resolved_date FROM problem
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY created_at_ms, seq
            """, logger: logger
        ) { try RecordRows.problem(from: $0, patientID: patient.id, seal: seal) }
        let allergies: [Allergy] = try await connection.rows(
            """
            SELECT id, substance, reaction, severity FROM allergy
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY created_at_ms, seq
            """, logger: logger
        ) { try RecordRows.allergy(from: $0, patientID: patient.id, seal: seal) }
        let medications: [Medication] = try await connection.rows(
            """
            SELECT id, drug, concentration_mg_per_ml, dose_mg_per_kg, route, frequency,
                to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date
            FROM medication WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY medication.start_date, seq
            """, logger: logger
        ) { try RecordRows.medication(from: $0, patientID: patient.id, seal: seal) }
        let vaccinations = try await self.vaccinations(
            practiceID: practiceID, patientIDs: [pid], connection: connection)
        let notes = try await self.notes(practiceID: practiceID, patientID: pid, id: nil, connection: connection)
        let addenda: [Addendum] = try await connection.rows(
            """
            SELECT id, note_id, author_id, author_name, created_at_ms AS created_at, sealed_text FROM note_addendum
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY created_at_ms, seq
            """, logger: logger
        ) { try RecordRows.addendum(from: $0, practiceID: practiceID, cipher: cipher) }
        return MedicalRecord(
            patient: patient, weights: weights, problems: problems, allergies: allergies, medications: medications,
            vaccinations: vaccinations, notes: notes, addenda: addenda)
    }

    /// The notes of a patient (or just note `id`), opened, oldest first.
    func notes(practiceID: PracticeID, patientID: UUID, id: UUID?, connection: PostgresConnection) async throws
        -> [ClinicalNote]
    {
        let notes: [ClinicalNote] = try await connection.rows(
            """
            SELECT id, patient_id, author_id, author_name, created_at_ms AS created_at, sealed_text FROM clinical_note
            WHERE practice_id = \(practiceID.rawValue) AND patient_id = \(patientID) AND (\(id)::uuid IS NULL
                OR id = \(id))
            ORDER BY created_at_ms, seq
            """, logger: logger
        ) { try RecordRows.note(from: $0, practiceID: practiceID, cipher: cipher) }
        return notes
    }

    /// Every vaccination of `patientIDs`, by the day given.
    func vaccinations(practiceID: PracticeID, patientIDs: [UUID], connection: PostgresConnection) async throws
        -> [Vaccination]
    {
        guard !patientIDs.isEmpty else { return [] }
        let seal = fieldSeal(practiceID)
        let vaccinations: [Vaccination] = try await connection.rows(
            """
            SELECT id, patient_id, vaccine, to_char(administered_date, 'YYYY-MM-DD') AS administered_date, batch,
                to_char(next_due_date, 'YYYY-MM-DD') AS next_due_date
            FROM vaccination WHERE practice_id = \(practiceID.rawValue) AND patient_id = ANY(\(patientIDs)::uuid[])
            ORDER BY vaccination.administered_date, seq
            """, logger: logger
        ) { try RecordRows.vaccination(from: $0, seal: seal) }
        return vaccinations
    }

    /// Whether `patientID` is a patient of the practice (404 otherwise), in the caller's transaction.
    func requireRecordPatient(_ patientID: UUID, practiceID: PracticeID, connection: PostgresConnection) async throws {
        var found = false
        for try await _ in try await connection.query(
            """
            SELECT 1 FROM patient WHERE id = \(patientID) AND practice_id = \(practiceID.rawValue)
            """, logger: logger)
        { found = true }
        if !found { throw DomainError.notFound(resource: "patient") }
    }
}
