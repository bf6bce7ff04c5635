import Foundation
import PostgresNIO
import SharedKernel
import Specialists
import StoragePorts

extension PostgresStore {
    /// Records a feed token for a clinician by its SHA-256 (audited). Another practice's
    /// clinician is not found.
    public func createCalendarFeed(tokenHash: String, clinicianID: Identifier<Clinician>, scope: AccessScope)
        async throws
    {
        let now = clock.now()
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.requireClinician(clinicianID, scope: scope, connection: connection)
            try await connection.insert(
                AppointmentRows.calendarFeed(
                    tokenHash: tokenHash, clinicianID: clinicianID, practiceID: scope.practiceID, createdAt: now),
                logger: self.logger)
            _ = try await self.appendAudit(
                AuditRecord.clinician(.clinicianCalendarFeedCreate, clinicianID), scope: scope, connection: connection)
        }
    }

    /// Revokes every live feed of a clinician at once (audited).
    public func revokeCalendarFeeds(clinicianID: Identifier<Clinician>, scope: AccessScope) async throws {
        let now = clock.now()
        try await transaction(.practice(scope.practiceID)) { connection in
            // Another practice's clinician is not found, exactly like one that does not exist.
            try await self.requireClinician(clinicianID, scope: scope, connection: connection)
            try await connection.query(
                """
                UPDATE calendar_feed SET revoked_at = \(now)
                WHERE clinician_id = \(clinicianID.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                    AND revoked_at IS NULL
                """, logger: self.logger)
            _ = try await self.appendAudit(
                AuditRecord.clinician(.clinicianCalendarFeedRevoke, clinicianID), scope: scope, connection: connection)
        }
    }

    /// The practice and clinician of a live feed token, or `nil`. The token is all a calendar
    /// client sends, so no practice is known yet: the lookup reads across practices.
    public func calendarFeed(tokenHash: String) async throws -> (PracticeID, Identifier<Clinician>)? {
        try await transaction(.installation) { connection -> (PracticeID, Identifier<Clinician>)? in
            let rows = try await connection.query(
                """
                SELECT practice_id, clinician_id FROM vetnet_calendar_feed(\(tokenHash))
                """, logger: self.logger)
            for try await (practiceID, clinicianID) in rows.decode((UUID, UUID).self) {
                return (PracticeID(practiceID), Identifier(clinicianID))
            }
            return nil
        }
    }

    /// Clinicians who have seen the patient before (continuity of care in matching).
    public func previousClinicians(patientID: UUID, scope: AccessScope) async throws -> Set<Identifier<Clinician>> {
        try await transaction(.practice(scope.practiceID)) { connection in
            let rows = try await connection.query(
                """
                SELECT DISTINCT clinician_id FROM appointment
                WHERE practice_id = \(scope.practiceID.rawValue) AND patient_id = \(patientID) AND status = 'completed'
                """, logger: self.logger)
            var found: Set<Identifier<Clinician>> = []
            for try await id in rows.decode(UUID.self) { found.insert(Identifier(id)) }
            return found
        }
    }

    /// Refuses (404) a clinician that is not the scope's practice's.
    private func requireClinician(_ id: Identifier<Clinician>, scope: AccessScope, connection: PostgresConnection)
        async throws
    {
        let query: PostgresQuery =
            """
            SELECT EXISTS (SELECT 1 FROM clinician WHERE id = \(id.rawValue) AND practice_id = \
            \(scope.practiceID.rawValue))
            """
        if try await !exists(query, connection) { throw DomainError.notFound(resource: "clinician") }
    }
}
