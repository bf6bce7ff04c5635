import Analytics
import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import Triage

extension VetNetStore {
    /// Writes a generated past (appointments with their booking and cancellation times,
    /// triage arrivals with first-seen times, weighings) into the scope's practice in one
    /// transaction, for demonstration and performance data sets: prepared statements, the
    /// overlap triggers still checking every appointment, and one `practice.history_load`
    /// audit entry instead of one per row. Like the other bulk loads it writes no events:
    /// it builds a past before any device follows the practice.
    ///
    /// Every patient, clinician, type and room named must be the practice's own; weighings
    /// are validated as the record validates them. Nothing is written unless everything is.
    @discardableResult
    public func bulkLoadHistory(
        appointments: [AppointmentRecord], arrivals: [TriageArrival], weights: [WeightMeasurement],
        scope: AccessScope, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> HistoryLoadSummary {
        let practice = scope.practiceID.description
        let now = clock.now()
        let stamp = Timestamp.string(now)
        let total = appointments.count + arrivals.count + weights.count
        return try await write { db in
            let configuration = try self.schedulingConfiguration(db: db, practiceID: scope.practiceID)
            let clinicians = Set(
                try Self.clinicians(db: db, practiceID: scope.practiceID, includingInactive: true).map(
                    \.clinician.id.rawValue))
            let types = Set(configuration.types.map(\.id))
            let rooms = Set(configuration.rooms.map(\.id))
            var patients: [String: (species: Species, birthDate: Date?)] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT id, species, birth_date FROM patient WHERE practice_id = ?", arguments: [practice])
            {
                let birth = (row[2] as String?).flatMap { RecordCalendar.date(fromISODay: $0) }
                patients[row[0]] = (Species(rawValue: row[1]) ?? .other, birth)
            }
            func requirePatient(_ id: UUID) throws -> (species: Species, birthDate: Date?) {
                guard let patient = patients[Self.text(id)] else { throw DomainError.notFound(resource: "patient") }
                return patient
            }

            var done = 0
            func step() {
                done += 1
                if let progress, done % 5_000 == 0 { progress(done, total) }
            }
            let insertAppointment = try db.makeStatement(
                sql: """
                    INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, room_type,
                        room_id, start_ms,
                                             end_ms, occupied_end_ms, status, holds_time, checked_in_at_ms,
                                                 started_at_ms, completed_at_ms,
                                             actual_minutes, cancellation_reason, reason, created_at, version,
                                                 cancelled_at_ms, patient_species)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 1, ?, ?)
                    """)
            for record in appointments {
                let appointment = record.appointment
                guard appointment.practiceID == scope.practiceID else {
                    throw DomainError.notFound(resource: "practice")
                }
                let patient = try requirePatient(appointment.patientID)
                guard clinicians.contains(appointment.clinicianID) else {
                    throw DomainError.notFound(resource: "clinician")
                }
                guard types.contains(appointment.appointmentTypeID) else {
                    throw DomainError.notFound(resource: "appointment type")
                }
                if let room = appointment.roomID, !rooms.contains(room) { throw DomainError.notFound(resource: "room") }
                let cancelledAt = appointment.status == .cancelled ? record.cancelledAt : nil
                do {
                    try insertAppointment.execute(arguments: [
                        appointment.id.description, practice, Self.text(appointment.patientID),
                        Self.text(appointment.clinicianID),
                        appointment.appointmentTypeID.description, appointment.roomType?.rawValue,
                        appointment.roomID?.description,
                        Timestamp.milliseconds(appointment.time.start), Timestamp.milliseconds(appointment.time.end),
                        Timestamp.milliseconds(appointment.occupiedTime.end), appointment.status.rawValue,
                        appointment.status.holdsTime,
                        appointment.checkedInAt.map(Timestamp.milliseconds),
                        appointment.startedAt.map(Timestamp.milliseconds),
                        appointment.completedAt.map(Timestamp.milliseconds), appointment.actualMinutes,
                        appointment.cancellationReason,
                        Timestamp.string(record.bookedAt ?? now), cancelledAt.map(Timestamp.milliseconds),
                        patient.species.rawValue,
                    ])
                } catch let error as DatabaseError where error.message?.contains("appointment overlap") == true {
                    throw BookingConflict(
                        resource: error.message?.contains("room") == true ? "room" : "clinician",
                        conflictingTime: appointment.time)
                }
                step()
            }

            let insertArrival = try db.makeStatement(
                sql: """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level,
                        first_seen_at_ms) VALUES (?, ?, ?, ?, ?)
                    """)
            for arrival in arrivals {
                _ = try requirePatient(arrival.patientID)
                if let seen = arrival.firstSeenAt, seen < arrival.arrival {
                    throw ValidationError(field: "firstSeenAt", message: "must not be before the arrival")
                }
                try insertArrival.execute(arguments: [
                    practice, Self.text(arrival.patientID), Timestamp.milliseconds(arrival.arrival),
                    arrival.level.rawValue, arrival.firstSeenAt.map(Timestamp.milliseconds),
                ])
                step()
            }

            let insertWeight = try db.makeStatement(
                sql: """
                    INSERT INTO weight (id, practice_id, patient_id, value, unit, grams, measured_at, recorded_by,
                        created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)
                    """)
            for weight in weights {
                let patient = try requirePatient(weight.patientID.rawValue)
                try weight.validate(species: patient.species, birthDate: patient.birthDate, now: now)
                try insertWeight.execute(arguments: [
                    weight.id.description, practice, Self.text(weight.patientID.rawValue), "\(weight.value)",
                    weight.unit.rawValue, weight.roundedGrams, Timestamp.string(weight.measuredAt), stamp,
                ])
                step()
            }
            progress?(total, total)
            try self.appendAudit(
                AuditRecord(
                    action: .practiceHistoryLoad, resourceType: .practice, resourceID: practice,
                    detail: "appointments=\(appointments.count) arrivals=\(arrivals.count) weights=\(weights.count)"),
                scope: scope, db: db)
            return HistoryLoadSummary(
                appointments: appointments.count, arrivals: arrivals.count, weights: weights.count)
        }
    }

    /// The practice's active patients with their species and birth date, by id: whom a
    /// generated history may book.
    public func bookablePatients(scope: AccessScope) async throws -> [(id: UUID, species: Species, birthDate: Date?)] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql:
                    """
                    SELECT id, species, birth_date FROM patient WHERE practice_id = ? AND status = 'active' ORDER BY id
                    """,
                arguments: [scope.practiceID.description]
            ).compactMap { row in
                guard let id = UUIDText.parse(row[0]) else { return nil }
                return (
                    id, Species(rawValue: row[1]) ?? .other,
                    (row[2] as String?).flatMap { RecordCalendar.date(fromISODay: $0) }
                )
            }
        }
    }

    /// Whether the practice has appointments or triage arrivals starting in `range`.
    public func hasActivity(scope: AccessScope, in range: DateInterval) async throws -> Bool {
        try await writer.read { db in
            let arguments: StatementArguments = [
                scope.practiceID.description, Timestamp.milliseconds(range.start), Timestamp.milliseconds(range.end),
            ]
            return try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM appointment WHERE practice_id = ?1 AND start_ms >= ?2
                        AND start_ms < ?3)
                        OR EXISTS (SELECT 1 FROM triage_arrival WHERE practice_id = ?1 AND arrival_at_ms >= ?2
                            AND arrival_at_ms < ?3)
                    """, arguments: arguments) ?? false
        }
    }
}
