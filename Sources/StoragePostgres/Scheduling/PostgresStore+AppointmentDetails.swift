import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore: AppointmentDetailsRepository {
    // MARK: - Reading

    /// One appointment with its reason, staff notes, intake basis and visit (another practice's is not found).
    public func appointmentDetails(scope: AccessScope, id: Identifier<Appointment>) async throws -> AppointmentDetails {
        try await transaction(.practice(scope.practiceID)) { connection in
            return try await self.details(
                practiceID: scope.practiceID, id: id.rawValue, connection: connection
            ).orNotFound("appointment")
        }
    }

    /// A patient's appointments, past and future, newest first; `before` is the id of the last
    /// appointment of the previous page. Another practice's patient is not found. Audited as a
    /// read of the patient's record.
    public func patientAppointments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: String?)
        async throws -> PatientAppointments
    {
        let now = Timestamp.milliseconds(clock.now())
        let practice = scope.practiceID.rawValue
        return try await transaction(.practice(scope.practiceID)) { connection in
            let patientQuery: PostgresQuery =
                "SELECT EXISTS (SELECT 1 FROM patient WHERE id = \(patientID) AND practice_id = \(practice))"
            if try await !self.exists(patientQuery, connection) { throw DomainError.notFound(resource: "patient") }
            // The cursor is the last appointment of the previous page: the page continues below
            // its (start, id), the order of the listing.
            var after: (start: Int64, id: UUID)?
            if let cursor {
                let id = try await self.cursorRow(
                    cursor, in: "appointment", practiceID: scope.practiceID, patientID: patientID,
                    connection: connection)
                for try await start in try await connection.query(
                    """
                    SELECT start_ms FROM appointment WHERE id = \(id) AND practice_id = \(practice)
                        AND patient_id = \(patientID)
                    """, logger: self.logger
                ).decode(Int64.self) { after = (start, id) }
                if after == nil { throw PageCursor.namesNothing }
            }
            let items: [AppointmentDetails] = try await connection.rows(
                """
                SELECT \(unescaped: Self.detailColumns) FROM appointment a
                WHERE a.practice_id = \(practice) AND a.patient_id = \(patientID)
                  AND (\(after == nil) OR (a.start_ms, a.id) < (\(after?.start ?? 0), \(after?.id ?? UUID())))
                ORDER BY a.start_ms DESC, a.id DESC LIMIT \(max(limit, 0) + 1)
                """, logger: self.logger
            ) { try AppointmentRows.details(from: $0) }
            let page = Page(fetched: items, limit: limit) { $0.appointment.value.id.description }
            let lastSeen = try await self.firstAppointment(
                connection,
                """
                SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment WHERE practice_id = \(practice)
                    AND patient_id = \(patientID)
                  AND status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isAttended))) AND start_ms <= \(now)
                      ORDER BY start_ms DESC LIMIT 1
                """)
            let next = try await self.firstAppointment(
                connection,
                """
                SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment WHERE practice_id = \(practice)
                    AND patient_id = \(patientID)
                  AND status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isAwaitingVisit)))
                      AND start_ms > \(now) ORDER BY start_ms LIMIT 1
                """)
            _ = try await self.appendAudit(
                AuditRecord.patientAppointmentsRead(patientID, results: page.items.count),
                scope: scope, connection: connection)
            return PatientAppointments(page: page, lastSeen: lastSeen, next: next)
        }
    }

    /// Completed appointments with the patient's species (the duration model's training data), by start.
    public func completedAppointments(scope: AccessScope) async throws -> [(Appointment, species: String)] {
        let columns = AppointmentRows.selectList(prefix: "a.")
        return try await transaction(.practice(scope.practiceID)) { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: columns), p.species FROM appointment a
                JOIN patient p ON p.practice_id = a.practice_id AND p.id = a.patient_id
                WHERE a.practice_id = \(scope.practiceID.rawValue) AND a.status = 'completed'
                    AND a.actual_minutes IS NOT NULL
                ORDER BY a.start_ms, a.id
                """, logger: self.logger
            ) { row in
                (
                    try AppointmentRows.appointment(from: row).value,
                    species: try StoredColumns(row, table: "patient").text("species")
                )
            }
        }
    }

    /// The practice profile as scheduling reads it (hours, closures, rules).
    public func schedulingPractice(scope: AccessScope) async throws -> PracticeProfile {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.practiceProfile(scope.practiceID, connection: connection)
        }
    }

    /// One appointment type of the practice, or `nil`.
    public func appointmentType(scope: AccessScope, id: Identifier<AppointmentType>) async throws -> AppointmentType? {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.appointmentTypes(practiceID: scope.practiceID, onlyID: id, connection: connection).first
        }
    }

    // MARK: - Writing

    /// Changes an appointment's booking reason and staff notes under optimistic concurrency
    /// (audited, with an event naming only identifiers). `nil` leaves a field as it is; an
    /// empty text clears it. The row is locked, so two instances saving the same version take
    /// turns and the second is refused.
    public func updateAppointmentNotes(
        scope: AccessScope, id: Identifier<Appointment>, reason: String?, staffNotes: String?,
        expectedVersion: Int?
    ) async throws -> AppointmentDetails {
        try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let change = try AppointmentNotesChange.decide(
                    reason: reason, staffNotes: staffNotes,
                    current: try await self.appointment(
                        practiceID: scope.practiceID, id: id.rawValue, forUpdate: true, connection: connection),
                    expectedVersion: expectedVersion, scope: scope, now: self.clock.now())
                try await connection.query(
                    """
                    UPDATE appointment
                    SET reason = CASE WHEN \(change.setsReason) THEN \(change.reason) ELSE reason END,
                        staff_notes = CASE WHEN \(change.setsStaffNotes) THEN \(change.staffNotes) ELSE staff_notes END,
                        version = version + 1
                    WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                    """, logger: self.logger)
                try await self.appendAudit(change.audit, events: [change.event], scope: scope, connection: connection)
                return try await self.details(
                    practiceID: scope.practiceID, id: id.rawValue, connection: connection
                ).orNotFound("appointment")
            }
        }
    }

    // MARK: - Rows

    /// ``AppointmentRows/columns`` followed by its ``AppointmentRows/detailColumns``, from
    /// `appointment a`.
    static let detailColumns =
        AppointmentRows.selectList() + """
            , reason, staff_notes, match_basis::text AS match_basis, assessment_id, triage_level, \
            (SELECT v.id FROM visit v WHERE v.appointment_id = a.id) AS visit_id
            """

    /// One appointment's details in the caller's transaction.
    func details(practiceID: PracticeID, id: UUID, connection: PostgresConnection) async throws -> AppointmentDetails? {
        return try await connection.firstRow(
            """
            SELECT \(unescaped: Self.detailColumns) FROM appointment a WHERE id = \(id)
                AND practice_id = \(practiceID.rawValue)
            """, logger: logger
        ) { try AppointmentRows.details(from: $0) }
    }

    /// The first appointment `query` (of ``AppointmentRows/columns``) finds, if any.
    private func firstAppointment(_ connection: PostgresConnection, _ query: PostgresQuery) async throws -> Versioned<
        Appointment
    >? {
        try await connection.firstRow(query, logger: logger) { try AppointmentRows.appointment(from: $0) }
    }
}
