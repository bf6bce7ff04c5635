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
    public func recordAssessment(scope: AccessScope, patientID: UUID, caseJSON: Data, result: TriageResult, arrival: Date,
                                 admitToQueue: Bool, intakeRanking: IntakeRanking?) async throws -> (StoredAssessment, QueueChange?) {
        let assessment = TriageAssessment(patientID: patientID, level: result.level, arrival: arrival, assessedAt: result.assessedAt)
        let resultJSON = result.encodedJSON(prettyPrinted: false)
        let caseText = String(decoding: caseJSON, as: UTF8.self), resultText = String(decoding: resultJSON, as: UTF8.self)
        let rankingJSON = try intakeRanking.map { try Self.json($0.ranked) }
        return try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                guard try await self.patient(connection: connection, practiceID: scope.practiceID, id: patientID, forUpdate: true) != nil else {
                    throw DomainError.notFound(resource: "patient")
                }
                let now = self.clock.now()
                var queue = TriageQueue(entries: try await self.queueEntry(practiceID: scope.practiceID, patientID: patientID, connection: connection)
                    .map { [$0] } ?? [])
                var change: QueueChange?
                if admitToQueue {
                    do { change = try queue.handle(.admit(assessment), at: now) } catch let error as QueueError { throw error.domainError }
                }
                try await connection.query("""
                    INSERT INTO triage_assessment (id, practice_id, patient_id, assessor_id, arrival_at_ms, assessed_at_ms, level,
                                                   rules_version, case_json, result_json)
                    VALUES (\(assessment.id.rawValue), \(scope.practiceID.rawValue), \(patientID), \(scope.actorID?.description),
                            \(Timestamp.milliseconds(arrival)), \(Timestamp.milliseconds(result.assessedAt)), \(result.level.rawValue),
                            \(result.rulesVersion), \(caseText), \(resultText))
                    """, logger: self.logger)
                if let change { try await self.save(change, scope: scope, connection: connection) }
                if let intakeRanking, let rankingJSON {
                    try await connection.query("""
                        INSERT INTO intake_ranking (id, practice_id, patient_id, appointment_type_id, ranking, created_at)
                        VALUES (\(assessment.id.rawValue), \(scope.practiceID.rawValue), \(patientID), \(intakeRanking.appointmentTypeID?.rawValue),
                                \(rankingJSON)::jsonb, \(now))
                        """, logger: self.logger)
                }
                try await self.appendAudit(AuditRecord(action: "triage.assess", resourceType: "patient", resourceID: UUIDText.lowercase(patientID),
                                                       detail: "level=\(result.level.rawValue) assessment=\(assessment.id)"),
                                           scope: scope, connection: connection)
                // Admission and re-triage publish the triage and the board's change together; an
                // assessment kept off the board (a booked non-urgent intake) is still news.
                for event in change?.events(practiceID: scope.practiceID, occurredAt: now)
                    ?? [assessment.assessedEvent(practiceID: scope.practiceID, occurredAt: now)] {
                    _ = try await self.appendEvent(event, scope: scope, connection: connection)
                }
                let stored = StoredAssessment(id: assessment.id, patientID: patientID, assessorID: scope.actorID?.description, arrival: arrival,
                                              assessedAt: result.assessedAt, level: result.level, rulesVersion: result.rulesVersion,
                                              resultJSON: resultJSON)
                return (stored, change)
            }
        }
    }

    /// A patient's assessments, newest first (an audited read of the record); the cursor is the
    /// assessed-at millisecond value to continue below.
    public func assessments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: Int64?) async throws -> Page<StoredAssessment> {
        try await transaction(.practice(scope.practiceID)) { connection in
            guard try await self.patient(connection: connection, practiceID: scope.practiceID, id: patientID) != nil else {
                throw DomainError.notFound(resource: "patient")
            }
            let rows = try await connection.query("""
                SELECT id, assessor_id, arrival_at_ms, assessed_at_ms, level, rules_version, result_json FROM triage_assessment
                WHERE practice_id = \(scope.practiceID.rawValue) AND patient_id = \(patientID)
                  AND (\(cursor)::bigint IS NULL OR assessed_at_ms < \(cursor))
                ORDER BY assessed_at_ms DESC LIMIT \(Int64(limit) + 1)
                """, logger: self.logger)
            var items: [StoredAssessment] = []
            for try await (id, assessor, arrival, assessed, level, rules, result) in rows.decode((UUID, String?, Int64, Int64, Int, String, String).self) {
                guard let triageLevel = TriageLevel(rawValue: level) else {
                    throw StoreCorruption(column: "triage_assessment.level", reason: "not a VTL level")
                }
                items.append(StoredAssessment(id: Identifier(id), patientID: patientID, assessorID: assessor,
                                              arrival: Timestamp.date(milliseconds: arrival), assessedAt: Timestamp.date(milliseconds: assessed),
                                              level: triageLevel, rulesVersion: rules, resultJSON: Data(result.utf8)))
            }
            try await self.appendAudit(AuditRecord(action: "triage.history.read", resourceType: "patient", resourceID: UUIDText.lowercase(patientID)),
                                       scope: scope, connection: connection)
            let page = Array(items.prefix(limit))
            let next = items.count > limit ? page.last.map { String(Timestamp.milliseconds($0.assessedAt)) } : nil
            return Page(items: page, nextCursor: next)
        }
    }

    // MARK: - The board

    /// Moves a patient on the board (a legal transition only, by the domain's rules), audited.
    public func moveQueueEntry(scope: AccessScope, patientID: UUID, to status: QueueStatus) async throws -> QueueChange {
        try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                var queue = TriageQueue(entries: try await self.queueEntry(practiceID: scope.practiceID, patientID: patientID, forUpdate: true,
                                                                           connection: connection).map { [$0] } ?? [])
                let now = self.clock.now()
                let change: QueueChange
                do { change = try queue.handle(.move(patientID: patientID, to: status), at: now) } catch let error as QueueError { throw error.domainError }
                try await self.save(change, scope: scope, connection: connection)
                try await self.appendAudit(AuditRecord(action: "triage.queue.move", resourceType: "patient", resourceID: UUIDText.lowercase(patientID),
                                                       detail: "status=\(status.rawValue)"), scope: scope, connection: connection)
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
            let rows = try await connection.query("""
                SELECT \(unescaped: Self.queueColumns), p.name, p.mrn, p.species, p.alerts::text FROM triage_queue q
                JOIN patient p ON p.id = q.patient_id AND p.practice_id = q.practice_id
                WHERE q.practice_id = \(scope.practiceID.rawValue) AND q.status IN ('waiting', 'inTreatment')
                ORDER BY q.arrival_at_ms, q.patient_id
                """, logger: self.logger)
            var board: [QueuedPatient] = []
            for try await row in rows {
                let columns = row.makeRandomAccess()
                let alerts = try Self.decode([String].self, try columns[11].decode(String.self), column: "patient.alerts")
                board.append(QueuedPatient(entry: try Self.queueEntry(from: columns), name: try columns[8].decode(String.self),
                                           medicalRecordNumber: try columns[9].decode(String.self), species: try columns[10].decode(String.self),
                                           alerts: alerts))
            }
            return board
        }
    }

    // MARK: - Intake bookings

    /// The basis of a booking made from `assessmentID`: the assessment must be this patient's in
    /// this practice (otherwise `assessmentId` is named); the ranking kept with it, if any,
    /// says where the booked clinician stood.
    func bookingBasis(practiceID: PracticeID, patientID: UUID, clinicianID: UUID, assessmentID: UUID,
                      connection: PostgresConnection) async throws -> BookingBasis {
        var level: Int?
        for try await value in try await connection.query("""
            SELECT level FROM triage_assessment WHERE id = \(assessmentID) AND practice_id = \(practiceID.rawValue) AND patient_id = \(patientID)
            """, logger: logger).decode(Int.self) { level = value }
        guard let level else { throw ValidationError(field: "assessmentId", message: "is not a triage assessment of this patient") }
        var ranked: [RankedCandidate] = []
        for try await text in try await connection.query("""
            SELECT ranking::text FROM intake_ranking WHERE id = \(assessmentID) AND practice_id = \(practiceID.rawValue)
            """, logger: logger).decode(String.self) {
            ranked = try Self.decode([RankedCandidate].self, text, column: "intake_ranking.ranking")
        }
        return BookingBasis.booking(clinicianID, assessmentID: assessmentID, triageLevel: level, ranked: ranked)
    }

    // MARK: - Rows

    static let queueColumns = "q.assessment_id, q.patient_id, q.level, q.arrival_at_ms, q.assessed_at_ms, q.status, q.status_changed_at_ms, q.practice_id"

    func queueEntry(practiceID: PracticeID, patientID: UUID, forUpdate: Bool = false, connection: PostgresConnection) async throws -> QueueEntry? {
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.queueColumns) FROM triage_queue q WHERE q.practice_id = \(practiceID.rawValue) AND q.patient_id = \(patientID)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger)
        for try await row in rows { return try Self.queueEntry(from: row.makeRandomAccess()) }
        return nil
    }

    /// Decodes the first seven of ``queueColumns``; a row the domain cannot hold is reported.
    static func queueEntry(from columns: PostgresRandomAccessRow) throws -> QueueEntry {
        guard let level = TriageLevel(rawValue: try columns[2].decode(Int.self)) else {
            throw StoreCorruption(column: "triage_queue.level", reason: "not a VTL level")
        }
        guard let status = QueueStatus(rawValue: try columns[5].decode(String.self)) else {
            throw StoreCorruption(column: "triage_queue.status", reason: "not a board status")
        }
        return QueueEntry(assessmentID: Identifier(try columns[0].decode(UUID.self)), patientID: try columns[1].decode(UUID.self), level: level,
                          arrival: Timestamp.date(milliseconds: try columns[3].decode(Int64.self)),
                          assessedAt: Timestamp.date(milliseconds: try columns[4].decode(Int64.self)), status: status,
                          statusChangedAt: Timestamp.date(milliseconds: try columns[6].decode(Int64.self)))
    }

    /// Saves the board entry and keeps the practice's triaged arrivals in step with it (the
    /// history VTL compliance is measured on), in the change's transaction.
    private func save(_ change: QueueChange, scope: AccessScope, connection: PostgresConnection) async throws {
        let entry = change.entry, practice = scope.practiceID.rawValue
        try await connection.query("""
            INSERT INTO triage_queue (practice_id, patient_id, assessment_id, level, arrival_at_ms, assessed_at_ms, status, status_changed_at_ms)
            VALUES (\(practice), \(entry.patientID), \(entry.assessmentID.rawValue), \(entry.level.rawValue), \(Timestamp.milliseconds(entry.arrival)),
                    \(Timestamp.milliseconds(entry.assessedAt)), \(entry.status.rawValue), \(Timestamp.milliseconds(entry.statusChangedAt)))
            ON CONFLICT (practice_id, patient_id) DO UPDATE SET assessment_id = excluded.assessment_id, level = excluded.level,
                arrival_at_ms = excluded.arrival_at_ms, assessed_at_ms = excluded.assessed_at_ms, status = excluded.status,
                status_changed_at_ms = excluded.status_changed_at_ms
            """, logger: logger)
        guard let update = TriageArrivalUpdate(change) else { return }
        switch update {
        case .arrived(let patientID, let level, let arrival):
            try await connection.query("""
                INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level)
                VALUES (\(practice), \(patientID), \(Timestamp.milliseconds(arrival)), \(level.rawValue))
                ON CONFLICT (practice_id, patient_id, arrival_at_ms) DO UPDATE SET level = excluded.level
                WHERE triage_arrival.first_seen_at_ms IS NULL
                """, logger: logger)
        case .retriaged(let patientID, let arrival, let level):
            try await connection.query("""
                UPDATE triage_arrival SET level = \(level.rawValue)
                WHERE practice_id = \(practice) AND patient_id = \(patientID) AND arrival_at_ms = \(Timestamp.milliseconds(arrival))
                  AND first_seen_at_ms IS NULL
                """, logger: logger)
        case .firstSeen(let patientID, let arrival, let at):
            // An arrival stated later than the move (clocks differ between devices) is seen on arrival, not before it.
            try await connection.query("""
                UPDATE triage_arrival SET first_seen_at_ms = GREATEST(\(Timestamp.milliseconds(at)), arrival_at_ms)
                WHERE practice_id = \(practice) AND patient_id = \(patientID) AND arrival_at_ms = \(Timestamp.milliseconds(arrival))
                  AND first_seen_at_ms IS NULL
                """, logger: logger)
        }
    }
}
