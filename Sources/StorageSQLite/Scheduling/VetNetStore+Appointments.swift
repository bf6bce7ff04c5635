import Foundation
import GRDB
import Scheduling
import SharedKernel

/// The store refused a booking because it overlaps another one of the same clinician or room.
public struct BookingConflict: Error, Sendable {
    /// The clinician or room that is taken.
    public let resource: String
    /// Time of the appointment in the way (never its patient).
    public let conflictingTime: TimeRange?
}

extension VetNetStore {
    // MARK: - Writing

    /// Inserts a booked appointment. The database's triggers refuse any overlap for the
    /// clinician or room (with buffers), so two racing bookings cannot both succeed; a refusal
    /// is a ``BookingConflict``. Idempotent per key; audited.
    public func insertAppointment(_ appointment: Appointment, reason: String?, scope: AccessScope,
                                  idempotencyKey: IdempotencyKey?) async throws -> (Versioned<Appointment>, replayed: Bool) {
        do {
            return try await writer.write { db in
                try Self.requirePatient(db: db, scope: scope, patientID: appointment.patientID)
                let (id, replayed) = try Self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: "appointment.book") {
                    try db.execute(sql: """
                        INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, room_type, room_id, start_ms,
                                                 end_ms, occupied_end_ms, status, holds_time, reason, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [appointment.id.description, scope.practiceID.description, Self.text(appointment.patientID),
                                         Self.text(appointment.clinicianID), appointment.appointmentTypeID.description, appointment.roomType?.rawValue,
                                         appointment.roomID?.description, Timestamp.milliseconds(appointment.time.start),
                                         Timestamp.milliseconds(appointment.time.end), Timestamp.milliseconds(appointment.occupiedTime.end),
                                         appointment.status.rawValue, appointment.status.holdsTime, reason, Timestamp.string(self.clock.now())])
                    try self.appendAudit(AuditRecord(action: "appointment.book", resourceType: "appointment", resourceID: appointment.id.description,
                                                     detail: "patient=\(Self.text(appointment.patientID))"), scope: scope, db: db)
                    return appointment.id.description
                }
                guard let stored = try Self.appointment(db: db, practiceID: scope.practiceID, id: id) else { throw DomainError.notFound(resource: "appointment") }
                return (stored, replayed)
            }
        } catch let error as DatabaseError where error.message?.contains("appointment overlap") == true {
            throw try await conflict(for: appointment, message: error.message ?? "", scope: scope)
        }
    }

    /// Writes a lifecycle decision (reschedule, check-in, start, complete, cancel, no-show)
    /// under optimistic concurrency; the overlap triggers guard reschedules too. Audited.
    public func saveAppointment(_ decision: AppointmentDecision, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<Appointment> {
        let next = decision.current
        do {
            return try await writer.write { db in
                guard let current = try Self.appointment(db: db, practiceID: scope.practiceID, id: next.id.description) else {
                    throw DomainError.notFound(resource: "appointment")
                }
                if let expectedVersion, expectedVersion != current.version { throw DomainError.versionMismatch(current: current.version) }
                try db.execute(sql: """
                    UPDATE appointment SET clinician_id = ?, room_id = ?, start_ms = ?, end_ms = ?, occupied_end_ms = ?, status = ?, holds_time = ?,
                        checked_in_at_ms = ?, started_at_ms = ?, completed_at_ms = ?, actual_minutes = ?, cancellation_reason = ?, version = version + 1
                    WHERE id = ? AND practice_id = ?
                    """, arguments: [Self.text(next.clinicianID), next.roomID?.description, Timestamp.milliseconds(next.time.start),
                                     Timestamp.milliseconds(next.time.end), Timestamp.milliseconds(next.occupiedTime.end), next.status.rawValue,
                                     next.status.holdsTime, next.checkedInAt.map(Timestamp.milliseconds), next.startedAt.map(Timestamp.milliseconds),
                                     next.completedAt.map(Timestamp.milliseconds), next.actualMinutes, next.cancellationReason,
                                     next.id.description, scope.practiceID.description])
                try self.appendAudit(AuditRecord(action: decision.eventKind, resourceType: "appointment", resourceID: next.id.description),
                                     scope: scope, db: db)
                return Versioned(next, version: current.version + 1)
            }
        } catch let error as DatabaseError where error.message?.contains("appointment overlap") == true {
            throw try await conflict(for: next, message: error.message ?? "", scope: scope)
        }
    }

    // MARK: - Reading

    /// One appointment.
    public func appointment(scope: AccessScope, id: Identifier<Appointment>) async throws -> Versioned<Appointment> {
        try await writer.read { db in
            guard let appointment = try Self.appointment(db: db, practiceID: scope.practiceID, id: id.description) else {
                throw DomainError.notFound(resource: "appointment")
            }
            return appointment
        }
    }

    /// Appointments overlapping `range` (optionally of one clinician, plus — with `orRoomType` —
    /// every appointment using that room type, which room capacity depends on), by start.
    public func appointments(scope: AccessScope, overlapping range: TimeRange, clinicianID: UUID? = nil,
                             orRoomType roomType: RoomType? = nil) async throws -> [Versioned<Appointment>] {
        try await writer.read { db in
            try Self.appointments(db: db, practiceID: scope.practiceID, overlapping: range, clinicianID: clinicianID, orRoomType: roomType)
        }
    }

    /// Completed appointments with their recorded duration (the duration model's history).
    public func completedAppointments(scope: AccessScope) async throws -> [(Appointment, species: String)] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT a.*, p.species FROM appointment a JOIN patient p ON p.id = a.patient_id
                WHERE a.practice_id = ? AND a.status = 'completed' AND a.actual_minutes IS NOT NULL ORDER BY a.start_ms
                """, arguments: [scope.practiceID.description]).map { (Self.appointment(from: $0).value, $0["species"]) }
        }
    }

    static func appointments(db: Database, practiceID: PracticeID, overlapping range: TimeRange, clinicianID: UUID?,
                             orRoomType roomType: RoomType? = nil) throws -> [Versioned<Appointment>] {
        var sql = "SELECT * FROM appointment WHERE practice_id = ? AND start_ms < ? AND occupied_end_ms > ?"
        var arguments: StatementArguments = [practiceID.description, Timestamp.milliseconds(range.end), Timestamp.milliseconds(range.start)]
        switch (clinicianID, roomType) {
        case (let clinician?, let room?): sql += " AND (clinician_id = ? OR room_type = ?)"; arguments += [text(clinician), room.rawValue]
        case (let clinician?, nil): sql += " AND clinician_id = ?"; arguments += [text(clinician)]
        default: break
        }
        return try Row.fetchAll(db, sql: sql + " ORDER BY start_ms", arguments: arguments).map(appointment(from:))
    }

    static func appointment(db: Database, practiceID: PracticeID, id: String) throws -> Versioned<Appointment>? {
        try Row.fetchOne(db, sql: "SELECT * FROM appointment WHERE id = ? AND practice_id = ?", arguments: [id, practiceID.description]).map(appointment(from:))
    }

    static func appointment(from row: Row) -> Versioned<Appointment> {
        let start = Timestamp.date(milliseconds: row["start_ms"])
        let end = Timestamp.date(milliseconds: row["end_ms"])
        let occupiedEnd: Int64 = row["occupied_end_ms"]
        let endMs: Int64 = row["end_ms"]
        let appointment = Appointment(
            id: Identifier(uuidString: row["id"])!, practiceID: PracticeID(uuidString: row["practice_id"])!,
            patientID: UUID(uuidString: row["patient_id"])!, clinicianID: UUID(uuidString: row["clinician_id"])!,
            appointmentTypeID: Identifier(uuidString: row["appointment_type_id"])!, roomType: (row["room_type"] as String?).flatMap(RoomType.init(rawValue:)),
            roomID: (row["room_id"] as String?).flatMap(Identifier.init(uuidString:)), time: TimeRange(start: start, end: end)!,
            bufferAfterMinutes: Int((occupiedEnd - endMs) / 60_000), status: AppointmentStatus(rawValue: row["status"]) ?? .booked,
            checkedInAt: (row["checked_in_at_ms"] as Int64?).map(Timestamp.date(milliseconds:)),
            startedAt: (row["started_at_ms"] as Int64?).map(Timestamp.date(milliseconds:)),
            completedAt: (row["completed_at_ms"] as Int64?).map(Timestamp.date(milliseconds:)),
            actualMinutes: row["actual_minutes"], cancellationReason: row["cancellation_reason"])
        return Versioned(appointment, version: row["version"])
    }

    /// Builds the conflict error, naming the time of the appointment in the way.
    private func conflict(for appointment: Appointment, message: String, scope: AccessScope) async throws -> BookingConflict {
        let isRoom = message.contains("room")
        let blocking = try await writer.read { db -> TimeRange? in
            var sql = "SELECT start_ms, end_ms FROM appointment WHERE practice_id = ? AND holds_time = 1 AND id <> ? AND start_ms < ? AND occupied_end_ms > ?"
            var arguments: StatementArguments = [scope.practiceID.description, appointment.id.description,
                                                 Timestamp.milliseconds(appointment.occupiedTime.end), Timestamp.milliseconds(appointment.time.start)]
            if isRoom, let room = appointment.roomID { sql += " AND room_id = ?"; arguments += [room.description] } else {
                sql += " AND clinician_id = ?"; arguments += [Self.text(appointment.clinicianID)]
            }
            return try Row.fetchOne(db, sql: sql + " LIMIT 1", arguments: arguments).flatMap {
                TimeRange(start: Timestamp.date(milliseconds: $0["start_ms"]), end: Timestamp.date(milliseconds: $0["end_ms"]))
            }
        }
        return BookingConflict(resource: isRoom ? "room" : "clinician", conflictingTime: blocking)
    }
}
