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
                    try await self.insertEntry(
                        entry, patientID: patientID, practiceID: scope.practiceID,
                        stamp: EntryStamp(at: now, by: scope.actorID?.description), connection: connection)
                    try await self.appendAudit(
                        AuditRecord(
                            action: entry.auditAction, resourceType: .patient, resourceID: patientID.description),
                        scope: scope, connection: connection)
                    try await self.appendEvent(
                        .recordEntryAdded(
                            patientID: patientID, entryType: entry.eventEntryType, entryID: entry.id,
                            practiceID: scope.practiceID, occurredAt: now), scope: scope, connection: connection)
                }
            }
        }
    }

    /// Inserts `entry`'s row (checked by the caller) for `patientID`, entered as `stamp` says,
    /// in the caller's transaction; note and addendum text sealed. Shared by a new entry and a
    /// restored one.
    func insertEntry(
        _ entry: RecordEntry, patientID: Identifier<Patient>, practiceID: PracticeID, stamp: EntryStamp,
        connection: PostgresConnection
    ) async throws {
        let practice = practiceID.rawValue
        let pid = patientID.rawValue
        let createdAt = Timestamp.milliseconds(stamp.at)
        switch entry {
        case .weight(let weight):
            try await connection.query(
                """
                INSERT INTO weight (id, practice_id, patient_id, value, unit, grams, measured_at_ms, recorded_by,
                    created_at_ms)
                VALUES (\(weight.id.rawValue), \(practice), \(pid), \("\(weight.value)"), \(weight.unit.rawValue),
                    \(weight.roundedGrams), \(Timestamp.milliseconds(weight.measuredAt)), \(stamp.by), \(createdAt))
                """, logger: logger)
        case .problem(let problem):
            try await insertProblem(problem, practiceID: practiceID, createdAtMs: createdAt, connection: connection)
        case .allergy(let allergy):
            try await insertAllergy(allergy, practiceID: practiceID, createdAtMs: createdAt, connection: connection)
        case .medication(let medication):
            try await insertMedication(
                medication, practiceID: practiceID, prescribedBy: stamp.by, createdAtMs: createdAt,
                connection: connection)
        case .vaccination(let vaccination):
            try await insertVaccination(
                vaccination, practiceID: practiceID, createdAtMs: createdAt, connection: connection)
        case .note(let note):
            let sealed = try SealedClinicalText.seal(note, practiceID: practiceID, cipher: cipher)
            try await connection.query(
                """
                INSERT INTO clinical_note (id, practice_id, patient_id, author_id, author_name, created_at_ms,
                    sealed_text)
                VALUES (\(note.id.rawValue), \(practice), \(pid), \(note.author.id.rawValue),
                    \(note.author.displayName), \(Timestamp.milliseconds(note.createdAt)), \(sealed))
                """, logger: logger)
        case .addendum(let addendum):
            let sealed = try SealedClinicalText.seal(addendum, practiceID: practiceID, cipher: cipher)
            try await connection.query(
                """
                INSERT INTO note_addendum (id, practice_id, note_id, patient_id, author_id, author_name, created_at_ms,
                    sealed_text)
                VALUES (\(addendum.id.rawValue), \(practice), \(addendum.noteID.rawValue), \(pid),
                    \(addendum.author.id.rawValue), \(addendum.author.displayName),
                    \(Timestamp.milliseconds(addendum.createdAt)), \(sealed))
                """, logger: logger)
        }
    }

    /// A problem's row (an entry, or a visit's diagnosis added to the problem list).
    func insertProblem(_ problem: Problem, practiceID: PracticeID, createdAtMs: Int64, connection: PostgresConnection)
        async throws
    {
        let day = { (date: Date) in RecordCalendar.isoDay(date) }
        let name = try fieldSeal(practiceID).seal(problem.name, .problemName, id: problem.id.description)
        try await connection.query(
            """
            INSERT INTO problem (id, practice_id, patient_id, name, status, onset_date, resolved_date, created_at_ms)
            VALUES (\(problem.id.rawValue), \(practiceID.rawValue), \(problem.patientID.rawValue), \(name),
                \(problem.status.rawValue),
                    \(problem.onsetDate.map(day))::date, \(problem.resolvedDate.map(day))::date, \(createdAtMs))
            """, logger: logger)
    }

    /// An allergy's row (checked by the caller), its text sealed.
    func insertAllergy(_ allergy: Allergy, practiceID: PracticeID, createdAtMs: Int64, connection: PostgresConnection)
        async throws
    {
        let seal = fieldSeal(practiceID)
        let id = allergy.id.description
        let substance = try seal.seal(allergy.substance, .allergySubstance, id: id)
        let reaction = try seal.sealIfPresent(allergy.reaction, .allergyReaction, id: id)
        try await connection.query(
            """
            INSERT INTO allergy (id, practice_id, patient_id, substance, reaction, severity, created_at_ms)
            VALUES (\(allergy.id.rawValue), \(practiceID.rawValue), \(allergy.patientID.rawValue), \(substance),
                \(reaction),
                    \(allergy.severity.rawValue), \(createdAtMs))
            """, logger: logger)
    }

    /// A vaccination's row (checked by the caller), its text sealed.
    func insertVaccination(
        _ vaccination: Vaccination, practiceID: PracticeID, createdAtMs: Int64, connection: PostgresConnection
    ) async throws {
        let seal = fieldSeal(practiceID)
        let day = { (date: Date) in RecordCalendar.isoDay(date) }
        let id = vaccination.id.description
        let vaccine = try seal.seal(vaccination.vaccine, .vaccinationVaccine, id: id)
        let batch = try seal.sealIfPresent(vaccination.batchNumber, .vaccinationBatch, id: id)
        try await connection.query(
            """
            INSERT INTO vaccination (id, practice_id, patient_id, vaccine, administered_date, batch, next_due_date,
                created_at_ms)
            VALUES (\(vaccination.id.rawValue), \(practiceID.rawValue), \(vaccination.patientID.rawValue), \(vaccine),
                    \(day(vaccination.administeredDate))::date, \(batch), \(vaccination.nextDueDate.map(day))::date,
                        \(createdAtMs))
            """, logger: logger)
    }

    /// Inserts a medication row (checked by the caller).
    func insertMedication(
        _ medication: Medication, practiceID: PracticeID, prescribedBy: String?, createdAtMs: Int64,
        connection: PostgresConnection
    ) async throws {
        let day = { (date: Date) in RecordCalendar.isoDay(date) }
        let seal = fieldSeal(practiceID)
        let id = medication.id.description
        let drug = try seal.seal(medication.drug, .medicationDrug, id: id)
        let concentration = try seal.seal("\(medication.concentrationMgPerML)", .medicationConcentration, id: id)
        let dose = try seal.seal("\(medication.doseMgPerKg)", .medicationDose, id: id)
        let frequency = try seal.seal(medication.frequency, .medicationFrequency, id: id)
        try await connection.query(
            """
            INSERT INTO medication (id, practice_id, patient_id, drug, concentration_mg_per_ml, dose_mg_per_kg, route,
                frequency,
                                    start_date, end_date, prescribed_by, created_at_ms)
            VALUES (\(medication.id.rawValue), \(practiceID.rawValue), \(medication.patientID.rawValue), \(drug),
                    \(concentration), \(dose), \(medication.route.rawValue), \(frequency),
                    \(day(medication.startDate))::date, \(medication.endDate.map(day))::date, \(prescribedBy),
                        \(createdAtMs))
            """, logger: logger)
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
                AuditRecord(action: .recordRead, resourceType: .patient, resourceID: patientID.description),
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
        var weights: [WeightMeasurement] = []
        for try await row in try await connection.query(
            """
            SELECT id, value, unit, measured_at_ms AS measured_at FROM weight
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY measured_at_ms, seq
            """, logger: logger)
        { weights.append(try RecordRows.weight(from: row.makeRandomAccess(), patientID: patient.id)) }
        var problems: [Problem] = []
        for try await row in try await connection.query(
            """
            SELECT id, name, status, to_char(onset_date, 'YYYY-MM-DD') AS onset_date,
                to_char(resolved_date, 'YYYY-MM-DD') AS resolved_date FROM problem
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY created_at_ms, seq
            """, logger: logger)
        { problems.append(try RecordRows.problem(from: row.makeRandomAccess(), patientID: patient.id, seal: seal)) }
        var allergies: [Allergy] = []
        for try await row in try await connection.query(
            """
            SELECT id, substance, reaction, severity FROM allergy
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY created_at_ms, seq
            """, logger: logger)
        { allergies.append(try RecordRows.allergy(from: row.makeRandomAccess(), patientID: patient.id, seal: seal)) }
        var medications: [Medication] = []
        for try await row in try await connection.query(
            """
            SELECT id, drug, concentration_mg_per_ml, dose_mg_per_kg, route, frequency,
                to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date
            FROM medication WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY medication.start_date, seq
            """, logger: logger)
        {
            medications.append(
                try RecordRows.medication(from: row.makeRandomAccess(), patientID: patient.id, seal: seal))
        }
        let vaccinations = try await self.vaccinations(
            practiceID: practiceID, patientIDs: [pid], connection: connection)
        let notes = try await self.notes(practiceID: practiceID, patientID: pid, id: nil, connection: connection)
        var addenda: [Addendum] = []
        for try await row in try await connection.query(
            """
            SELECT id, note_id, author_id, author_name, created_at_ms AS created_at, sealed_text FROM note_addendum
            WHERE practice_id = \(practice) AND patient_id = \(pid) ORDER BY created_at_ms, seq
            """, logger: logger)
        {
            addenda.append(
                try RecordRows.addendum(from: row.makeRandomAccess(), practiceID: practiceID, cipher: cipher))
        }
        return MedicalRecord(
            patient: patient, weights: weights, problems: problems, allergies: allergies, medications: medications,
            vaccinations: vaccinations, notes: notes, addenda: addenda)
    }

    /// The notes of a patient (or just note `id`), opened, oldest first.
    func notes(practiceID: PracticeID, patientID: UUID, id: UUID?, connection: PostgresConnection) async throws
        -> [ClinicalNote]
    {
        var notes: [ClinicalNote] = []
        for try await row in try await connection.query(
            """
            SELECT id, patient_id, author_id, author_name, created_at_ms AS created_at, sealed_text FROM clinical_note
            WHERE practice_id = \(practiceID.rawValue) AND patient_id = \(patientID) AND (\(id)::uuid IS NULL
                OR id = \(id))
            ORDER BY created_at_ms, seq
            """, logger: logger)
        { notes.append(try RecordRows.note(from: row.makeRandomAccess(), practiceID: practiceID, cipher: cipher)) }
        return notes
    }

    /// Every vaccination of `patientIDs`, by the day given.
    func vaccinations(practiceID: PracticeID, patientIDs: [UUID], connection: PostgresConnection) async throws
        -> [Vaccination]
    {
        guard !patientIDs.isEmpty else { return [] }
        let seal = fieldSeal(practiceID)
        var vaccinations: [Vaccination] = []
        for try await row in try await connection.query(
            """
            SELECT id, patient_id, vaccine, to_char(administered_date, 'YYYY-MM-DD') AS administered_date, batch,
                to_char(next_due_date, 'YYYY-MM-DD') AS next_due_date
            FROM vaccination WHERE practice_id = \(practiceID.rawValue) AND patient_id = ANY(\(patientIDs)::uuid[])
            ORDER BY vaccination.administered_date, seq
            """, logger: logger)
        { vaccinations.append(try RecordRows.vaccination(from: row.makeRandomAccess(), seal: seal)) }
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
