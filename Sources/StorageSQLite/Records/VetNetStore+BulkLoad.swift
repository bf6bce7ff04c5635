import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Loads many owners and patients into the scope's practice in one transaction, for
    /// performance data sets: cached statements, consecutive record numbers, the search
    /// index rebuilt for the practice in one statement, and one `practice.bulk_load` audit
    /// entry instead of one per row (the rows are generated, not clinical work to account for).
    ///
    /// Every value is validated; each patient's owners must be among `owners`. Returns the
    /// first and last record numbers assigned.
    @discardableResult
    public func bulkLoad(
        owners: [Owner], patients: [Patient], scope: AccessScope,
        progress: ImportProgressHandler? = nil
    ) async throws -> (first: String, last: String)? {
        let now = clock.now()
        try PopulationLoad.validate(owners: owners, patients: patients, now: now)
        let practice = scope.practiceID.description
        let total = owners.count + patients.count
        return try await write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM practice WHERE id = ?", arguments: [practice]) == 1
            else {
                throw DomainError.notFound(resource: "practice")
            }
            let seal = self.fieldSeal(scope.practiceID)
            for (index, owner) in owners.enumerated() {
                try db.insert(
                    StoredOwnerColumns.insert(owner, seal: seal, now: now)
                        .setting("contact_tokens", .text(self.contactTokens(of: owner, practiceID: scope.practiceID))))
                if let progress, (index + 1) % 5_000 == 0 { progress(index + 1, total) }
            }
            let firstNumber = try Self.recordNumberCounter(db: db, practiceID: scope.practiceID) + 1
            for (index, patient) in patients.enumerated() {
                try db.insert(
                    PatientRows.insert(
                        patient, recordNumber: MedicalRecordNumber.text(Int64(firstNumber + index)),
                        practiceID: scope.practiceID, archivedAt: nil, now: now))
                if let progress, (owners.count + index + 1) % 5_000 == 0 { progress(owners.count + index + 1, total) }
            }
            try Self.advanceRecordNumberCounter(
                db: db, practiceID: scope.practiceID, to: firstNumber + patients.count - 1)
            // One pass over the practice with the same SQL as single writes; cheaper than
            // tracking which rows are new, and leaves no stale row behind.
            try db.execute(sql: "DELETE FROM patient_search WHERE practice_id = ?", arguments: [practice])
            try db.execute(sql: Self.searchRowsSQL + " WHERE p.practice_id = ?", arguments: [practice])
            progress?(total, total)
            try self.appendAudit(
                PopulationLoad.auditRecord(
                    owners: owners.count, patients: patients.count, practiceID: scope.practiceID), scope: scope, db: db)
            return patients.isEmpty
                ? nil
                : (
                    MedicalRecordNumber.text(Int64(firstNumber)),
                    MedicalRecordNumber.text(Int64(firstNumber + patients.count - 1))
                )
        }
    }
}

/// Generated populations load through the same port on both stores.
extension VetNetStore: PopulationLoader {}
