import Foundation
import PatientRecords
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Tables of the triage context that hold a patient's rows. They come with that context's
    /// migration; on a database without them yet (`to_regclass` is `NULL`) the purge leaves
    /// them out rather than failing.
    static let triagePatientTables = [
        "triage_assessment", "triage_queue", "intake_ranking", "triage_arrival", "triage_override",
    ]

    /// Every table holding a patient's rows, in deletion order. A document's content goes with
    /// its row (ON DELETE CASCADE).
    static let patientRecordTables = PatientRecordTables.childrenFirst(board: "triage_queue")

    /// Permanently removes patients archived longer than `retentionYears` (1–100, refused
    /// naming `retentionYears` otherwise) with their whole record — notes and addenda, weights,
    /// problems, allergies, medications, vaccinations, visits, documents and their content,
    /// triage assessments, board entries and arrivals, appointments (open future ones counted
    /// apart), search words — and the idempotency keys that named any of them. One
    /// transaction: all or nothing, as in the embedded store.
    ///
    /// The audit trail is never purged: each patient gets a `patient.purge` entry with its
    /// counts, and the run a `records.purge` entry with the totals (written even when nothing
    /// was due). Owners left without patients stay: they may still be clients.
    public func purgeArchivedPatients(scope: AccessScope, retentionYears: Int) async throws -> PurgeSummary {
        let retention = try RetentionPeriod(years: retentionYears)
        return try await transaction(.practice(scope.practiceID)) { connection in
            let now = self.clock.now()
            let practice = scope.practiceID.rawValue
            let nowMs = Timestamp.milliseconds(now)
            var triage = Set<String>()
            for try await table in try await connection.query(
                """
                SELECT t FROM unnest(\(Self.triagePatientTables)::text[]) AS t WHERE to_regclass(t) IS NOT NULL
                """, logger: self.logger
            ).decode(String.self) { triage.insert(table) }
            let tables: [String] = Self.patientRecordTables.filter {
                !Self.triagePatientTables.contains($0) || triage.contains($0)
            }
            let withIDs = PatientRecordTables.withIDs(board: "triage_queue").filter(tables.contains)

            var summary = PurgeSummary(retention: retention)
            var ids: [UUID] = []
            for try await id in try await connection.query(
                """
                SELECT id FROM patient WHERE practice_id = \(practice) AND status = 'archived'
                    AND archived_at < \(retention.cutoff(now: now))
                ORDER BY id FOR UPDATE
                """, logger: self.logger
            ).decode(UUID.self) { ids.append(id) }
            for id in ids {
                let patientID = UUIDText.lowercase(id)
                func count(_ query: PostgresQuery) async throws -> Int {
                    for try await value in try await connection.query(query, logger: self.logger).decode(Int64.self) {
                        return Int(value)
                    }
                    return 0
                }
                let appointments = try await count(
                    "SELECT count(*) FROM appointment WHERE practice_id = \(practice) AND patient_id = \(id)")
                let future = try await count(
                    """
                    SELECT count(*) FROM appointment WHERE practice_id = \(practice) AND patient_id = \(id)
                      AND status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isOpen))) AND start_ms > \(nowMs)
                    """)
                var assessments = 0
                if triage.contains("triage_assessment") {
                    assessments = try await count(
                        "SELECT count(*) FROM triage_assessment WHERE practice_id = \(practice) AND patient_id = \(id)")
                }
                let documents = try await count(
                    "SELECT count(*) FROM document WHERE practice_id = \(practice) AND patient_id = \(id)")

                // A replayed Idempotency-Key must not answer with the id of something purged.
                var resourceIDs = [patientID]
                for table in withIDs {
                    for try await resource in try await connection.query(
                        """
                        SELECT id::text FROM \(unescaped: table) WHERE practice_id = \(practice) AND patient_id = \(id)
                        """, logger: self.logger
                    ).decode(String.self) { resourceIDs.append(resource) }
                }
                try await connection.query(
                    """
                    DELETE FROM idempotency_key WHERE practice_id = \(practice)
                        AND resource_id = ANY(\(resourceIDs)::text[])
                    """, logger: self.logger)
                for table in tables {
                    try await connection.query(
                        "DELETE FROM \(unescaped: table) WHERE practice_id = \(practice) AND patient_id = \(id)",
                        logger: self.logger)
                }
                // Its search words go with it (ON DELETE CASCADE).
                try await connection.query(
                    "DELETE FROM patient WHERE id = \(id) AND practice_id = \(practice)", logger: self.logger)
                let (audit, event) = summary.add(
                    .init(
                        patientID: patientID, appointments: appointments, futureAppointments: future,
                        assessments: assessments, documents: documents), practiceID: scope.practiceID, at: now)
                try await self.appendAudit(audit, scope: scope, connection: connection)
                try await self.appendEvent(event, scope: scope, connection: connection)
            }
            try await self.appendAudit(
                summary.runAudit(practiceID: scope.practiceID), scope: scope, connection: connection)
            return summary
        }
    }
}
