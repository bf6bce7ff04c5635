import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - CSV import

    /// Stores a validated import plan in one transaction: every owner and patient through the
    /// same inserts as single creates, so record numbers, the search index and the audit trail
    /// are exactly as if each had been entered by hand; one `patient.import` entry sums it up.
    ///
    /// A row the store refuses (a microchip the practice already has) refuses the whole import
    /// with ``PatientImportError/invalidRows(_:)``, unless `skipRefused`: then that row alone is
    /// rolled back and reported in ``PatientImportResult/refused``, and an owner is created only
    /// with their first stored patient.
    public func importPatients(
        _ plan: PatientImportPlan, scope: AccessScope, skipRefused: Bool = false,
        progress: ImportProgressHandler? = nil
    ) async throws -> PatientImportResult {
        return try await write { db in
            let counterBefore = try Self.recordNumberCounter(db: db, practiceID: scope.practiceID)
            var tally = PatientImportTally(plan, skipRefused: skipRefused)
            for (index, patient) in plan.patients.enumerated() {
                do {
                    try db.inSavepoint {
                        for owner in try tally.ownersToStore(before: patient) {
                            try self.insertOwner(owner, db: db, scope: scope)
                        }
                        try self.insertPatient(patient, db: db, scope: scope)
                        return .commit
                    }
                    tally.stored(patient)
                } catch {
                    try tally.refuse(patient, error: error)
                }
                if let progress, let done = tally.progress(after: index) { progress(done.done, done.total) }
            }
            try self.appendAudit(tally.audit(practiceID: scope.practiceID), scope: scope, db: db)
            if let event = tally.event(practiceID: scope.practiceID, at: self.clock.now()) {
                try self.appendEvent(event, scope: scope, db: db)
            }
            return tally.result(
                counterBefore: Int64(counterBefore),
                counterAfter: Int64(try Self.recordNumberCounter(db: db, practiceID: scope.practiceID)))
        }
    }

    // MARK: - Record numbers

    /// The last record number handed out in the practice (0 before the first).
    static func recordNumberCounter(db: Database, practiceID: PracticeID) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT value FROM practice_counter WHERE practice_id = ? AND name = 'mrn'",
            arguments: [practiceID.description]) ?? 0
    }

    /// Moves the record-number counter to at least `value`, so later patients get higher numbers.
    static func advanceRecordNumberCounter(db: Database, practiceID: PracticeID, to value: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO practice_counter (practice_id, name, value) VALUES (?, 'mrn', ?)
                ON CONFLICT (practice_id, name) DO UPDATE SET value = max(value, excluded.value)
                """, arguments: [practiceID.description, value])
    }
}
