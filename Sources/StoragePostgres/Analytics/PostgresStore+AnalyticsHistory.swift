import Analytics
import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Triage

extension PostgresStore: AnalyticsHistorySource {
    // MARK: - Versions

    /// Where the practice's records stand: the two counters the triggers of migration pg-8
    /// move with every write to appointments and arrivals, and to the configuration.
    public func analyticsDataVersion(scope: AccessScope) async throws -> AnalyticsDataVersion {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.analyticsDataVersion(practiceID: scope.practiceID, connection: connection)
        }
    }

    func analyticsDataVersion(practiceID: PracticeID, connection: PostgresConnection) async throws
        -> AnalyticsDataVersion
    {
        for try await (analytics, configuration) in try await connection.query(
            """
            SELECT analytics_version, config_version FROM practice WHERE id = \(practiceID.rawValue)
            """, logger: logger
        ).decode((Int64, Int64).self) {
            return AnalyticsDataVersion(analytics: analytics, configuration: configuration)
        }
        throw DomainError.notFound(resource: "practice")
    }

    // MARK: - Reading a practice's history

    /// The practice's records `window` covers, as the analytics engine reads them (see the
    /// embedded store's method of the same name), with the version they were read at: all read
    /// in one REPEATABLE READ snapshot, so the history and its version agree whatever other
    /// instances write meanwhile. The read is audited under `action` in a transaction of its
    /// own (the snapshot is read-only). Triage arrivals are read only where their table exists.
    public func versionedPracticeHistory(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)?
    ) async throws
        -> (history: PracticeHistory, version: AnalyticsDataVersion)
    {
        async let audited: Void = recordAudit(
            .historyRead(action, of: scope.practiceID, window: window), scope: scope)
        let read = try await snapshot(scope.practiceID) { connection in
            (
                try await self.practiceHistory(
                    practiceID: scope.practiceID, window: window, progress: progress, connection: connection),
                try await self.analyticsDataVersion(practiceID: scope.practiceID, connection: connection)
            )
        }
        try await audited
        return read
    }

    /// Runs `body` in one read-only REPEATABLE READ transaction of the practice: every
    /// statement sees the same committed state.
    func snapshot<Result: Sendable>(_ practiceID: PracticeID, _ body: (PostgresConnection) async throws -> Result)
        async throws -> Result
    {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                // Before any other statement: the isolation level is fixed by the first query.
                try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                try await connection.query(
                    "SELECT set_config('vetnet.practice_id', \(practiceID.description), true)", logger: logger)
                return try await body(connection)
            }
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    func practiceHistory(
        practiceID: PracticeID, window: HistoryWindow, progress: (@Sendable (Int, Int) -> Void)?,
        connection: PostgresConnection
    ) async throws -> PracticeHistory {
        let practice = try await practiceProfile(practiceID, connection: connection)
        let everyone = try await clinicians(
            practiceID: practiceID, onlyID: nil, includingRetired: true, connection: connection)
        var active: Set<UUID> = []
        for try await id in try await connection.query(
            "SELECT id FROM clinician WHERE practice_id = \(practiceID.rawValue) AND active",
            logger: logger
        ).decode(UUID.self) { active.insert(id) }
        // Working time only for the clinicians still working: nothing records when someone left.
        let availabilities = try await self.availabilities(
            practiceID: practiceID, clinicianID: nil, connection: connection
        )
        .values.map(\.value).filter { active.contains($0.clinicianID.rawValue) }.sorted {
            $0.clinicianID < $1.clinicianID
        }
        let types = try await appointmentTypes(practiceID: practiceID, onlyID: nil, connection: connection)
        let rooms = try await self.rooms(practiceID: practiceID, connection: connection)

        let bounds = HistoryWindowBounds(window)
        var total = 0
        if progress != nil {
            for try await count in try await connection.query(
                """
                SELECT count(*) FROM unnest(\(bounds.starts)::bigint[], \(bounds.ends)::bigint[],
                    \(bounds.completedOnly)::boolean[])
                    AS s(lo, hi, completed_only)
                JOIN appointment a ON a.practice_id = \(practiceID.rawValue) AND a.start_ms >= s.lo
                    AND a.start_ms < s.hi
                                  AND (NOT s.completed_only OR a.status = 'completed')
                """, logger: logger
            ).decode(Int64.self) { total = Int(count) }
            progress?(0, total)
        }
        var appointments: [AppointmentRecord] = []
        // Each stretch is one index range of the practice's appointments by start (the stretches do not overlap).
        let rows = try await connection.query(
            """
            SELECT \(unescaped: Self.historyColumns)
            FROM unnest(\(bounds.starts)::bigint[], \(bounds.ends)::bigint[],
                \(bounds.completedOnly)::boolean[]) AS s(lo, hi, completed_only)
            JOIN appointment a ON a.practice_id = \(practiceID.rawValue) AND a.start_ms >= s.lo AND a.start_ms < s.hi
                              AND (NOT s.completed_only OR a.status = 'completed')
            LEFT JOIN patient p ON p.id = a.patient_id
            ORDER BY a.start_ms, a.id
            """, logger: logger)
        for try await row in rows {
            appointments.append(try Self.historyRecord(from: row.makeRandomAccess()))
            if appointments.count % 10_000 == 0 { progress?(appointments.count, max(total, appointments.count)) }
        }
        progress?(appointments.count, max(total, appointments.count))

        var arrivals: [TriageArrival] = []
        if !window.arrivalRanges.isEmpty, try await arrivalsExist(connection) {
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.arrivalColumns) FROM triage_arrival t LEFT JOIN patient p
                    ON p.id = t.patient_id
                WHERE t.practice_id = \(practiceID.rawValue)
                  AND EXISTS (SELECT 1 FROM unnest(\(bounds.arrivalStarts)::bigint[],
                      \(bounds.arrivalEnds)::bigint[]) AS s(lo, hi)
                              WHERE t.arrival_at_ms >= s.lo AND t.arrival_at_ms < s.hi)
                ORDER BY t.arrival_at_ms
                """, logger: logger)
            for try await row in rows { arrivals.append(try Self.arrival(from: row)) }
        }
        return PracticeHistory(
            practice: practice, appointmentTypes: types, clinicians: everyone, availabilities: availabilities,
            rooms: rooms,
            appointments: appointments, triageArrivals: arrivals,
            firstVisits: try await firstVisits(
                practiceID: practiceID, before: window.firstVisitCutoff, loaded: appointments,
                connection: connection),
            openRequests: [])
    }

    /// Each patient's first attended visit: the earliest before `cutoff` for those who came
    /// before it (one grouped read of the visits), else the earliest among `loaded`.
    private func firstVisits(
        practiceID: PracticeID, before cutoff: Date?, loaded: [AppointmentRecord],
        connection: PostgresConnection
    ) async throws -> [UUID: Date] {
        var first: [UUID: Date] = [:]
        if let cutoff {
            let rows = try await connection.query(
                """
                SELECT patient_id, min(start_ms) FROM appointment
                WHERE practice_id = \(practiceID.rawValue) AND start_ms < \(Timestamp.milliseconds(cutoff))
                  AND status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isAttended)))
                GROUP BY patient_id
                """, logger: logger)
            for try await (patient, start) in rows.decode((UUID, Int64).self) {
                first[patient] = Timestamp.date(milliseconds: start)
            }
        }
        return loaded.firstVisits(after: first)
    }

    /// Whether this database holds triage arrivals (their table comes with the triage context's migration).
    func arrivalsExist(_ connection: PostgresConnection) async throws -> Bool {
        for try await exists in try await connection.query(
            "SELECT to_regclass('triage_arrival') IS NOT NULL", logger: logger
        ).decode(Bool.self) {
            return exists
        }
        return false
    }

    // MARK: - Rows

    /// ``AppointmentRows/columns`` of `a`, then what analytics adds: the patient's species, when
    /// the booking was made and when it was cancelled.
    static let historyColumns =
        AppointmentRows.selectList(prefix: "a.") + ", p.species, a.created_at, a.cancelled_at_ms"

    static func historyRecord(from columns: PostgresRandomAccessRow) throws -> AppointmentRecord {
        let appointment = try AppointmentRows.appointment(from: columns).value
        let cancelled = try columns[19].decode(Int64?.self)
        return AppointmentRecord(
            appointment, species: try columns[17].decode(String?.self).flatMap(Species.init(rawValue:)),
            bookedAt: try columns[18].decode(Date.self),
            cancelledAt: appointment.status == .cancelled ? cancelled.map(Timestamp.date(milliseconds:)) : nil)
    }

    /// An arrival's columns, cast so the read does not depend on the integer widths the
    /// triage migration chose.
    static let arrivalColumns =
        """
        t.patient_id, t.level::integer, t.arrival_at_ms::bigint, t.first_seen_at_ms::bigint, p.species, \
        t.left_at_ms::bigint
        """

    static func arrival(from row: PostgresRow) throws -> TriageArrival {
        let (patient, storedLevel, arrival, seen, species, left) = try row.decode(
            (UUID, Int32, Int64, Int64?, String?, Int64?).self)
        let level = try AssessmentRows.level(Int(storedLevel), column: "triage_arrival.level")
        return TriageArrival(
            patientID: patient, level: level, arrival: Timestamp.date(milliseconds: arrival),
            firstSeenAt: seen.map(Timestamp.date(milliseconds:)), species: species.flatMap(Species.init(rawValue:)),
            leftAt: left.map(Timestamp.date(milliseconds:)))
    }
}
