import Analytics
import Foundation
import PatientRecords
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts
import Triage

extension PostgresStore {
    /// Rows sent per statement of a bulk load: large enough that round trips do not dominate,
    /// small enough that one statement's JSON stays a few megabytes.
    static let historyBatch = 2_000

    /// Writes a generated past (appointments with their booking and cancellation times, triage
    /// arrivals, weighings) into the scope's practice in one transaction: rows sent in batches
    /// as JSON, the exclusion constraints still checking every appointment, and one
    /// `practice.history_load` audit entry. Like the other bulk loads it writes no events.
    ///
    /// Every patient, clinician, type and room named must be the practice's own; weighings are
    /// validated as the record validates them. Arrivals and weighings need their tables, which
    /// the triage and medical-record migrations create: asked to load them into a database
    /// without one, the load is refused before anything is written.
    @discardableResult
    public func bulkLoadHistory(
        appointments: [AppointmentRecord], arrivals: [TriageArrival], weights: [WeightMeasurement],
        scope: AccessScope, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> HistoryLoadSummary {
        let practiceID = scope.practiceID
        let now = clock.now()
        let total = appointments.count + arrivals.count + weights.count
        return try await transaction(.practice(practiceID)) { connection in
            if !arrivals.isEmpty, try await !self.arrivalsExist(connection) {
                throw ValidationError(
                    field: "arrivals", message: "cannot be stored: this database holds no triage arrivals yet")
            }
            if !weights.isEmpty, try await !self.tableExists("weight", connection) {
                throw ValidationError(
                    field: "weights", message: "cannot be stored: this database holds no medical records yet")
            }
            let references = try await self.historyReferences(practiceID: practiceID, connection: connection)
            var done = 0
            var rows: [HistoryAppointmentRow] = []
            for record in appointments {
                rows.append(try references.appointmentRow(record, now: now))
                if rows.count == Self.historyBatch {
                    try await self.insertHistory(rows, practiceID: practiceID, connection: connection)
                    done += rows.count
                    rows.removeAll(keepingCapacity: true)
                    progress?(done, total)
                }
            }
            try await self.insertHistory(rows, practiceID: practiceID, connection: connection)
            done += rows.count
            // The tables are the triage and record migrations': the JSON takes whatever column
            // types they gave them.
            let arrivalRows = try arrivals.map(references.arrivalRow)
            for batch in stride(from: 0, to: arrivalRows.count, by: Self.historyBatch) {
                let slice = Array(arrivalRows[batch..<min(batch + Self.historyBatch, arrivalRows.count)])
                try await connection.query(
                    """
                    INSERT INTO triage_arrival (practice_id, patient_id, arrival_at_ms, level, first_seen_at_ms)
                    SELECT practice_id, patient_id, arrival_at_ms, level, first_seen_at_ms
                    FROM jsonb_populate_recordset(NULL::triage_arrival, \(try Self.json(slice))::jsonb)
                    """, logger: logger)
                done += slice.count
                progress?(done, total)
            }
            let weightRows = try weights.map { try references.weightRow($0, now: now) }
            for batch in stride(from: 0, to: weightRows.count, by: Self.historyBatch) {
                let slice = Array(weightRows[batch..<min(batch + Self.historyBatch, weightRows.count)])
                try await connection.query(
                    """
                    INSERT INTO weight (id, practice_id, patient_id, value, unit, grams, measured_at_ms, created_at_ms)
                    SELECT id, practice_id, patient_id, value, unit, grams, measured_at_ms, created_at_ms
                    FROM jsonb_populate_recordset(NULL::weight, \(try Self.json(slice))::jsonb)
                    """, logger: logger)
                done += slice.count
                progress?(done, total)
            }
            progress?(total, total)
            let summary = HistoryLoadSummary(
                appointments: appointments.count, arrivals: arrivals.count, weights: weights.count)
            try await self.appendAudit(
                summary.auditRecord(practiceID: practiceID), scope: scope, connection: connection)
            return summary
        }
    }

    /// What a generated past may name in the practice: its clinicians (retired ones too),
    /// appointment types, rooms, and patients with the facts a weighing is checked against.
    private func historyReferences(practiceID: PracticeID, connection: PostgresConnection) async throws
        -> HistoryReferences
    {
        var references = HistoryReferences(practiceID: practiceID)
        let practice = practiceID.rawValue
        for try await id in try await connection.query(
            "SELECT id FROM clinician WHERE practice_id = \(practice)", logger: logger
        ).decode(UUID.self) { references.clinicians.insert(id) }
        for try await id in try await connection.query(
            "SELECT id FROM appointment_type WHERE practice_id = \(practice)", logger: logger
        ).decode(UUID.self) { references.appointmentTypes.insert(id) }
        for try await id in try await connection.query(
            "SELECT id FROM room WHERE practice_id = \(practice)", logger: logger
        ).decode(UUID.self) { references.rooms.insert(id) }
        for try await (id, species, birth) in try await connection.query(
            "SELECT id, species, to_char(birth_date, 'YYYY-MM-DD') FROM patient WHERE practice_id = \(practice)",
            logger: logger
        ).decode((UUID, String, String?).self) {
            references.patients[id] = HistoryReferences.Patient(
                species: try StoreCorruption.known(Species(rawValue: species), column: "patient.species"),
                birthDate: birth.flatMap { RecordCalendar.date(fromISODay: $0) })
        }
        return references
    }

    /// One batch of appointments; an overlap refused by the exclusion constraints is a
    /// ``BookingConflict`` naming the clinician or room.
    private func insertHistory(_ rows: [HistoryAppointmentRow], practiceID: PracticeID, connection: PostgresConnection)
        async throws
    {
        guard !rows.isEmpty else { return }
        do {
            try await connection.query(
                """
                INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, room_type,
                    room_id, start_ms, end_ms, occupied_end_ms, status, holds_time, checked_in_at_ms, started_at_ms,
                    completed_at_ms, actual_minutes, cancellation_reason, created_at, cancelled_at_ms)
                SELECT r.id, \(practiceID.rawValue), r.patient_id, r.clinician_id, r.appointment_type_id, r.room_type,
                    r.room_id, r.start_ms, r.end_ms, r.occupied_end_ms, r.status, r.holds_time, r.checked_in_at_ms,
                    r.started_at_ms, r.completed_at_ms, r.actual_minutes, r.cancellation_reason, r.created_at,
                    r.cancelled_at_ms
                FROM jsonb_to_recordset(\(try Self.json(rows))::jsonb) AS r(
                    id uuid, patient_id uuid, clinician_id uuid, appointment_type_id uuid, room_type text, room_id uuid,
                    start_ms bigint, end_ms bigint, occupied_end_ms bigint, status text, holds_time boolean,
                    checked_in_at_ms bigint, started_at_ms bigint, completed_at_ms bigint, actual_minutes integer,
                    cancellation_reason text, created_at timestamptz, cancelled_at_ms bigint)
                """, logger: logger)
        } catch let error as PSQLError where error.sqlState == "23P01" {
            // The batch's statement names the constraint, not the row: the conflict names what was double-booked.
            throw BookingConflict(
                resource: error.serverInfo?[.constraintName] == "appointment_room_overlap" ? "room" : "clinician",
                conflictingTime: nil)
        }
    }

    /// Whether `table` exists in this database (some come with other contexts' migrations).
    func tableExists(_ table: String, _ connection: PostgresConnection) async throws -> Bool {
        for try await exists in try await connection.query("SELECT to_regclass(\(table)) IS NOT NULL", logger: logger)
            .decode(Bool.self)
        {
            return exists
        }
        return false
    }

    /// The practice's active patients with their species and birth date, by id: whom a
    /// generated history may book.
    public func bookablePatients(scope: AccessScope) async throws -> [(id: UUID, species: Species, birthDate: Date?)] {
        try await transaction(.practice(scope.practiceID)) { connection in
            var found: [(id: UUID, species: Species, birthDate: Date?)] = []
            for try await (id, species, birth) in try await connection.query(
                """
                SELECT id, species, to_char(birth_date, 'YYYY-MM-DD') FROM patient
                WHERE practice_id = \(scope.practiceID.rawValue) AND status = 'active' ORDER BY id
                """, logger: logger
            ).decode((UUID, String, String?).self) {
                found.append(
                    (
                        id, try StoreCorruption.known(Species(rawValue: species), column: "patient.species"),
                        birth.flatMap { RecordCalendar.date(fromISODay: $0) }
                    ))
            }
            return found
        }
    }

    /// Whether the practice has appointments, or triage arrivals where their table exists,
    /// starting in `range`.
    public func hasActivity(scope: AccessScope, in range: DateInterval) async throws -> Bool {
        let practice = scope.practiceID.rawValue
        let start = Timestamp.milliseconds(range.start)
        let end = Timestamp.milliseconds(range.end)
        return try await transaction(.practice(scope.practiceID)) { connection in
            for try await any in try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM appointment WHERE practice_id = \(practice) AND start_ms >= \(start)
                    AND start_ms < \(end))
                """, logger: logger
            ).decode(Bool.self) where any { return true }
            guard try await self.arrivalsExist(connection) else { return false }
            for try await any in try await connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM triage_arrival WHERE practice_id = \(practice)
                    AND arrival_at_ms >= \(start) AND arrival_at_ms < \(end))
                """, logger: logger
            ).decode(Bool.self) { return any }
            return false
        }
    }
}
