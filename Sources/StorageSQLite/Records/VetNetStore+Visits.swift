import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Adds a visit record in one audited transaction: checks it against the patient (birth
    /// date, problem list) and the appointment it records (this patient's, in this practice,
    /// one the patient came to, not yet recorded), adds the diagnoses marked for it to the
    /// problem list, and stores it. `otherErrors` — found by other contexts in parts of the
    /// same form, such as the vitals — are reported together with the record's own, so a form
    /// shows every problem at once; nothing is written while there are any.
    public func addVisit(
        _ visit: Visit, otherErrors: [FieldError] = [], scope: AccessScope,
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> StoredVisit {
        let now = clock.now()
        return try await write { db in
            let (id, _) = try self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: .recordVisitAdd) {
                let decision = try VisitRecording.decide(
                    visit, otherErrors: otherErrors,
                    reads: try Self.visitReads(visit, practiceID: scope.practiceID, db: db),
                    scope: scope, now: now)
                for row in try decision.rows(
                    seal: self.fieldSeal(scope.practiceID), recordedBy: scope.actorID?.description, now: now)
                {
                    try db.insert(row)
                }
                try self.appendAudit(decision.audit, scope: scope, db: db)
                for event in decision.events { try self.appendEvent(event, scope: scope, db: db) }
                return decision.visit.id.description
            }
            return try self.visit(db: db, practiceID: scope.practiceID, id: id).orNotFound("visit")
        }
    }

    /// What recording `visit` is decided on, read in the caller's transaction.
    private static func visitReads(_ visit: Visit, practiceID: PracticeID, db: Database) throws
        -> VisitRecording.Reads
    {
        let patient = try patient(db: db, practiceID: practiceID, id: visit.patientID.description)
            .orNotFound("patient").value
        let problems = Set(
            try String.fetchAll(
                db, sql: "SELECT id FROM problem WHERE patient_id = ? AND practice_id = ?",
                arguments: [patient.id.description, practiceID.description]
            )
            .compactMap(Identifier<Problem>.init(uuidString:)))
        let appointment = try visit.appointmentID.flatMap {
            try Self.appointment(db: db, practiceID: practiceID, id: text($0))?.value
        }
        let clinicianKnown =
            try VisitRecording.clinician(of: visit, appointment: appointment).map {
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM clinician WHERE id = ? AND practice_id = ?)",
                    arguments: [text($0), practiceID.description]) == true
            } ?? true
        let appointmentRecorded =
            try visit.appointmentID.map {
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM visit WHERE appointment_id = ?)", arguments: [text($0)])
                    == true
            } ?? false
        return VisitRecording.Reads(
            patient: patient, problems: problems, appointment: appointment, clinicianKnown: clinicianKnown,
            appointmentRecorded: appointmentRecorded)
    }

    // MARK: - Reading

    /// A patient's visit records, newest first (audited read of the record).
    public func visits(scope: AccessScope, patientID: Identifier<Patient>) async throws -> [StoredVisit] {
        try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue)
            let visits = try Row.fetchAll(
                db,
                sql: "SELECT * FROM visit WHERE practice_id = ? AND patient_id = ? ORDER BY occurred_at DESC, id DESC",
                arguments: [scope.practiceID.description, patientID.description]
            ).map { try RecordRows.visit(from: $0, seal: self.fieldSeal(scope.practiceID)) }
            try self.appendAudit(.visitsRead(patientID: patientID, count: visits.count), scope: scope, db: db)
            return visits
        }
    }

    /// One visit record of a patient (audited read); another patient's or practice's is not found.
    public func visit(scope: AccessScope, patientID: Identifier<Patient>, id: Identifier<Visit>) async throws
        -> StoredVisit
    {
        try await write { db in
            guard let stored = try self.visit(db: db, practiceID: scope.practiceID, id: id.description),
                stored.visit.patientID == patientID
            else {
                throw DomainError.notFound(resource: "visit")
            }
            try self.appendAudit(
                .visitRead(patientID: patientID, visitID: id), scope: scope, db: db)
            return stored
        }
    }

    /// The recall list: vaccinations and visit follow-ups of active patients due within `days`
    /// of `asOf` or overdue, practice-wide, soonest first (audited).
    public func recalls(scope: AccessScope, asOf: Date, withinDays days: Int) async throws -> (
        dueSoon: [Recall], overdue: [Recall]
    ) {
        let (vaccinations, names) = try await vaccinationReminders(scope: scope, asOf: asOf, withinDays: days)
        return try await write { db in
            let practice = scope.practiceID.description
            let horizon = VaccinationSchedule.lastListedDay(asOf: asOf, dueWithinDays: days)
            let followedUp = """
                SELECT v.patient_id FROM visit v JOIN patient p ON p.id = v.patient_id AND p.practice_id = v.practice_id
                WHERE v.practice_id = ? AND p.status = 'active' AND v.follow_up_date IS NOT NULL
                    AND v.follow_up_date <= ?
                """
            var patientNames = names
            for row in try Row.fetchAll(
                db, sql: "SELECT id, name FROM patient WHERE practice_id = ? AND id IN (\(followedUp))",
                arguments: [practice, practice, horizon])
            {
                patientNames[try row.identifier("id")] = try row.read("name")
            }
            // A later visit answers a follow-up, so every visit of the patients concerned counts.
            let visits = try Row.fetchAll(
                db, sql: "SELECT * FROM visit WHERE practice_id = ? AND patient_id IN (\(followedUp))",
                arguments: [practice, practice, horizon]
            ).map { try RecordRows.visit(from: $0, seal: self.fieldSeal(scope.practiceID)).visit }
            let followUps = FollowUpSchedule.dueAndOverdue(visits: visits, asOf: asOf, dueWithinDays: days)
            try self.appendAudit(.recallsRead(followUps), scope: scope, db: db)
            return Recall.lists(vaccinations: vaccinations, followUps: followUps, patientNames: patientNames)
        }
    }

    // MARK: - Rows

    /// The visit's row (recording and restore), its record sealed.
    func visit(db: Database, practiceID: PracticeID, id: String) throws -> StoredVisit? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM visit WHERE id = ? AND practice_id = ?",
            arguments: [id.lowercased(), practiceID.description]
        )
        .map { try RecordRows.visit(from: $0, seal: fieldSeal(practiceID)) }
    }
}
