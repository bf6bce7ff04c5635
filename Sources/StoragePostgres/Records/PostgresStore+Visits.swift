import Foundation
import PatientRecords
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore {
    // MARK: - Writing

    /// Adds a visit record in one audited transaction, as the embedded store does: checks it
    /// against the patient (birth date, problem list) and the appointment it records (this
    /// patient's, one the patient came to, not yet recorded), adds the diagnoses marked for it
    /// to the problem list, and stores it. `otherErrors` are reported with the record's own and
    /// nothing is written while there are any. One visit per appointment holds across
    /// instances: the second of two racing records meets the unique index and is refused.
    public func addVisit(_ visit: Visit, otherErrors: [FieldError], scope: AccessScope, idempotencyKey: IdempotencyKey?)
        async throws -> StoredVisit
    {
        let practiceID = scope.practiceID
        do {
            return try await retryingTransientFailures {
                try await transaction(.practice(practiceID)) { connection in
                    let now = self.clock.now()
                    let (id, _) = try await self.idempotent(
                        connection: connection, scope: scope, key: idempotencyKey, operation: .recordVisitAdd,
                        resourceID: visit.id.description
                    ) {
                        try await self.insertVisit(
                            visit, otherErrors: otherErrors, scope: scope, now: now, connection: connection)
                    }
                    guard let visitID = UUID(uuidString: id),
                        let stored = try await self.storedVisit(
                            practiceID: practiceID, id: visitID,
                            connection: connection)
                    else {
                        throw DomainError.notFound(resource: "visit")
                    }
                    return stored
                }
            }
        } catch let error as PSQLError
            where error.sqlState == "23505" && error.serverInfo?[.constraintName] == "visit_appointment_id_key"
        {
            throw VisitRecording.alreadyRecorded
        }
    }

    /// What recording `visit` is decided on, read in the caller's transaction.
    private func visitReads(_ visit: Visit, practiceID: PracticeID, connection: PostgresConnection) async throws
        -> VisitRecording.Reads
    {
        let patient = try await patient(
            connection: connection, practiceID: practiceID, id: visit.patientID.rawValue
        ).orNotFound("patient").value
        var problems = Set<Identifier<Problem>>()
        for try await id in try await connection.query(
            """
            SELECT id FROM problem WHERE practice_id = \(practiceID.rawValue) AND patient_id = \(patient.id.rawValue)
            """, logger: logger
        ).decode(UUID.self) { problems.insert(Identifier(id)) }
        var appointment: Appointment?
        if let appointmentID = visit.appointmentID {
            appointment = try await self.appointment(practiceID: practiceID, id: appointmentID, connection: connection)?
                .value
        }
        var clinicianKnown = true
        if let clinicianID = VisitRecording.clinician(of: visit, appointment: appointment) {
            clinicianKnown = false
            for try await _ in try await connection.query(
                """
                SELECT 1 FROM clinician WHERE id = \(clinicianID) AND practice_id = \(practiceID.rawValue)
                """, logger: logger)
            { clinicianKnown = true }
        }
        var appointmentRecorded = false
        if let appointmentID = visit.appointmentID {
            for try await _ in try await connection.query(
                "SELECT 1 FROM visit WHERE appointment_id = \(appointmentID)", logger: logger)
            { appointmentRecorded = true }
        }
        return VisitRecording.Reads(
            patient: patient, problems: problems, appointment: appointment, clinicianKnown: clinicianKnown,
            appointmentRecorded: appointmentRecorded)
    }

    private func insertVisit(
        _ visit: Visit, otherErrors: [FieldError], scope: AccessScope, now: Date, connection: PostgresConnection
    ) async throws {
        let practiceID = scope.practiceID
        let decision = try VisitRecording.decide(
            visit, otherErrors: otherErrors,
            reads: try await visitReads(visit, practiceID: practiceID, connection: connection), scope: scope, now: now)
        for row in try decision.rows(seal: fieldSeal(practiceID), recordedBy: scope.actorID?.description, now: now) {
            try await connection.insert(row, logger: logger)
        }
        try await appendAudit(decision.audit, scope: scope, connection: connection)
        for event in decision.events { try await appendEvent(event, scope: scope, connection: connection) }
    }

    // MARK: - Reading

    /// A patient's visit records, newest first (audited read of the record).
    public func visits(scope: AccessScope, patientID: Identifier<Patient>) async throws -> [StoredVisit] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.requireRecordPatient(
                patientID.rawValue, practiceID: scope.practiceID, connection: connection)
            let visits: [StoredVisit] = try await connection.rows(
                """
                SELECT \(unescaped: Self.visitColumns) FROM visit WHERE practice_id = \(scope.practiceID.rawValue)
                    AND patient_id = \(patientID.rawValue)
                ORDER BY occurred_at_ms DESC, id DESC
                """, logger: self.logger
            ) { try RecordRows.visit(from: $0, seal: self.fieldSeal(scope.practiceID)) }
            try await self.appendAudit(
                .visitsRead(patientID: patientID, count: visits.count), scope: scope, connection: connection)
            return visits
        }
    }

    /// One visit record of a patient (audited read); another patient's or practice's is not found.
    public func visit(scope: AccessScope, patientID: Identifier<Patient>, id: Identifier<Visit>) async throws
        -> StoredVisit
    {
        try await transaction(.practice(scope.practiceID)) { connection in
            guard
                let stored = try await self.storedVisit(
                    practiceID: scope.practiceID, id: id.rawValue, connection: connection),
                stored.visit.patientID == patientID
            else {
                throw DomainError.notFound(resource: "visit")
            }
            try await self.appendAudit(
                .visitRead(patientID: patientID, visitID: id), scope: scope, connection: connection)
            return stored
        }
    }

    /// The recall list: vaccinations and visit follow-ups of active patients due within `days`
    /// of `asOf` or overdue, practice-wide, soonest first. Audited as the embedded store
    /// audits it (the vaccinations read, then the recalls), in one transaction.
    public func recalls(scope: AccessScope, asOf: Date, withinDays days: Int) async throws -> (
        dueSoon: [Recall], overdue: [Recall]
    ) {
        try await transaction(.practice(scope.practiceID)) { connection in
            let (vaccinations, names) = try await self.vaccinationReminders(
                scope: scope, asOf: asOf, withinDays: days, connection: connection)
            let horizon = VaccinationSchedule.lastListedDay(asOf: asOf, dueWithinDays: days)
            var patientNames = names
            var patientIDs: [UUID] = []
            for try await (id, name) in try await connection.query(
                """
                SELECT DISTINCT v.patient_id,
                    p.name FROM visit v JOIN patient p ON p.id = v.patient_id AND p.practice_id = v.practice_id
                WHERE v.practice_id = \(scope.practiceID.rawValue) AND p.status = 'active'
                    AND v.follow_up_date IS NOT NULL
                  AND v.follow_up_date <= \(horizon)::date
                """, logger: self.logger
            ).decode((UUID, String).self) {
                patientNames[Identifier(id)] = name
                patientIDs.append(id)
            }
            // A later visit answers a follow-up, so every visit of the patients concerned counts.
            let visits: [Visit] = try await connection.rows(
                """
                SELECT \(unescaped: Self.visitColumns) FROM visit
                WHERE practice_id = \(scope.practiceID.rawValue) AND patient_id = ANY(\(patientIDs)::uuid[])
                """, logger: self.logger
            ) { try RecordRows.visit(from: $0, seal: self.fieldSeal(scope.practiceID)).visit }
            let followUps = FollowUpSchedule.dueAndOverdue(visits: visits, asOf: asOf, dueWithinDays: days)
            try await self.appendAudit(
                .recallsRead(followUps),
                scope: scope, connection: connection)
            return Recall.lists(vaccinations: vaccinations, followUps: followUps, patientNames: patientNames)
        }
    }

    // MARK: - Rows

    /// The columns ``RecordRows/visit(from:seal:)`` reads.
    static let visitColumns = "id, record::text AS record, version, created_at_ms AS created_at"

    func storedVisit(practiceID: PracticeID, id: UUID, connection: PostgresConnection) async throws -> StoredVisit? {
        try await connection.firstRow(
            """
            SELECT \(unescaped: Self.visitColumns) FROM visit WHERE id = \(id) AND practice_id = \(practiceID.rawValue)
            """, logger: logger
        ) { try RecordRows.visit(from: $0, seal: fieldSeal(practiceID)) }
    }
}
