import Foundation
import GRDB
import Scheduling
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Books in one write transaction (shared with the bookings that arrive at the same time,
    /// each in its own savepoint: see ``GroupCommit``): `reads` names, from the practice's profile and the
    /// requested type, the period of the clinician's appointments and the time window of the
    /// room type's appointments that the decision depends on; `decide` checks that picture and
    /// returns the appointment (it throws to refuse); the appointment is then inserted with
    /// its audit entry. SQLite has one writer, so nothing can book between the check and the
    /// insert; the overlap triggers still refuse any write that would double-book (a
    /// ``BookingConflict``), whoever makes it. Idempotent per key: a replay returns the first
    /// appointment without deciding again.
    ///
    /// With `assessmentID` (a booking made from an intake), the assessment must be the
    /// patient's; its level and the booked clinician's place and reasons in the intake's
    /// ranking are stored with the appointment (``BookingBasis``).
    public func bookAppointment(
        scope: AccessScope, patientID: UUID, clinicianID: UUID, appointmentTypeID: Identifier<AppointmentType>,
        reason: String?, staffNotes: String? = nil, assessmentID: UUID? = nil, idempotencyKey: IdempotencyKey?,
        reads: @escaping @Sendable (PracticeProfile, AppointmentType?) throws -> BookingReads,
        decide: @escaping @Sendable (SchedulingData) throws -> Appointment
    ) async throws -> (Versioned<Appointment>, replayed: Bool) {
        do {
            let booked = try await bookingCommits.write { db in
                try Self.requirePatient(db: db, scope: scope, patientID: patientID)
                let (id, replayed) = try self.idempotent(
                    db: db, scope: scope, key: idempotencyKey, operation: .appointmentBook
                ) {
                    let data = try self.bookingData(
                        db: db, practiceID: scope.practiceID, clinicianID: clinicianID,
                        appointmentTypeID: appointmentTypeID, reads: reads)
                    let basis = try assessmentID.map {
                        try Self.bookingBasis(
                            db: db, scope: scope, patientID: patientID, clinicianID: clinicianID, assessmentID: $0)
                    }
                    let appointment = try decide(data)
                    try self.insert(
                        appointment, reason: reason, staffNotes: staffNotes, basis: basis, scope: scope, db: db)
                    return appointment.id.description
                }
                let stored = try Self.appointment(db: db, practiceID: scope.practiceID, id: id).orNotFound(
                    "appointment")
                return (stored, replayed)
            }
            await anchorCommitted()
            return booked
        } catch let refusal as OverlapRefusal {
            throw try await conflict(for: refusal.appointment, message: refusal.message, scope: scope)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A reference outside the practice, as the schema's checks read it (404 naming it).
            throw ConstraintRefusal.error(for: error)
        }
    }

    /// The overlap triggers refused `appointment` (turned into a ``BookingConflict`` once the
    /// transaction has rolled back).
    struct OverlapRefusal: Error {
        let appointment: Appointment
        let message: String
    }

    /// The row and its audit entry, in the caller's transaction.
    private func insert(
        _ appointment: Appointment, reason: String?, staffNotes: String?, basis: BookingBasis?, scope: AccessScope,
        db: Database
    ) throws {
        try Self.insertRow(
            appointment, reason: reason, createdAt: clock.now(), version: 1, practiceID: scope.practiceID, db: db)
        if staffNotes != nil || basis != nil {
            try db.execute(
                sql:
                    """
                    UPDATE appointment SET staff_notes = ?, assessment_id = ?, triage_level = ?, match_basis = ? \
                    WHERE id = ?
                    """,
                arguments: [
                    staffNotes, basis.map { Self.text($0.assessmentID) }, basis?.triageLevel,
                    try basis.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) },
                    appointment.id.description,
                ])
        }
        let decision = AppointmentDecision(previous: nil, current: appointment, eventKind: AppointmentEventKind.booked)
        try appendAudit(decision.audit(assessmentID: basis?.assessmentID), scope: scope, db: db)
        try appendEvents(decision.events(occurredAt: clock.now()), scope: scope, db: db)
    }

    /// An appointment's row with its whole lifecycle (bookings and restore); the overlap
    /// triggers' refusal becomes an ``OverlapRefusal``.
    static func insertRow(
        _ appointment: Appointment, reason: String?, createdAt: Date, version: Int, practiceID: PracticeID,
        cancelledAt: Date? = nil, db: Database
    ) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, room_type,
                    room_id, start_ms,
                                         end_ms, occupied_end_ms, status, holds_time, checked_in_at_ms, started_at_ms,
                                             completed_at_ms,
                                         actual_minutes, cancellation_reason, reason, created_at, version,
                                             cancelled_at_ms, patient_species)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    (SELECT species FROM patient WHERE id = ?3))
                """)
        do {
            try statement.execute(arguments: [
                appointment.id.description, practiceID.description, text(appointment.patientID),
                text(appointment.clinicianID), appointment.appointmentTypeID.description,
                appointment.roomType?.rawValue,
                appointment.roomID?.description, Timestamp.milliseconds(appointment.time.start),
                Timestamp.milliseconds(appointment.time.end), Timestamp.milliseconds(appointment.occupiedTime.end),
                appointment.status.rawValue, appointment.status.holdsTime,
                appointment.checkedInAt.map(Timestamp.milliseconds),
                appointment.startedAt.map(Timestamp.milliseconds), appointment.completedAt.map(Timestamp.milliseconds),
                appointment.actualMinutes, appointment.cancellationReason, reason, Timestamp.string(createdAt), version,
                appointment.status == .cancelled ? cancelledAt.map(Timestamp.milliseconds) : nil,
            ])
        } catch let error as DatabaseError where error.message?.contains("appointment overlap") == true {
            throw OverlapRefusal(appointment: appointment, message: error.message ?? "")
        }
    }

    /// Writes a lifecycle decision (reschedule, check-in, start, complete, cancel, no-show)
    /// under optimistic concurrency; the overlap triggers guard reschedules too. Audited.
    public func saveAppointment(_ decision: AppointmentDecision, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<Appointment>
    {
        let next = decision.current
        do {
            return try await write { db in
                let saved = try decision.saved(
                    over: try Self.appointment(db: db, practiceID: scope.practiceID, id: next.id.description),
                    expectedVersion: expectedVersion)
                // The moment of cancelling is kept (late cancellations cost a slot); it is written
                // once, when the status becomes cancelled, with the same time as the event.
                let now = self.clock.now()
                // The overlap triggers' refusal is caught here, inside the transaction: past it,
                // ``write`` would turn it into a generic constraint conflict.
                do {
                    try db.execute(
                        sql: """
                            UPDATE appointment SET clinician_id = ?, room_id = ?, start_ms = ?, end_ms = ?,
                                occupied_end_ms = ?, status = ?, holds_time = ?,
                                checked_in_at_ms = ?, started_at_ms = ?, completed_at_ms = ?, actual_minutes = ?,
                                    cancellation_reason = ?,
                                cancelled_at_ms = CASE WHEN status = 'cancelled' THEN COALESCE(cancelled_at_ms,
                                    ?13) WHEN ?6 = 'cancelled' THEN ?13 END,
                                version = version + 1
                            WHERE id = ? AND practice_id = ?
                            """,
                        arguments: [
                            Self.text(next.clinicianID), next.roomID?.description,
                            Timestamp.milliseconds(next.time.start),
                            Timestamp.milliseconds(next.time.end), Timestamp.milliseconds(next.occupiedTime.end),
                            next.status.rawValue,
                            next.status.holdsTime, next.checkedInAt.map(Timestamp.milliseconds),
                            next.startedAt.map(Timestamp.milliseconds),
                            next.completedAt.map(Timestamp.milliseconds), next.actualMinutes, next.cancellationReason,
                            Timestamp.milliseconds(now), next.id.description, scope.practiceID.description,
                        ])
                } catch let error as DatabaseError where error.message?.contains("appointment overlap") == true {
                    throw OverlapRefusal(appointment: next, message: error.message ?? "")
                }
                try self.appendAudit(decision.audit(), scope: scope, db: db)
                try self.appendEvents(decision.events(occurredAt: now), scope: scope, db: db)
                return saved
            }
        } catch let refusal as OverlapRefusal {
            throw try await conflict(for: refusal.appointment, message: refusal.message, scope: scope)
        }
    }

    // MARK: - Reading

    /// One appointment.
    public func appointment(scope: AccessScope, id: Identifier<Appointment>) async throws -> Versioned<Appointment> {
        try await writer.read { db in
            guard let appointment = try Self.appointment(db: db, practiceID: scope.practiceID, id: id.description)
            else {
                throw DomainError.notFound(resource: "appointment")
            }
            return appointment
        }
    }

    /// Appointments overlapping `range` (optionally of one clinician, plus — with `orRoomType` —
    /// every appointment using that room type, which room capacity depends on), by start.
    public func appointments(
        scope: AccessScope, overlapping range: TimeRange, clinicianID: UUID? = nil,
        orRoomType roomType: RoomType? = nil
    ) async throws -> [Versioned<Appointment>] {
        try await writer.read { db in
            try Self.appointments(
                db: db, practiceID: scope.practiceID, overlapping: range, clinicianID: clinicianID, orRoomType: roomType
            )
        }
    }

    /// Completed appointments with their recorded duration (the duration model's history).
    public func completedAppointments(scope: AccessScope) async throws -> [(Appointment, species: String)] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(AppointmentRows.selectList(prefix: "a.")),
                        p.species FROM appointment a JOIN patient p ON p.id = a.patient_id
                    WHERE a.practice_id = ? AND a.status = 'completed' AND a.actual_minutes IS NOT NULL
                        ORDER BY a.start_ms
                    """, arguments: [scope.practiceID.description]
            ).map { (try AppointmentRows.appointment(from: $0).value, try $0.read(at: AppointmentRows.columns.count)) }
        }
    }

    static func appointments(
        db: Database, practiceID: PracticeID, overlapping range: TimeRange, clinicianID: UUID?,
        orRoomType roomType: RoomType? = nil
    ) throws -> [Versioned<Appointment>] {
        // An appointment is shorter than a day (a CHECK of the table), so only those starting
        // in the day before the range can reach into it: the lower bound keeps this an index
        // range scan however long the practice's history grows.
        // For one clinician alone, their (clinician_id, start_ms) index is the narrowest; the
        // unary `+` keeps SQLite from choosing the practice-wide one instead.
        let practiceColumn = clinicianID != nil && roomType == nil ? "+practice_id" : "practice_id"
        var sql =
            """
            SELECT \(AppointmentRows.selectList()) FROM appointment
            WHERE \(practiceColumn) = ? AND start_ms < ? AND start_ms > ? AND occupied_end_ms > ?
            """
        var arguments: StatementArguments = [
            practiceID.description, Timestamp.milliseconds(range.end),
            Timestamp.milliseconds(range.start) - 86_400_000, Timestamp.milliseconds(range.start),
        ]
        switch (clinicianID, roomType) {
        case (let clinician?, let room?):
            sql += " AND (clinician_id = ? OR room_type = ?)"
            arguments += [text(clinician), room.rawValue]
        case (let clinician?, nil):
            sql += " AND clinician_id = ?"
            arguments += [text(clinician)]
        default: break
        }
        return try Row.fetchAll(db.cachedStatement(sql: sql + " ORDER BY start_ms"), arguments: arguments).map(
            AppointmentRows.appointment(from:))
    }

    static func appointment(db: Database, practiceID: PracticeID, id: String) throws -> Versioned<Appointment>? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(AppointmentRows.selectList()) FROM appointment WHERE id = ? AND practice_id = ?")
        return try Row.fetchOne(statement, arguments: [id, practiceID.description]).map(
            AppointmentRows.appointment(from:))
    }

    /// Builds the conflict error, naming the time of the appointment in the way.
    private func conflict(for appointment: Appointment, message: String, scope: AccessScope) async throws
        -> BookingConflict
    {
        let isRoom = message.contains("room")
        let blocking = try await writer.read { db -> TimeRange? in
            var sql = """
                SELECT start_ms,
                    end_ms FROM appointment WHERE practice_id = ? AND holds_time = 1 AND id <> ? AND start_ms < ?
                    AND start_ms > ?
                  AND occupied_end_ms > ?
                """
            var arguments: StatementArguments = [
                scope.practiceID.description, appointment.id.description,
                Timestamp.milliseconds(appointment.occupiedTime.end),
                Timestamp.milliseconds(appointment.time.start) - 86_400_000,
                Timestamp.milliseconds(appointment.time.start),
            ]
            if isRoom, let room = appointment.roomID {
                sql += " AND room_id = ?"
                arguments += [room.description]
            } else {
                sql += " AND clinician_id = ?"
                arguments += [Self.text(appointment.clinicianID)]
            }
            return try Row.fetchOne(db, sql: sql + " LIMIT 1", arguments: arguments).flatMap {
                TimeRange(
                    start: Timestamp.date(milliseconds: try $0.read("start_ms")),
                    end: Timestamp.date(milliseconds: try $0.read("end_ms"))
                )
            }
        }
        return BookingConflict(resource: isRoom ? "room" : "clinician", conflictingTime: blocking)
    }
}
