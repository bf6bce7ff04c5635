import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Loads many owners and patients into the scope's practice in one transaction, for
    /// performance data sets: prepared statements, consecutive record numbers, the search
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
        let stamp = Timestamp.string(now)
        let total = owners.count + patients.count
        return try await write { db in
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM practice WHERE id = ?", arguments: [practice]) == 1
            else {
                throw DomainError.notFound(resource: "practice")
            }
            let insertOwner = try db.makeStatement(
                sql: """
                    INSERT INTO owner (id, practice_id, first_name, last_name, email, phones, contact_tokens, address,
                        communication,
                                       notes, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for (index, owner) in owners.enumerated() {
                let columns = try self.ownerColumns(owner, practiceID: scope.practiceID)
                try insertOwner.execute(arguments: [
                    owner.id.description, practice, owner.firstName, owner.lastName, columns.email,
                    columns.phones, columns.tokens, columns.address, columns.communication, columns.notes, stamp, stamp,
                ])
                if let progress, (index + 1) % 5_000 == 0 { progress(index + 1, total) }
            }
            let insertPatient = try db.makeStatement(
                sql: """
                    INSERT INTO patient (id, practice_id, mrn, name, species, breed, sex, birth_date,
                        birth_date_estimated, colour,
                                         microchip, status, alerts, owner_id, co_owner_id, archived_at, created_at,
                                             updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            let firstNumber = try Self.recordNumberCounter(db: db, practiceID: scope.practiceID) + 1
            for (index, patient) in patients.enumerated() {
                try insertPatient.execute(arguments: [
                    patient.id.description, practice, MedicalRecordNumber.text(Int64(firstNumber + index)),
                    patient.name,
                    patient.species.rawValue,
                    patient.breed, patient.sex.rawValue, patient.birthDate.map { RecordCalendar.isoDay($0) },
                    patient.birthDateEstimated, patient.colour,
                    patient.microchip, patient.status.rawValue, try Self.json(patient.alerts),
                    patient.ownerID.description,
                    patient.coOwnerID?.description, patient.status == .archived ? stamp : nil, stamp, stamp,
                ])
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
