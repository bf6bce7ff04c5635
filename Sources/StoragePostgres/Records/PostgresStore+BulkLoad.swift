import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Loads many owners and patients into the scope's practice in one transaction, for
    /// performance data sets, as the embedded store's `bulkLoad` does: the rows single creates
    /// write (``StoredOwnerColumns`` and ``PatientRows`` describe them), consecutive record
    /// numbers, search words computed exactly as single writes compute them, and one
    /// `practice.bulk_load` audit entry instead of one per row (the rows are generated, not
    /// clinical work to account for). Rows go in a few thousand to a statement.
    ///
    /// Every value is validated; each patient's owners must be among `owners`. Returns the
    /// first and last record numbers assigned.
    @discardableResult
    public func bulkLoad(
        owners: [Owner], patients: [Patient], scope: AccessScope, progress: ImportProgressHandler? = nil
    ) async throws -> (first: String, last: String)? {
        let now = clock.now()
        let ownersByID = try PopulationLoad.validate(owners: owners, patients: patients, now: now)
        let practiceID = scope.practiceID
        let batch = 2_000
        let total = owners.count + patients.count
        let contacts = contactIndex(practiceID)
        let seal = fieldSeal(practiceID)
        let numbers = try await transaction(.practice(practiceID)) { connection -> (first: String, last: String)? in
            for start in stride(from: 0, to: owners.count, by: batch) {
                let rows = owners[start..<min(start + batch, owners.count)]
                try await connection.insert(
                    try rows.map { try StoredOwnerColumns.insert($0, seal: seal, now: now) }, logger: self.logger)
                progress?(start + rows.count, total)
            }
            let audit = PopulationLoad.auditRecord(
                owners: owners.count, patients: patients.count, practiceID: practiceID)
            guard !patients.isEmpty else {
                try await self.appendAudit(audit, scope: scope, connection: connection)
                return nil
            }
            var last: Int64 = 0
            for try await value in try await connection.query(
                """
                INSERT INTO practice_counter (practice_id, name, value) VALUES (\(practiceID.rawValue), 'mrn',
                    \(Int64(patients.count)))
                ON CONFLICT (practice_id,
                    name) DO UPDATE SET value = practice_counter.value + \(Int64(patients.count)) RETURNING value
                """, logger: self.logger
            ).decode(Int64.self) { last = value }
            let first = last - Int64(patients.count) + 1
            for start in stride(from: 0, to: patients.count, by: batch) {
                let rows = zip(patients[start..<min(start + batch, patients.count)], (first + Int64(start))...).map {
                    (patient: $0, number: MedicalRecordNumber.text($1))
                }
                try await connection.insert(
                    try rows.map {
                        try PatientRows.insert(
                            $0.patient, recordNumber: $0.number, practiceID: practiceID, archivedAt: nil, now: now)
                    }, logger: self.logger)
                var words: [(word: String, patient: Patient)] = []
                for (patient, number) in rows {
                    let owner = try ownersByID[patient.ownerID].orNotFound("owner")
                    words += PatientSearchTerms.words(
                        patient: patient, recordNumber: number, owner: owner,
                        coOwner: patient.coOwnerID.flatMap { ownersByID[$0] }, contacts: contacts
                    ).map { ($0, patient) }
                }
                try await connection.query(
                    """
                    INSERT INTO patient_word (practice_id, word, patient_id, name, species, status)
                    SELECT \(practiceID.rawValue), word, patient, name, species, status
                    FROM unnest(\(words.map(\.word))::text[], \(words.map(\.patient.id.rawValue))::uuid[],
                        \(words.map(\.patient.name))::text[], \(words.map(\.patient.species.rawValue))::text[],
                        \(words.map(\.patient.status.rawValue))::text[])
                         AS w(word, patient, name, species, status)
                    """, logger: self.logger)
                progress?(owners.count + start + rows.count, total)
            }
            try await self.appendAudit(audit, scope: scope, connection: connection)
            return (MedicalRecordNumber.text(first), MedicalRecordNumber.text(last))
        }
        // Fresh statistics, so the planner sees how selective a prefix is on the loaded rows
        // rather than on empty tables, and a fresh visibility map, so word ranges are read
        // from the index alone. Only the tables' owner may do this; a store connected as
        // another role leaves it to the autovacuum daemon.
        do {
            try await client.query("VACUUM (ANALYZE) owner, patient, patient_word", logger: logger)
        } catch {
            logger.warning(
                "could not analyze the loaded tables", metadata: ["error": "\(String(reflecting: type(of: error)))"])
        }
        return numbers
    }

}

/// Generated populations load through the same port on both stores.
extension PostgresStore: PopulationLoader {}
