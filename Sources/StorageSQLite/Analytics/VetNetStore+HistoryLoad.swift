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
            let references = try self.historyReferences(practiceID: scope.practiceID, db: db)
            var done = 0
            func step() {
                done += 1
                if let progress, done % 5_000 == 0 { progress(done, total) }
            }
            let insertAppointment = try db.makeStatement(
                sql: """
                    INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, room_type,
                        room_id, start_ms, end_ms, occupied_end_ms, status, holds_time, checked_in_at_ms, started_at_ms,
                        completed_at_ms, actual_minutes, cancellation_reason, reason, created_at, version,
                        cancelled_at_ms, patient_species)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, 1, ?, ?)
                    """)
            for record in appointments {
                let row = try references.appointmentRow(record, now: now)
                do {
                    try insertAppointment.execute(arguments: [
                        Self.text(row.id), practice, Self.text(row.patientID), Self.text(row.clinicianID),
                        Self.text(row.appointmentTypeID), row.roomType, row.roomID.map(Self.text), row.startMs,
                        row.endMs, row.occupiedEndMs, row.status, row.holdsTime, row.checkedInAtMs, row.startedAtMs,
                        row.completedAtMs, row.actualMinutes, row.cancellationReason, row.createdAt, row.cancelledAtMs,
                        row.patientSpecies,
                    ])
                } catch let error as DatabaseError where error.message?.contains("appointment overlap") == true {
                    throw BookingConflict(
                        resource: error.message?.contains("room") == true ? "room" : "clinician",
                        conflictingTime: record.appointment.time)
                }
                step()
            }
            let insertArrival = try db.makeStatement(
                sql: """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level,
                        first_seen_at_ms) VALUES (?, ?, ?, ?, ?)
                    """)
            for arrival in arrivals {
                let row = try references.arrivalRow(arrival)
                try insertArrival.execute(arguments: [
                    practice, Self.text(row.patientID), row.arrivalAtMs, row.level, row.firstSeenAtMs,
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
                let row = try references.weightRow(weight, now: now)
                try insertWeight.execute(arguments: [
                    Self.text(row.id), practice, Self.text(row.patientID), row.value, row.unit, row.grams,
                    Timestamp.string(row.measuredAt), stamp,
                ])
                step()
            }
            progress?(total, total)
            let summary = HistoryLoadSummary(
                appointments: appointments.count, arrivals: arrivals.count, weights: weights.count)
            try self.appendAudit(summary.auditRecord(practiceID: scope.practiceID), scope: scope, db: db)
            return summary
        }
    }

    /// What a generated past may name in the practice: its clinicians (retired ones too),
    /// appointment types, rooms, and patients with the facts a weighing is checked against.
    private func historyReferences(practiceID: PracticeID, db: Database) throws -> HistoryReferences {
        var references = HistoryReferences(practiceID: practiceID)
        let configuration = try schedulingConfiguration(db: db, practiceID: practiceID)
        references.clinicians = Set(
            try Self.clinicians(db: db, practiceID: practiceID, includingInactive: true).map(\.clinician.id.rawValue))
        references.appointmentTypes = Set(configuration.types.map(\.id.rawValue))
        references.rooms = Set(configuration.rooms.map(\.id.rawValue))
        for row in try Row.fetchAll(
            db, sql: "SELECT id, species, birth_date FROM patient WHERE practice_id = ?",
            arguments: [practiceID.description])
        {
            guard let id = UUIDText.parse(try row.read(at: 0)) else {
                throw StoreCorruption(column: "patient.id", reason: "not a UUID")
            }
            references.patients[id] = HistoryReferences.Patient(
                species: try StoreCorruption.known(Species(rawValue: try row.read(at: 1)), column: "patient.species"),
                birthDate: (try row.read(at: 2) as String?).flatMap { RecordCalendar.date(fromISODay: $0) })
        }
        return references
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
            ).map { row in
                (
                    try StoreCorruption.known(UUIDText.parse(try row.read(at: 0)), column: "patient.id"),
                    try StoreCorruption.known(Species(rawValue: try row.read(at: 1)), column: "patient.species"),
                    (try row.read(at: 2) as String?).flatMap { RecordCalendar.date(fromISODay: $0) }
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
