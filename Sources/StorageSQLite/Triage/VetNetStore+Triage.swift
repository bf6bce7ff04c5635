import Analytics
import Foundation
import GRDB
import SharedKernel
import StoragePorts
import Triage

extension VetNetStore {
    // MARK: - Assessments

    /// Stores an assessment and moves the ER board in one transaction: admits the patient or
    /// re-triages them (the board follows the latest assessment). Audited.
    /// With `admitToQueue` false (a non-urgent intake given a future slot) the assessment is
    /// kept in the history but the patient does not join the board.
    /// With `intakeRanking`, the clinicians an intake ranked for the case are kept with the
    /// assessment, so a booking made from it records what it was booked on.
    public func recordAssessment(
        scope: AccessScope, patientID: UUID, caseJSON: Data, result: TriageResult, arrival: Date,
        admitToQueue: Bool = true, intakeRanking: IntakeRanking? = nil,
        idempotency: IdempotencyKey? = nil
    ) async throws -> (StoredAssessment, QueueChange?) {
        let new = try NewAssessment(
            patientID: patientID, caseJSON: caseJSON, result: result, arrival: arrival,
            seal: fieldSeal(scope.practiceID))
        let (assessment, resultJSON) = (new.assessment, new.resultJSON)
        return try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID)
            var recorded: (StoredAssessment, QueueChange?)?
            let (id, _) = try self.idempotent(db: db, scope: scope, key: idempotency, operation: .triageAssess) {
                let now = self.clock.now()
                let decision = try AssessmentRecording.decide(
                    assessment, result: result, resultJSON: resultJSON, admitToQueue: admitToQueue,
                    boardEntry: try self.queueEntry(db: db, scope: scope, patientID: patientID), scope: scope, now: now)
                try db.insert(AssessmentRows.insert(new, rulesVersion: result.rulesVersion, scope: scope))
                if let change = decision.change {
                    try self.saveQueueEntry(change.entry, db: db, scope: scope)
                    try Self.recordArrival(change, db: db, scope: scope)
                }
                if let intakeRanking {
                    try db.insert(
                        AppointmentRows.insert(
                            intakeRanking, assessmentID: assessment.id.rawValue, patientID: patientID,
                            practiceID: scope.practiceID, createdAt: now))
                }
                try self.appendAudit(decision.audit, scope: scope, db: db)
                try self.appendEvents(decision.events, scope: scope, db: db)
                recorded = (decision.stored, decision.change)
                return assessment.id.description
            }
            if let recorded { return recorded }
            // A repeat: the first request's assessment, as it is stored.
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM triage_assessment WHERE id = ? AND practice_id = ?",
                arguments: [id, scope.practiceID.description]
            ).orNotFound("assessment")
            return (try self.storedAssessment(row, db: db), nil)
        }
    }

    /// A patient's assessments, newest first (audited read of the record). The cursor is the
    /// assessed-at millisecond value to continue below.
    public func assessments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: Int64?) async throws
        -> Page<StoredAssessment>
    {
        try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID)
            var sql = "SELECT * FROM triage_assessment WHERE practice_id = ? AND patient_id = ?"
            var arguments: StatementArguments = [scope.practiceID.description, Self.text(patientID)]
            if let cursor {
                sql += " AND assessed_at_ms < ?"
                arguments += [cursor]
            }
            sql += " ORDER BY assessed_at_ms DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let items = try rows.prefix(limit + 1).map { row in try self.storedAssessment(row, db: db) }
            try self.appendAudit(
                AuditRecord.patient(.triageHistoryRead, patientID),
                scope: scope, db: db)
            return Page(fetched: items, limit: limit) { String(Timestamp.milliseconds($0.assessedAt)) }
        }
    }

    // MARK: - The board

    /// Moves a patient on the board (a legal transition only), audited.
    public func moveQueueEntry(scope: AccessScope, patientID: UUID, to status: QueueStatus) async throws -> QueueChange
    {
        try await write { db in
            var queue = TriageQueue(
                entries: try self.queueEntry(db: db, scope: scope, patientID: patientID).map { [$0] } ?? [])
            let change: QueueChange
            do { change = try queue.handle(.move(patientID: patientID, to: status), at: self.clock.now()) } catch let
                error as QueueError
            { throw error.domainError }
            try self.saveQueueEntry(change.entry, db: db, scope: scope)
            try Self.recordArrival(change, db: db, scope: scope)
            try self.appendAudit(
                AuditRecord.triageQueueMoved(patientID, to: status), scope: scope, db: db)
            try self.appendEvents(
                change.events(practiceID: scope.practiceID, occurredAt: self.clock.now()), scope: scope, db: db)
            return change
        }
    }

    /// The practice's active board entries (waiting and in treatment) with the patient facts the board shows.
    public func activeQueue(scope: AccessScope) async throws -> [QueuedPatient] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT q.*, p.name, p.mrn, p.species, p.alerts FROM triage_queue_entry q
                    JOIN patient p ON p.id = q.patient_id AND p.practice_id = q.practice_id
                    WHERE q.practice_id = ? AND q.status IN (\(QueueStatus.activeSQLList))
                    """, arguments: [scope.practiceID.description]
            ).map { row in
                let alertsJSON: String = try row.read("alerts")
                return QueuedPatient(
                    entry: try self.queueEntry(from: row), name: try row.read("name"),
                    medicalRecordNumber: try row.read("mrn"),
                    species: try row.read("species"),
                    alerts: try StoreCorruption.decoded([String].self, from: alertsJSON, column: "patient.alerts"))
            }
        }
    }

    // MARK: - Clinical judgement

    public func overrideAssessment(
        scope: AccessScope, assessmentID: Identifier<TriageAssessment>,
        request: OverrideRequest
    ) async throws -> (StoredAssessment, QueueChange?) {
        try await write { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM triage_assessment WHERE id = ? AND practice_id = ?",
                arguments: [assessmentID.description, scope.practiceID.description]
            ).orNotFound("assessment")
            let assessment = try self.storedAssessment(row, db: db)
            let newer =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM triage_assessment WHERE practice_id = ? AND patient_id = ?
                            AND assessed_at_ms > ?
                        """,
                    arguments: [
                        scope.practiceID.description, Self.text(assessment.patientID),
                        Timestamp.milliseconds(assessment.assessedAt),
                    ]) ?? 0
            let recording = try OverrideRecording.decide(
                request, on: assessment, isLatest: newer == 0,
                boardEntry: try self.queueEntry(db: db, scope: scope, patientID: assessment.patientID),
                scope: scope, now: self.clock.now())
            try db.insert(
                AssessmentRows.insert(
                    recording.override, patientID: assessment.patientID, seal: self.fieldSeal(scope.practiceID)))
            if let change = recording.change {
                try self.saveQueueEntry(change.entry, db: db, scope: scope)
                try Self.recordArrival(change, db: db, scope: scope)
            }
            try self.appendAudit(recording.audit, scope: scope, db: db)
            try self.appendEvents(recording.events, scope: scope, db: db)
            return (try self.storedAssessment(row, db: db), recording.change)
        }
    }

    public func triageJudgement(scope: AccessScope, from: Date, to: Date) async throws -> TriageJudgementHistory {
        try await writer.read { db in
            let bounds: StatementArguments = [
                scope.practiceID.description, Timestamp.milliseconds(from), Timestamp.milliseconds(to),
            ]
            let assessments = try Row.fetchAll(
                db,
                sql: """
                    SELECT assessor_id,
                        assessed_at_ms FROM triage_assessment WHERE practice_id = ? AND assessed_at_ms >= ?
                        AND assessed_at_ms < ?
                    """, arguments: bounds
            ).map { (assessorID: try $0.read(at: 0) as String?, at: Timestamp.date(milliseconds: try $0.read(at: 1))) }
            let overrides = try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM triage_override WHERE practice_id = ? AND overridden_at_ms >= ?
                        AND overridden_at_ms < ?
                    ORDER BY overridden_at_ms, id
                    """, arguments: bounds
            ).map(self.override(from:))
            return TriageJudgementHistory(assessments: assessments, overrides: overrides)
        }
    }

    public func announceBoardDeadlines() async throws -> Int {
        try await write { db in
            let now = self.clock.now()
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM triage_queue_entry WHERE status = 'waiting'")
            var byPractice: [String: [QueueEntry]] = [:]
            for row in rows {
                byPractice[try row.read("practice_id"), default: []].append(try self.queueEntry(from: row))
            }
            var announced = 0
            for (practice, entries) in byPractice {
                guard let practiceID = PracticeID(uuidString: practice) else { continue }
                let scope = AccessScope.system(practiceID, requestID: "board-deadlines")
                var queue = TriageQueue(entries: entries)
                for due in queue.dueAnnouncements(at: now) {
                    guard let change = try? queue.handle(.announce(patientID: due.patientID, due.deadline), at: now)
                    else { continue }
                    try self.saveQueueEntry(change.entry, db: db, scope: scope)
                    try self.appendEvents(change.events(practiceID: practiceID, occurredAt: now), scope: scope, db: db)
                    announced += 1
                }
            }
            return announced
        }
    }

    // MARK: - Rows

    func storedAssessment(_ row: Row, db: Database) throws -> StoredAssessment {
        let id = try row.uuid("id")
        let overrides = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM triage_override WHERE assessment_id = ? ORDER BY overridden_at_ms, rowid"),
            arguments: [Self.text(id)]
        ).map(override(from:))
        return try AssessmentRows.assessment(from: row, seal: try fieldSeal(row: row), overrides: overrides)
    }

    func override(from row: Row) throws -> TriageOverride {
        try AssessmentRows.override(from: row) { self.fieldSeal($0) }
    }

    /// The row a page's `cursor` names in `table`, as its stored id: refused
    /// (``PageCursor/namesNothing``) unless it is a row of the scope's practice (and of
    /// `patientID`'s, when given) — a cursor that names nothing would otherwise read as the end.
    static func cursorRow(
        _ cursor: String, in table: String, db: Database, scope: AccessScope, patientID: UUID? = nil
    ) throws -> String {
        let id = Self.text(try PageCursor.identifier(cursor))
        let known = try Bool.fetchOne(
            db,
            sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE id = ? AND practice_id = ?"
                + (patientID == nil ? ")" : " AND patient_id = ?)"),
            arguments: StatementArguments(
                [id, scope.practiceID.description] + (patientID.map { [Self.text($0)] } ?? [])))
        guard known == true else { throw PageCursor.namesNothing }
        return id
    }

    static func requirePatient(db: Database, scope: AccessScope, patientID: UUID) throws {
        let count =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM patient WHERE id = ? AND practice_id = ?"),
                arguments: [Self.text(patientID), scope.practiceID.description]) ?? 0
        if count == 0 { throw DomainError.notFound(resource: "patient") }
    }

    func queueEntry(db: Database, scope: AccessScope, patientID: UUID) throws -> QueueEntry? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM triage_queue_entry WHERE practice_id = ? AND patient_id = ?",
            arguments: [scope.practiceID.description, Self.text(patientID)]
        ).map(queueEntry(from:))
    }

    func queueEntry(from row: Row) throws -> QueueEntry {
        try AssessmentRows.queueEntry(from: row, table: "triage_queue_entry") { self.fieldSeal($0) }
    }

    func saveQueueEntry(_ entry: QueueEntry, db: Database, scope: AccessScope) throws {
        try db.execute(
            sql: """
                INSERT INTO triage_queue_entry (practice_id, patient_id, assessment_id, level, arrival_at_ms,
                    assessed_at_ms, status,
                                                status_changed_at_ms, override_json, overdue_announced,
                                                    reassessment_announced)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (practice_id, patient_id) DO UPDATE SET assessment_id = excluded.assessment_id,
                    level = excluded.level,
                    arrival_at_ms = excluded.arrival_at_ms, assessed_at_ms = excluded.assessed_at_ms,
                        status = excluded.status,
                    status_changed_at_ms = excluded.status_changed_at_ms, override_json = excluded.override_json,
                    overdue_announced = excluded.overdue_announced,
                        reassessment_announced = excluded.reassessment_announced
                """,
            arguments: [
                scope.practiceID.description, Self.text(entry.patientID), entry.assessmentID.description,
                entry.level.rawValue,
                Timestamp.milliseconds(entry.arrival), Timestamp.milliseconds(entry.assessedAt), entry.status.rawValue,
                Timestamp.milliseconds(entry.statusChangedAt),
                try entry.override.map {
                    try fieldSeal(scope.practiceID).seal(
                        String(decoding: try $0.storedJSON(), as: UTF8.self), .queueOverride,
                        id: Self.text(entry.patientID))
                },
                entry.overdueAnnounced, entry.reassessmentAnnounced,
            ])
    }

    /// Keeps the practice's record of triaged visits in step with the board (the history VTL
    /// compliance is measured on), in the board change's transaction.
    static func recordArrival(_ change: QueueChange, db: Database, scope: AccessScope) throws {
        guard let update = TriageArrivalUpdate(change) else { return }
        let practice = scope.practiceID.description
        switch update {
        case .arrived(let patientID, let level, let arrival):
            try db.execute(
                sql: """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level) VALUES (?, ?, ?, ?)
                    ON CONFLICT (practice_id, patient_id,
                        arrival_at_ms) DO UPDATE SET level = excluded.level WHERE first_seen_at_ms IS NULL
                    """, arguments: [practice, text(patientID), Timestamp.milliseconds(arrival), level.rawValue])
        case .retriaged(let patientID, let arrival, let level):
            try db.execute(
                sql: """
                    UPDATE triage_arrival SET level = ? WHERE practice_id = ? AND patient_id = ? AND arrival_at_ms = ?
                        AND first_seen_at_ms IS NULL
                    """, arguments: [level.rawValue, practice, text(patientID), Timestamp.milliseconds(arrival)])
        case .firstSeen(let patientID, let arrival, let at):
            // An arrival stated later than the moment of the move (a clock between devices) is seen on arrival, not
            // before it.
            try db.execute(
                sql: """
                    UPDATE triage_arrival SET first_seen_at_ms = MAX(?, arrival_at_ms)
                    WHERE practice_id = ? AND patient_id = ? AND arrival_at_ms = ? AND first_seen_at_ms IS NULL
                    """,
                arguments: [Timestamp.milliseconds(at), practice, text(patientID), Timestamp.milliseconds(arrival)])
        case .left(let patientID, let arrival, let at):
            try db.execute(
                sql: """
                    UPDATE triage_arrival SET left_at_ms = MAX(?, arrival_at_ms)
                    WHERE practice_id = ? AND patient_id = ? AND arrival_at_ms = ? AND first_seen_at_ms IS NULL
                        AND left_at_ms IS NULL
                    """,
                arguments: [Timestamp.milliseconds(at), practice, text(patientID), Timestamp.milliseconds(arrival)])
        }
    }

    /// Lower-case UUID text, the stored form of ids.
    static func text(_ uuid: UUID) -> String { UUIDText.lowercase(uuid) }
}
