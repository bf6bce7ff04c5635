import Analytics
import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts
import Triage

extension PostgresStore: TriageRepository {
    // MARK: - Assessments

    /// Stores an assessment and moves the ER board in one transaction, as the embedded store
    /// does. The patient's row is locked first, so two instances assessing the same patient
    /// take turns and the board follows the later assessment.
    public func recordAssessment(
        scope: AccessScope, patientID: UUID, caseJSON: Data, result: TriageResult, arrival: Date,
        admitToQueue: Bool, intakeRanking: IntakeRanking?,
        idempotency: IdempotencyKey?
    ) async throws -> (StoredAssessment, QueueChange?) {
        let new = try NewAssessment(
            patientID: patientID, caseJSON: caseJSON, result: result, arrival: arrival,
            seal: fieldSeal(scope.practiceID))
        let (assessment, resultJSON) = (new.assessment, new.resultJSON)
        return try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                guard
                    try await self.patient(
                        connection: connection, practiceID: scope.practiceID, id: patientID, forUpdate: true) != nil
                else {
                    throw DomainError.notFound(resource: "patient")
                }
                if let idempotency,
                    let first = try await self.claim(
                        idempotency, operation: .triageAssess, scope: scope, connection: connection)
                {
                    // A repeat: the first request's assessment, as it is stored.
                    guard let id = UUID(uuidString: first),
                        let stored = try await self.storedAssessment(
                            id: id, practiceID: scope.practiceID, connection: connection)
                    else { throw DomainError.notFound(resource: "assessment") }
                    return (stored, nil)
                }
                let now = self.clock.now()
                let decision = try AssessmentRecording.decide(
                    assessment, result: result, resultJSON: resultJSON, admitToQueue: admitToQueue,
                    boardEntry: try await self.queueEntry(
                        practiceID: scope.practiceID, patientID: patientID, connection: connection),
                    scope: scope, now: now)
                try await connection.insert(
                    AssessmentRows.insert(new, rulesVersion: result.rulesVersion, scope: scope), logger: self.logger)
                if let change = decision.change { try await self.save(change, scope: scope, connection: connection) }
                if let intakeRanking {
                    try await connection.insert(
                        AppointmentRows.insert(
                            intakeRanking, assessmentID: assessment.id.rawValue, patientID: patientID,
                            practiceID: scope.practiceID, createdAt: now),
                        logger: self.logger)
                }
                try await self.appendAudit(
                    decision.audit, events: decision.events, scope: scope, connection: connection)
                if let idempotency {
                    try await self.finishClaim(
                        idempotency, operation: .triageAssess, resourceID: assessment.id.description, scope: scope,
                        connection: connection)
                }
                return (decision.stored, decision.change)
            }
        }
    }

    /// A patient's assessments, newest first (an audited read of the record); the cursor is the
    /// assessed-at millisecond value to continue below.
    public func assessments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: Int64?) async throws
        -> Page<StoredAssessment>
    {
        try await transaction(.practice(scope.practiceID)) { connection in
            guard try await self.patient(connection: connection, practiceID: scope.practiceID, id: patientID) != nil
            else {
                throw DomainError.notFound(resource: "patient")
            }
            var items: [StoredAssessment] = try await connection.rows(
                """
                SELECT \(unescaped: AssessmentRows.assessmentColumns) FROM triage_assessment
                WHERE practice_id = \(scope.practiceID.rawValue) AND patient_id = \(patientID)
                  AND (\(cursor)::bigint IS NULL OR assessed_at_ms < \(cursor))
                ORDER BY assessed_at_ms DESC LIMIT \(Int64(limit) + 1)
                """, logger: self.logger
            ) { try AssessmentRows.assessment(from: $0, seal: self.fieldSeal(scope.practiceID)) }
            // Each assessment with its overrides (a page holds a handful).
            for (index, item) in items.enumerated() {
                let overrides = try await self.overrides(
                    where: "assessment_id = $1", bindings: [item.id.rawValue], connection: connection)
                if !overrides.isEmpty {
                    items[index] = StoredAssessment(
                        id: item.id, patientID: item.patientID, assessorID: item.assessorID, arrival: item.arrival,
                        assessedAt: item.assessedAt, level: item.level, rulesVersion: item.rulesVersion,
                        resultJSON: item.resultJSON, overrides: overrides)
                }
            }
            try await self.appendAudit(
                AuditRecord.patient(.triageHistoryRead, patientID),
                scope: scope, connection: connection)
            return Page(fetched: items, limit: limit) { String(Timestamp.milliseconds($0.assessedAt)) }
        }
    }

    // MARK: - The board

    /// Moves a patient on the board (a legal transition only, by the domain's rules), audited.
    public func moveQueueEntry(scope: AccessScope, patientID: UUID, to status: QueueStatus) async throws -> QueueChange
    {
        try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                var queue = TriageQueue(
                    entries: try await self.queueEntry(
                        practiceID: scope.practiceID, patientID: patientID, forUpdate: true,
                        connection: connection
                    ).map { [$0] } ?? [])
                let now = self.clock.now()
                let change: QueueChange
                do { change = try queue.handle(.move(patientID: patientID, to: status), at: now) } catch let error
                    as QueueError
                { throw error.domainError }
                try await self.save(change, scope: scope, connection: connection)
                try await self.appendAudit(
                    AuditRecord.triageQueueMoved(patientID, to: status), scope: scope, connection: connection)
                for event in change.events(practiceID: scope.practiceID, occurredAt: now) {
                    _ = try await self.appendEvent(event, scope: scope, connection: connection)
                }
                return change
            }
        }
    }

    /// The board: patients waiting or in treatment, with what the board shows of them.
    public func activeQueue(scope: AccessScope) async throws -> [QueuedPatient] {
        try await transaction(.practice(scope.practiceID)) { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.queueColumns), p.name, p.mrn, p.species, p.alerts::text FROM triage_queue q
                JOIN patient p ON p.id = q.patient_id AND p.practice_id = q.practice_id
                WHERE q.practice_id = \(scope.practiceID.rawValue)
                    AND q.status IN (\(unescaped: QueueStatus.activeSQLList))
                ORDER BY q.arrival_at_ms, q.patient_id
                """, logger: self.logger)
            var board: [QueuedPatient] = []
            for try await row in rows {
                let columns = row.makeRandomAccess()
                let alerts = try Self.decode(
                    [String].self, try columns[14].decode(String.self), column: "patient.alerts")
                board.append(
                    QueuedPatient(
                        entry: try self.queueEntry(from: columns), name: try columns[11].decode(String.self),
                        medicalRecordNumber: try columns[12].decode(String.self),
                        species: try columns[13].decode(String.self),
                        alerts: alerts))
            }
            return board
        }
    }

    // MARK: - Clinical judgement

    /// Overrides an assessment's level, as the embedded store does; the patient's row is
    /// locked first, so an override and a new assessment of the same patient take turns.
    public func overrideAssessment(
        scope: AccessScope, assessmentID: Identifier<TriageAssessment>,
        request: OverrideRequest
    ) async throws -> (StoredAssessment, QueueChange?) {
        try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let found = try await self.storedAssessment(
                    id: assessmentID.rawValue, practiceID: scope.practiceID, connection: connection
                ).orNotFound("assessment")
                _ = try await self.patient(
                    connection: connection, practiceID: scope.practiceID, id: found.patientID, forUpdate: true)
                var newer = 0
                for try await count in try await connection.query(
                    """
                    SELECT COUNT(*)::int FROM triage_assessment WHERE practice_id = \(scope.practiceID.rawValue)
                        AND patient_id = \(found.patientID)
                      AND assessed_at_ms > \(Timestamp.milliseconds(found.assessedAt))
                    """, logger: self.logger
                ).decode(Int.self) { newer = count }
                let recording = try OverrideRecording.decide(
                    request, on: found, isLatest: newer == 0,
                    boardEntry: try await self.queueEntry(
                        practiceID: scope.practiceID, patientID: found.patientID, forUpdate: true,
                        connection: connection),
                    scope: scope, now: self.clock.now())
                try await connection.insert(
                    AssessmentRows.insert(
                        recording.override, patientID: found.patientID, seal: self.fieldSeal(scope.practiceID)),
                    logger: self.logger)
                if let change = recording.change { try await self.save(change, scope: scope, connection: connection) }
                try await self.appendAudit(
                    recording.audit, events: recording.events, scope: scope, connection: connection)
                let stored = try await self.storedAssessment(
                    id: assessmentID.rawValue, practiceID: scope.practiceID, connection: connection)
                return (try stored.orNotFound("assessment"), recording.change)
            }
        }
    }

    public func triageJudgement(scope: AccessScope, from: Date, to: Date) async throws -> TriageJudgementHistory {
        try await transaction(.practice(scope.practiceID)) { connection in
            let practice = scope.practiceID.rawValue
            let start = Timestamp.milliseconds(from)
            let end = Timestamp.milliseconds(to)
            var assessments: [(assessorID: String?, at: Date)] = []
            for try await (assessor, at) in try await connection.query(
                """
                SELECT assessor_id, assessed_at_ms FROM triage_assessment
                WHERE practice_id = \(practice) AND assessed_at_ms >= \(start) AND assessed_at_ms < \(end)
                """, logger: self.logger
            ).decode((String?, Int64).self) {
                assessments.append((assessor, Timestamp.date(milliseconds: at)))
            }
            let overrides = try await self.overrides(
                where: "practice_id = $1 AND overridden_at_ms >= $2 AND overridden_at_ms < $3",
                bindings: [practice, start, end], connection: connection)
            return TriageJudgementHistory(assessments: assessments, overrides: overrides)
        }
    }

    public func announceBoardDeadlines() async throws -> Int {
        var announced = 0
        for practice in try await allPractices() {
            let scope = AccessScope.system(practice.id, requestID: "board-deadlines")
            announced += try await retryingTransientFailures {
                try await transaction(.practice(practice.id)) { connection in
                    let entries: [QueueEntry] = try await connection.rows(
                        """
                        SELECT \(unescaped: Self.queueColumns) FROM triage_queue q
                        WHERE q.practice_id = \(practice.id.rawValue) AND q.status = 'waiting' FOR UPDATE
                        """, logger: self.logger
                    ) { try self.queueEntry(from: $0) }
                    let now = self.clock.now()
                    var queue = TriageQueue(entries: entries)
                    var count = 0
                    for due in queue.dueAnnouncements(at: now) {
                        guard let change = try? queue.handle(.announce(patientID: due.patientID, due.deadline), at: now)
                        else { continue }
                        try await self.save(change, scope: scope, connection: connection)
                        for event in change.events(practiceID: practice.id, occurredAt: now) {
                            _ = try await self.appendEvent(event, scope: scope, connection: connection)
                        }
                        count += 1
                    }
                    return count
                }
            }
        }
        return announced
    }

    /// One assessment of the practice with its overrides, `nil` when there is none.
    func storedAssessment(id: UUID, practiceID: PracticeID, connection: PostgresConnection) async throws
        -> StoredAssessment?
    {
        let overrides = try await overrides(where: "assessment_id = $1", bindings: [id], connection: connection)
        return try await connection.firstRow(
            """
            SELECT \(unescaped: AssessmentRows.assessmentColumns) FROM triage_assessment
            WHERE practice_id = \(practiceID.rawValue) AND id = \(id)
            """, logger: logger
        ) { try AssessmentRows.assessment(from: $0, seal: fieldSeal(practiceID), overrides: overrides) }
    }

    /// Overrides matching `condition` (bound to `bindings`), oldest first.
    func overrides(
        where condition: String, bindings: [any PostgresEncodable & Sendable],
        connection: PostgresConnection
    ) async throws -> [TriageOverride] {
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT \(AssessmentRows.overrideColumns)
                FROM triage_override WHERE \(condition) ORDER BY overridden_at_ms, id
                """)
        for binding in bindings { try query.binds.append(binding) }
        return try await connection.rows(query, logger: logger) {
            try AssessmentRows.override(from: $0) { self.fieldSeal($0) }
        }
    }

    // MARK: - Intake bookings

    /// The basis of a booking made from `assessmentID`: the assessment must be this patient's in
    /// this practice (otherwise `assessmentId` is named); the ranking kept with it, if any,
    /// says where the booked clinician stood.
    func bookingBasis(
        practiceID: PracticeID, patientID: UUID, clinicianID: UUID, assessmentID: UUID,
        connection: PostgresConnection
    ) async throws -> BookingBasis {
        var level: Int?
        for try await value in try await connection.query(
            """
            SELECT level FROM triage_assessment WHERE id = \(assessmentID) AND practice_id = \(practiceID.rawValue)
                AND patient_id = \(patientID)
            """, logger: logger
        ).decode(Int.self) { level = value }
        var ranked: [RankedCandidate] = []
        for try await text in try await connection.query(
            """
            SELECT ranking::text FROM intake_ranking WHERE id = \(assessmentID) AND practice_id = \(practiceID.rawValue)
            """, logger: logger
        ).decode(String.self) {
            ranked = try Self.decode([RankedCandidate].self, text, column: "intake_ranking.ranking")
        }
        return try BookingBasis.booking(clinicianID, assessmentID: assessmentID, triageLevel: level, ranked: ranked)
    }

    // MARK: - Rows

    static let queueColumns = """
        q.assessment_id, q.patient_id, q.level, q.arrival_at_ms, q.assessed_at_ms, q.status, q.status_changed_at_ms,
            q.practice_id,
        q.override_json, q.overdue_announced, q.reassessment_announced
        """

    func queueEntry(practiceID: PracticeID, patientID: UUID, forUpdate: Bool = false, connection: PostgresConnection)
        async throws -> QueueEntry?
    {
        return try await connection.firstRow(
            """
            SELECT \(unescaped: Self.queueColumns) FROM triage_queue q WHERE q.practice_id = \(practiceID.rawValue)
                AND q.patient_id = \(patientID)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger
        ) { try self.queueEntry(from: $0) }
    }

    /// Reads ``queueColumns``; a row the domain cannot hold is reported.
    func queueEntry(from columns: PostgresRandomAccessRow) throws -> QueueEntry {
        try AssessmentRows.queueEntry(from: columns, table: "triage_queue") { self.fieldSeal($0) }
    }

    /// Saves the board entry and keeps the practice's triaged arrivals in step with it (the
    /// history VTL compliance is measured on), in the change's transaction.
    private func save(_ change: QueueChange, scope: AccessScope, connection: PostgresConnection) async throws {
        let entry = change.entry
        let practice = scope.practiceID.rawValue
        let overrideText = try entry.override.map {
            try fieldSeal(scope.practiceID).seal(
                String(decoding: try $0.storedJSON(), as: UTF8.self), .queueOverride,
                id: UUIDText.lowercase(entry.patientID))
        }
        try await connection.query(
            """
            INSERT INTO triage_queue (practice_id, patient_id, assessment_id, level, arrival_at_ms, assessed_at_ms,
                status, status_changed_at_ms,
                                      override_json, overdue_announced, reassessment_announced)
            VALUES (\(practice), \(entry.patientID), \(entry.assessmentID.rawValue), \(entry.level.rawValue),
                \(Timestamp.milliseconds(entry.arrival)),
                    \(Timestamp.milliseconds(entry.assessedAt)), \(entry.status.rawValue),
                        \(Timestamp.milliseconds(entry.statusChangedAt)),
                    \(overrideText), \(entry.overdueAnnounced), \(entry.reassessmentAnnounced))
            ON CONFLICT (practice_id, patient_id) DO UPDATE SET assessment_id = excluded.assessment_id,
                level = excluded.level,
                arrival_at_ms = excluded.arrival_at_ms, assessed_at_ms = excluded.assessed_at_ms,
                    status = excluded.status,
                status_changed_at_ms = excluded.status_changed_at_ms, override_json = excluded.override_json,
                overdue_announced = excluded.overdue_announced, reassessment_announced = excluded.reassessment_announced
            """, logger: logger)
        guard let update = TriageArrivalUpdate(change) else { return }
        switch update {
        case .arrived(let patientID, let level, let arrival):
            try await connection.query(
                """
                INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level)
                VALUES (\(practice), \(patientID), \(Timestamp.milliseconds(arrival)), \(level.rawValue))
                ON CONFLICT (practice_id, patient_id, arrival_at_ms) DO UPDATE SET level = excluded.level
                WHERE triage_arrival.first_seen_at_ms IS NULL
                """, logger: logger)
        case .retriaged(let patientID, let arrival, let level):
            try await connection.query(
                """
                UPDATE triage_arrival SET level = \(level.rawValue)
                WHERE practice_id = \(practice) AND patient_id = \(patientID)
                    AND arrival_at_ms = \(Timestamp.milliseconds(arrival))
                  AND first_seen_at_ms IS NULL
                """, logger: logger)
        case .firstSeen(let patientID, let arrival, let at):
            // An arrival stated later than the move (clocks differ between devices) is seen on arrival, not before it.
            try await connection.query(
                """
                UPDATE triage_arrival SET first_seen_at_ms = GREATEST(\(Timestamp.milliseconds(at)), arrival_at_ms)
                WHERE practice_id = \(practice) AND patient_id = \(patientID)
                    AND arrival_at_ms = \(Timestamp.milliseconds(arrival))
                  AND first_seen_at_ms IS NULL
                """, logger: logger)
        case .left(let patientID, let arrival, let at):
            try await connection.query(
                """
                UPDATE triage_arrival SET left_at_ms = GREATEST(\(Timestamp.milliseconds(at)), arrival_at_ms)
                WHERE practice_id = \(practice) AND patient_id = \(patientID)
                    AND arrival_at_ms = \(Timestamp.milliseconds(arrival))
                  AND first_seen_at_ms IS NULL AND left_at_ms IS NULL
                """, logger: logger)
        }
    }
}
