import Foundation
import GRDB
import SharedKernel
import Specialists
import StoragePorts

extension VetNetStore {
    /// Records a feed token for a clinician by its SHA-256 (audited).
    public func createCalendarFeed(tokenHash: String, clinicianID: Identifier<Clinician>, scope: AccessScope)
        async throws
    {
        try await write { db in
            guard
                try
                    (Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM clinician WHERE id = ? AND practice_id = ?",
                        arguments: [clinicianID.description, scope.practiceID.description]) ?? 0) > 0
            else {
                throw DomainError.notFound(resource: "clinician")
            }
            try db.insert(
                AppointmentRows.calendarFeed(
                    tokenHash: tokenHash, clinicianID: clinicianID, practiceID: scope.practiceID,
                    createdAt: self.clock.now()))
            try self.appendAudit(
                AuditRecord.clinician(.clinicianCalendarFeedCreate, clinicianID),
                scope: scope, db: db)
        }
    }

    /// Revokes every live feed of a clinician at once (audited).
    public func revokeCalendarFeeds(clinicianID: Identifier<Clinician>, scope: AccessScope) async throws {
        try await write { db in
            // Another practice's clinician is not found, exactly like one that does not exist.
            guard
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS(SELECT 1 FROM clinician WHERE id = ? AND practice_id = ?)",
                    arguments: [clinicianID.description, scope.practiceID.description]) == true
            else {
                throw DomainError.notFound(resource: "clinician")
            }
            try db.execute(
                sql:
                    """
                    UPDATE calendar_feed SET revoked_at = ? WHERE clinician_id = ? AND practice_id = ? AND revoked_at \
                    IS NULL
                    """,
                arguments: [Timestamp.string(self.clock.now()), clinicianID.description, scope.practiceID.description])
            try self.appendAudit(
                AuditRecord.clinician(.clinicianCalendarFeedRevoke, clinicianID),
                scope: scope, db: db)
        }
    }

    /// The practice and clinician of a live feed token, or `nil`.
    public func calendarFeed(tokenHash: String) async throws -> (PracticeID, Identifier<Clinician>)? {
        try await writer.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT practice_id, clinician_id FROM calendar_feed WHERE token_hash = ? AND revoked_at IS NULL",
                arguments: [tokenHash]
            ).map { (try $0.identifier("practice_id"), try $0.identifier("clinician_id")) }
        }
    }

    /// Names of patients by id, for calendar entries (a name, never clinical detail).
    public func patientNames(ids: [UUID], scope: AccessScope) async throws -> [UUID: String] {
        try await writer.read { db in
            var names: [UUID: String] = [:]
            for id in Set(ids) {
                if let name = try String.fetchOne(
                    db, sql: "SELECT name FROM patient WHERE id = ? AND practice_id = ?",
                    arguments: [Self.text(id), scope.practiceID.description])
                {
                    names[id] = name
                }
            }
            return names
        }
    }

    /// Clinicians who have seen the patient before (continuity of care in matching).
    public func previousClinicians(patientID: UUID, scope: AccessScope) async throws -> Set<Identifier<Clinician>> {
        try await writer.read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql:
                        """
                        SELECT DISTINCT clinician_id FROM appointment WHERE patient_id = ? AND practice_id = ? AND \
                        status = 'completed'
                        """,
                    arguments: [Self.text(patientID), scope.practiceID.description]
                ).compactMap(Identifier.init(uuidString:)))
        }
    }
}
