import Foundation
import GRDB
import SharedKernel

extension VetNetStore {
    /// Permanently removes patients archived for longer than `retention` (their whole record,
    /// assessments, documents and search rows), one audit entry per patient, in one
    /// transaction. Returns the number purged. Owners left without patients stay: they may
    /// still be clients.
    public func purgeArchivedPatients(scope: AccessScope, retention: TimeInterval) async throws -> Int {
        let cutoff = Timestamp.string(clock.now().addingTimeInterval(-retention))
        let (count, orphanedFiles) = try await write { db -> (Int, [String]) in
            let ids = try String.fetchAll(db, sql: "SELECT id FROM patient WHERE practice_id = ? AND status = 'archived' AND archived_at < ?",
                                          arguments: [scope.practiceID.description, cutoff])
            var hashes: [String] = []
            for id in ids {
                hashes += try String.fetchAll(db, sql: "SELECT sha256 FROM document WHERE patient_id = ?", arguments: [id])
                for table in ["note_addendum", "clinical_note", "weight", "problem", "allergy", "medication", "vaccination", "document",
                              "triage_queue_entry", "triage_assessment"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE patient_id = ?", arguments: [id])
                }
                try db.execute(sql: "DELETE FROM patient_search WHERE rowid = (SELECT rowid FROM patient WHERE id = ?)", arguments: [id])
                try db.execute(sql: "DELETE FROM patient WHERE id = ? AND practice_id = ?", arguments: [id, scope.practiceID.description])
                try self.appendAudit(AuditRecord(action: "patient.purge", resourceType: "patient", resourceID: id), scope: scope, db: db)
            }
            // A file is shared by identical uploads; remove it only when no row refers to it any more.
            let orphaned = try hashes.filter { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM document WHERE sha256 = ?", arguments: [$0]) == 0 }
            return (ids.count, orphaned)
        }
        if let directory = documentsDirectory {
            for hash in Set(orphanedFiles) { try? FileManager.default.removeItem(at: directory.appendingPathComponent(hash)) }
        }
        return count
    }
}
