import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension PostgresStore: ClinicianRoster {
    // MARK: - Writing

    /// Stores a decided new clinician in one transaction (see
    /// ``ClinicianRoster/createClinician(_:availability:scope:idempotencyKey:)``); a retried
    /// request, through any instance, finds its idempotency key's first clinician.
    public func storeNewClinician(
        _ decision: ClinicianRosterWrite, at now: Date, scope: AccessScope, idempotencyKey: IdempotencyKey?
    ) async throws -> Versioned<Clinician> {
        let created = decision.clinician.value
        let definition = try Self.json(created)
        return try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let (id, _) = try await self.idempotent(
                    connection: connection, scope: scope, key: idempotencyKey, operation: .clinicianCreate,
                    resourceID: created.id.description
                ) {
                    try await self.checkReferences(of: created, scope: scope, connection: connection)
                    try await connection.query(
                        """
                        INSERT INTO clinician (id, practice_id, display_name, definition, created_at)
                        VALUES (\(created.id.rawValue), \(scope.practiceID.rawValue), \(created.displayName),
                            \(definition)::jsonb, \(now))
                        """, logger: self.logger)
                    if let owned = decision.availability {
                        try await connection.insert(
                            AppointmentRows.insert(owned, version: 1, practiceID: scope.practiceID),
                            logger: self.logger)
                    }
                    try await self.appendAudit(
                        decision.audit, events: [decision.event], scope: scope, connection: connection)
                }
                guard let uuid = UUID(uuidString: id) else {
                    throw StoreCorruption(column: "idempotency_key.resource_id", reason: "not a clinician id")
                }
                return try await self.clinician(
                    practiceID: scope.practiceID, id: uuid, connection: connection
                ).orNotFound("clinician")
            }
        }
    }

    /// Applies `change` to a clinician under optimistic concurrency (audited, naming the fields
    /// changed). The row is locked, so two instances saving the same version take turns and
    /// the second is refused. A retired clinician is refused (409); another practice's is not found.
    public func updateClinician(
        id: Identifier<Clinician>, change: ClinicianChange, scope: AccessScope,
        expectedVersion: Int?
    ) async throws -> Versioned<Clinician> {
        try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let decision = try ClinicianRosterWrite.update(
                    change,
                    current: try await self.clinician(
                        practiceID: scope.practiceID, id: id.rawValue, forUpdate: true, connection: connection),
                    expectedVersion: expectedVersion, scope: scope, now: self.clock.now())
                let next = decision.clinician.value
                try await self.checkReferences(of: next, scope: scope, connection: connection)
                try await connection.query(
                    """
                    UPDATE clinician SET display_name = \(next.displayName), definition = \(try Self.json(next))::jsonb,
                        version = version + 1
                    WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                    """, logger: self.logger)
                try await self.appendAudit(
                    decision.audit, events: [decision.event], scope: scope, connection: connection)
                return decision.clinician
            }
        }
    }

    /// Retires a clinician (audited): kept for history, never offered or booked again, their
    /// calendar feeds revoked; the appointments they still had are returned for re-planning.
    ///
    /// The clinician's booking lock is taken first, as a booking takes it: a booking of this
    /// clinician in flight on another instance commits before the retirement reads what is left
    /// (and is reported), or waits and then finds the clinician retired.
    public func retireClinician(id: Identifier<Clinician>, scope: AccessScope, expectedVersion: Int?) async throws
        -> ClinicianRetirement
    {
        let now = clock.now()
        return try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                try await self.lockBookingResources(
                    practiceID: scope.practiceID, clinicianID: id.rawValue, room: nil, connection: connection)
                let current = try await self.clinician(
                    practiceID: scope.practiceID, id: id.rawValue, forUpdate: true, connection: connection)
                let booked: [Versioned<Appointment>] = try await connection.rows(
                    """
                    SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment
                    WHERE practice_id = \(scope.practiceID.rawValue) AND clinician_id = \(id.rawValue)
                        AND status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isAwaitingVisit)))
                      AND end_ms > \(Timestamp.milliseconds(now))
                    ORDER BY start_ms, id
                    """, logger: self.logger
                ) { try AppointmentRows.appointment(from: $0) }
                let decision = try ClinicianRosterWrite.retire(
                    current, expectedVersion: expectedVersion, booked: booked, scope: scope, now: now)
                let retired = decision.clinician.value
                try await connection.query(
                    """
                    UPDATE clinician SET active = false, definition = \(try Self.json(retired))::jsonb,
                        version = version + 1
                    WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                    """, logger: self.logger)
                try await connection.query(
                    """
                    UPDATE calendar_feed SET revoked_at = \(now)
                    WHERE clinician_id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                        AND revoked_at IS NULL
                    """, logger: self.logger)
                try await self.appendAudit(
                    decision.audit, events: [decision.event], scope: scope, connection: connection)
                return ClinicianRetirement(
                    clinician: decision.clinician, appointmentsToReplan: decision.appointmentsToReplan)
            }
        }
    }

    // MARK: - Reading

    /// One clinician of the scope's practice, retired or not, with its version; another
    /// practice's id is not found.
    public func clinician(scope: AccessScope, id: Identifier<Clinician>) async throws -> Versioned<Clinician> {
        try await transaction(.practice(scope.practiceID)) { connection in
            return try await self.clinician(
                practiceID: scope.practiceID, id: id.rawValue, connection: connection
            ).orNotFound("clinician")
        }
    }

    /// Every clinician's weekly availability with its version.
    public func availabilities(scope: AccessScope) async throws -> [Identifier<Clinician>: Versioned<
        ClinicianAvailability
    >] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.availabilities(practiceID: scope.practiceID, clinicianID: nil, connection: connection)
        }
    }

    /// One clinician with its version in the caller's transaction (with `forUpdate`, its row
    /// locked until the transaction ends).
    func clinician(practiceID: PracticeID, id: UUID, forUpdate: Bool = false, connection: PostgresConnection)
        async throws -> Versioned<Clinician>?
    {
        let rows = try await connection.query(
            """
            SELECT definition::text, active, created_at,
                version FROM clinician WHERE id = \(id) AND practice_id = \(practiceID.rawValue)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger)
        for try await (text, active, createdAt, version) in rows.decode((String, Bool, Date, Int).self) {
            var clinician = try Self.decode(Clinician.self, text, column: "clinician.definition")
            // A row made inactive without its retirement in the definition still reads as retired.
            if !active, clinician.retiredAt == nil { clinician.retiredAt = createdAt }
            return Versioned(clinician, version: version)
        }
        return nil
    }
}
