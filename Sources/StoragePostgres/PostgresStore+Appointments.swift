import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore: SchedulingRepository {
    // MARK: - Booking

    /// Books in one READ COMMITTED transaction: the picture `reads` names is read, `decide`
    /// runs on it, and the appointment is inserted with its audit entry and event.
    ///
    /// Bookings of one clinician or room type take turns on advisory locks
    /// (``lockBookingResources(practiceID:clinicianID:roomType:connection:)``), so a decision
    /// normally sees every committed booking it competes with. What makes booking safe,
    /// though, is the database, whatever any writer does or skips: the exclusion constraints
    /// over each clinician's and room's occupied time. An insert that overlaps an uncommitted booking waits for it and
    /// fails with `23P01` once it commits, which becomes a ``BookingConflict`` naming the
    /// clinician or room (from the constraint's name) and the time in the way. Deadlocks and
    /// serialization failures are run again a bounded number of times.
    public func bookAppointment(
        scope: AccessScope, patientID: UUID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
        reason: String?, staffNotes: String?, assessmentID: UUID?, idempotencyKey: IdempotencyKey?,
        reads: @escaping @Sendable (PracticeProfile, AppointmentType?) throws -> BookingReads,
        decide: @escaping @Sendable (SchedulingData) throws -> Appointment
    ) async throws -> (Versioned<Appointment>, replayed: Bool) {
        let operation = AuditAction.appointmentBook
        do {
            return try await retryingTransientFailures {
                try await transaction(.practice(scope.practiceID)) { connection in
                    if let idempotencyKey,
                        let first = try await self.claim(
                            idempotencyKey, operation: operation, scope: scope, connection: connection)
                    {
                        guard let id = UUID(uuidString: first),
                            let stored = try await self.appointment(
                                practiceID: scope.practiceID, id: id,
                                connection: connection)
                        else {
                            throw DomainError.notFound(resource: "appointment")
                        }
                        return (stored, true)
                    }
                    let (data, auditHead) = try await self.bookingData(
                        practiceID: scope.practiceID, clinicianID: clinicianID,
                        appointmentTypeID: appointmentTypeID, reads: reads, connection: connection)
                    let appointment = try decide(data)
                    // The decision is the caller's code: it may only book what was asked, here.
                    guard appointment.practiceID == scope.practiceID, appointment.patientID == patientID,
                        appointment.clinicianID == clinicianID,
                        appointment.appointmentTypeID == appointmentTypeID
                    else {
                        throw DomainError.conflict("The booking decided on is not the one requested.")
                    }
                    // A booking from an intake records the assessment, level and match it was made on.
                    let basis = try await assessmentID.asyncMap {
                        try await self.bookingBasis(
                            practiceID: scope.practiceID, patientID: patientID, clinicianID: clinicianID,
                            assessmentID: $0,
                            connection: connection)
                    }
                    try await self.insert(
                        appointment, reason: reason, staffNotes: staffNotes, assessmentID: basis?.assessmentID,
                        scope: scope, expectingAuditHead: auditHead, connection: connection)
                    if let basis {
                        try await connection.query(
                            """
                            UPDATE appointment SET assessment_id = \(basis.assessmentID),
                                triage_level = \(basis.triageLevel),
                                match_basis = \(try Self.json(basis))::jsonb
                            WHERE id = \(appointment.id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                            """, logger: self.logger)
                    }
                    if let idempotencyKey {
                        try await self.finishClaim(
                            idempotencyKey, operation: operation, resourceID: appointment.id.description, scope: scope,
                            connection: connection)
                    }
                    return (Versioned(appointment, version: 1), false)
                }
            }
        } catch let refusal as OverlapRefusal {
            throw try await conflict(for: refusal, scope: scope)
        }
    }

    /// The exclusion constraint named in `constraint` refused `appointment` (turned into a
    /// ``BookingConflict`` once its transaction has rolled back).
    struct OverlapRefusal: Error {
        let appointment: Appointment
        let constraint: String
        var isRoom: Bool { constraint == "appointment_room_overlap" }
    }

    /// The row, its audit entry and its `appointment.booked` event, in the caller's transaction.
    ///
    /// One statement writes them all onto the practice's audit head `expected` (locked by the
    /// booking's last read): the entry is hashed onto that head, and the head moves only if it
    /// is still that one (a compare-and-set, so a chain is never forked whatever the locks).
    /// Before the practice's first entry there is no head yet: the entry is then appended in
    /// a second statement, which starts the chain.
    private func insert(
        _ appointment: Appointment, reason: String?, staffNotes: String?, assessmentID: UUID?, scope: AccessScope,
        expectingAuditHead expected: (Int64, String)?, connection: PostgresConnection
    ) async throws {
        let now = clock.now()
        let decision = AppointmentDecision(previous: nil, current: appointment, eventKind: AppointmentEventKind.booked)
        let record = decision.audit(assessmentID: assessmentID)
        let events = decision.events(occurredAt: now)
        let chain = AuditChain.chain(ofPractice: scope.practiceID.description)
        let (previousSequence, previousHash) = expected ?? (-1, "")
        let entry = try await auditEntry(
            record, scope: scope, chain: chain, head: (previousSequence, previousHash), connection: connection)
        let signature = AuditChain.headSignature(
            chain: chain, sequence: entry.sequence, hash: entry.hash, key: auditKey)
        guard events.count == 1, var event = events.first else {
            throw StoreCorruption(column: "event_log", reason: "a booking has one event")
        }
        if event.actorID == nil { event.actorID = scope.actorID?.description }
        var statement = PostgresStatement()
        let row = [
            statement.bind(appointment.id.rawValue), statement.bind(scope.practiceID.rawValue),
            statement.bind(appointment.patientID), statement.bind(appointment.clinicianID),
            statement.bind(appointment.appointmentTypeID.rawValue), statement.bind(appointment.roomType?.rawValue),
            statement.bind(appointment.roomID?.rawValue),
            statement.bind(Timestamp.milliseconds(appointment.time.start)),
            statement.bind(Timestamp.milliseconds(appointment.time.end)),
            statement.bind(Timestamp.milliseconds(appointment.occupiedTime.end)),
            statement.bind(appointment.status.rawValue), statement.bind(appointment.status.holdsTime),
            statement.bind(reason), statement.bind(staffNotes), statement.bind(now),
        ]
        let link = statement.auditLink(
            entry, chain: chain, signature: signature, expecting: (previousSequence, previousHash))
        let (tables, from) = statement.event(event, channel: Self.eventChannel)
        var appended = false
        do {
            for try await (moved, _) in try await connection.prepared(
                statement.prepared(
                    """
                    WITH inserted AS (
                        INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id,
                                                 room_type, room_id, start_ms, end_ms, occupied_end_ms, status,
                                                 holds_time, reason, staff_notes, created_at)
                        VALUES (\(row.joined(separator: ", ")))
                    ), \(link), \(tables)
                    SELECT (SELECT count(*) FROM moved), head.seq FROM \(from)
                    """), logger: logger
            ).decode((Int64, Int64).self) { appended = moved == 1 }
        } catch let error as PSQLError where error.sqlState == "23P01" {
            throw OverlapRefusal(appointment: appointment, constraint: error.serverInfo?[.constraintName] ?? "")
        }
        if !appended { _ = try await appendAudit(record, scope: scope, connection: connection) }
    }

    // MARK: - Lifecycle

    /// Writes a lifecycle decision under optimistic concurrency (the row is locked, so two
    /// instances saving the same version take turns and the second is refused); the exclusion
    /// constraints guard reschedules as they guard bookings. Audited, with its event.
    public func saveAppointment(_ decision: AppointmentDecision, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<Appointment>
    {
        let next = decision.current
        do {
            return try await retryingTransientFailures {
                try await transaction(.practice(scope.practiceID)) { connection in
                    // Taken as a booking takes them, so a reschedule and a booking of the same
                    // clinician take turns instead of deadlocking on each other's rows.
                    if next.status.holdsTime {
                        try await self.lockBookingResources(
                            practiceID: scope.practiceID, clinicianID: next.clinicianID,
                            room: next.roomID == nil ? nil : next.roomType.map { ($0, next.occupiedTime) },
                            connection: connection)
                    }
                    let saved = try decision.saved(
                        over: try await self.appointment(
                            practiceID: scope.practiceID, id: next.id.rawValue, forUpdate: true,
                            connection: connection),
                        expectedVersion: expectedVersion)
                    // The moment of cancelling is kept (late cancellations cost a slot): written once,
                    // when the status becomes cancelled, with the same time as the event.
                    let now = self.clock.now()
                    do {
                        try await connection.query(
                            """
                            UPDATE appointment SET clinician_id = \(next.clinicianID),
                                room_id = \(next.roomID?.rawValue),
                                start_ms = \(Timestamp.milliseconds(next.time.start)),
                                    end_ms = \(Timestamp.milliseconds(next.time.end)),
                                occupied_end_ms = \(Timestamp.milliseconds(next.occupiedTime.end)),
                                    status = \(next.status.rawValue),
                                holds_time = \(next.status.holdsTime),
                                    checked_in_at_ms = \(next.checkedInAt.map(Timestamp.milliseconds)),
                                started_at_ms = \(next.startedAt.map(Timestamp.milliseconds)),
                                completed_at_ms = \(next.completedAt.map(Timestamp.milliseconds)),
                                    actual_minutes = \(next.actualMinutes),
                                cancellation_reason = \(next.cancellationReason),
                                cancelled_at_ms = CASE WHEN status = 'cancelled' THEN COALESCE(cancelled_at_ms,
                                    \(Timestamp.milliseconds(now)))
                                                       WHEN \(next.status.rawValue) = 'cancelled'
                                                           THEN \(Timestamp.milliseconds(now)) END,
                                version = version + 1
                            WHERE id = \(next.id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                            """, logger: logger)
                    } catch let error as PSQLError where error.sqlState == "23P01" {
                        throw OverlapRefusal(appointment: next, constraint: error.serverInfo?[.constraintName] ?? "")
                    }
                    try await self.appendAudit(
                        decision.audit(), events: decision.events(occurredAt: now), scope: scope, connection: connection
                    )
                    return saved
                }
            }
        } catch let refusal as OverlapRefusal {
            throw try await conflict(for: refusal, scope: scope)
        }
    }

    /// Builds the conflict error, naming the time of the appointment in the way (read after
    /// the refused transaction rolled back; `nil` if it has gone since).
    private func conflict(for refusal: OverlapRefusal, scope: AccessScope) async throws -> BookingConflict {
        let appointment = refusal.appointment
        let isRoom = refusal.isRoom && appointment.roomID != nil
        let blocking = try await transaction(.practice(scope.practiceID)) { connection -> TimeRange? in
            let rows = try await connection.query(
                """
                SELECT start_ms, end_ms FROM appointment
                WHERE practice_id = \(scope.practiceID.rawValue) AND holds_time AND id <> \(appointment.id.rawValue)
                  AND start_ms < \(Timestamp.milliseconds(appointment.occupiedTime.end))
                  AND start_ms > \(Timestamp.milliseconds(appointment.time.start) - 86_400_000)
                  AND occupied_end_ms > \(Timestamp.milliseconds(appointment.time.start))
                  AND \(unescaped: isRoom ? "room_id" : "clinician_id") =
                      \(isRoom ? appointment.roomID?.rawValue : appointment.clinicianID)
                ORDER BY start_ms LIMIT 1
                """, logger: logger)
            for try await (start, end) in rows.decode((Int64, Int64).self) {
                return TimeRange(start: Timestamp.date(milliseconds: start), end: Timestamp.date(milliseconds: end))
            }
            return nil
        }
        return BookingConflict(resource: isRoom ? "room" : "clinician", conflictingTime: blocking)
    }

    // MARK: - Reading

    public func appointment(scope: AccessScope, id: Identifier<Appointment>) async throws -> Versioned<Appointment> {
        try await transaction(.practice(scope.practiceID)) { connection in
            return try await self.appointment(
                practiceID: scope.practiceID, id: id.rawValue, connection: connection
            ).orNotFound("appointment")
        }
    }

    public func appointments(
        scope: AccessScope, overlapping range: TimeRange, clinicianID: UUID?,
        orRoomType roomType: RoomType?
    ) async throws -> [Versioned<Appointment>] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.appointments(
                practiceID: scope.practiceID, overlapping: range, clinicianID: clinicianID, orRoomType: roomType,
                connection: connection)
        }
    }

    /// Appointments overlapping `range`, in the caller's transaction. An appointment is shorter
    /// than a day (a CHECK of the table), so only those starting in the day before the range
    /// can reach into it: the lower bound keeps this an index range scan.
    func appointments(
        practiceID: PracticeID, overlapping range: TimeRange, clinicianID: UUID?, orRoomType roomType: RoomType?,
        connection: PostgresConnection
    ) async throws -> [Versioned<Appointment>] {
        let found: [Versioned<Appointment>] = try await connection.rows(
            """
            SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment
            WHERE practice_id = \(practiceID.rawValue) AND start_ms < \(Timestamp.milliseconds(range.end))
              AND start_ms > \(Timestamp.milliseconds(range.start) - 86_400_000)
                  AND occupied_end_ms > \(Timestamp.milliseconds(range.start))
              AND (\(clinicianID)::uuid IS NULL OR clinician_id = \(clinicianID) OR room_type = \(roomType?.rawValue))
            ORDER BY start_ms, id
            """, logger: logger
        ) { try AppointmentRows.appointment(from: $0) }
        return found
    }

    func appointment(practiceID: PracticeID, id: UUID, forUpdate: Bool = false, connection: PostgresConnection)
        async throws -> Versioned<Appointment>?
    {
        return try await connection.firstRow(
            """
            SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment WHERE id = \(id)
                AND practice_id = \(practiceID.rawValue)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger
        ) { try AppointmentRows.appointment(from: $0) }
    }
}

extension Optional {
    /// `map` for an asynchronous, throwing transform.
    func asyncMap<Mapped>(_ transform: (Wrapped) async throws -> Mapped) async rethrows -> Mapped? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
