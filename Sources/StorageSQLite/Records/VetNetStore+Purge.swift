import Foundation
import GRDB
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Tables holding a patient's record, children before parents (foreign keys are enforced).
    /// Clinical notes and addenda refuse deletion unless their patient is archived (a trigger).
    static let patientRecordTables = PatientRecordTables.childrenFirst(board: "triage_queue_entry")

    /// Permanently removes patients archived longer than `retentionYears` (1–100, refused
    /// naming `retentionYears` otherwise) with their whole record: notes and addenda, weights,
    /// problems, allergies, medications, vaccinations, documents, triage assessments and ER
    /// board entry, appointments (past ones are the purged patient's clinical history; open
    /// future ones should not exist for an archived patient and are counted apart), search
    /// rows and the idempotency keys that named any of them. One transaction: all or nothing.
    ///
    /// The audit trail is never purged: each patient gets a `patient.purge` entry with its
    /// counts, and the run a `records.purge` entry with the totals (written even when nothing
    /// was due). Owners left without patients stay: they may still be clients.
    public func purgeArchivedPatients(scope: AccessScope, retentionYears: Int) async throws -> PurgeSummary {
        let retention = try RetentionPeriod(years: retentionYears)
        let now = clock.now()
        let cutoff = Timestamp.string(retention.cutoff(now: now))
        let practice = scope.practiceID.description
        let (summary, orphanedFiles) = try await write { db -> (PurgeSummary, [String]) in
            var summary = PurgeSummary(retention: retention)
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM patient WHERE practice_id = ? AND status = 'archived' AND archived_at < ?",
                arguments: [practice, cutoff])
            var hashes: [String] = []
            for id in ids {
                let scoped: StatementArguments = [id, practice]
                let appointments =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM appointment WHERE patient_id = ? AND practice_id = ?",
                        arguments: scoped) ?? 0
                let future =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM appointment WHERE patient_id = ? AND practice_id = ?
                              AND status IN (\(AppointmentStatus.sqlList(where: \.isOpen))) AND start_ms > ?
                            """, arguments: scoped + [Timestamp.milliseconds(now)]) ?? 0
                let assessments =
                    try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM triage_assessment WHERE patient_id = ? AND practice_id = ?",
                        arguments: scoped) ?? 0
                let documentHashes = try String.fetchAll(
                    db, sql: "SELECT sha256 FROM document WHERE patient_id = ? AND practice_id = ?",
                    arguments: scoped)
                hashes += documentHashes

                // A replayed Idempotency-Key must not answer with the id of something purged.
                var resourceIDs = [id]
                for table in PatientRecordTables.withIDs(board: "triage_queue_entry") {
                    resourceIDs += try String.fetchAll(
                        db, sql: "SELECT id FROM \(table) WHERE patient_id = ? AND practice_id = ?", arguments: scoped)
                }
                for batch in stride(from: 0, to: resourceIDs.count, by: 500).map({
                    Array(resourceIDs[$0..<min($0 + 500, resourceIDs.count)])
                }) {
                    let marks = Array(repeating: "?", count: batch.count).joined(separator: ",")
                    try db.execute(
                        sql: "DELETE FROM idempotency_key WHERE practice_id = ? AND resource_id IN (\(marks))",
                        arguments: StatementArguments([practice] + batch))
                }
                for table in Self.patientRecordTables {
                    try db.execute(
                        sql: "DELETE FROM \(table) WHERE patient_id = ? AND practice_id = ?", arguments: scoped)
                }
                try db.execute(
                    sql: "DELETE FROM patient_search WHERE rowid = (SELECT rowid FROM patient WHERE id = ?)",
                    arguments: [id])
                try db.execute(sql: "DELETE FROM patient WHERE id = ? AND practice_id = ?", arguments: scoped)
                let (audit, event) = summary.add(
                    .init(
                        patientID: id, appointments: appointments, futureAppointments: future, assessments: assessments,
                        documents: documentHashes.count), practiceID: scope.practiceID, at: now)
                try self.appendAudit(audit, scope: scope, db: db)
                try self.appendEvent(event, scope: scope, db: db)
            }
            try self.appendAudit(summary.runAudit(practiceID: scope.practiceID), scope: scope, db: db)
            // A file is shared by identical uploads; remove it only when no row refers to it any more.
            let orphaned = try Set(hashes).filter {
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE sha256 = ?", arguments: [$0]) == 0
            }
            return (summary, Array(orphaned))
        }
        if let directory = documentsDirectory {
            for hash in orphanedFiles {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(hash))
            }
        }
        return summary
    }
}
