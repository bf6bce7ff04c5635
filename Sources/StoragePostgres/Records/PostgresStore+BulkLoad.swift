import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    /// Loads many owners and patients into the scope's practice in one transaction, for
    /// performance data sets, as the embedded store's `bulkLoad` does: consecutive record
    /// numbers, search words computed exactly as single writes compute them, and one
    /// `practice.bulk_load` audit entry instead of one per row (the rows are generated, not
    /// clinical work to account for). Rows go in as multi-row inserts of `unnest`ed arrays,
    /// a few thousand per statement.
    ///
    /// Every value is validated; each patient's owners must be among `owners`. Optional text
    /// travels as an empty string for `NULL`, so an empty optional field is loaded as absent.
    /// Returns the first and last record numbers assigned.
    @discardableResult
    public func bulkLoad(
        owners: [Owner], patients: [Patient], scope: AccessScope, progress: ImportProgressHandler? = nil
    ) async throws -> (first: String, last: String)? {
        let now = clock.now()
        let ownersByID = try PopulationLoad.validate(owners: owners, patients: patients, now: now)
        let practice = scope.practiceID.rawValue
        let batch = 2_000
        let total = owners.count + patients.count
        let contacts = contactIndex(scope.practiceID)
        let numbers = try await transaction(.practice(scope.practiceID)) {
            connection -> (first: String, last: String)? in
            for start in stride(from: 0, to: owners.count, by: batch) {
                let rows = owners[start..<min(start + batch, owners.count)]
                let columns = try rows.map { try self.ownerColumns($0, practiceID: scope.practiceID) }
                try await connection.query(
                    """
                    INSERT INTO owner (id, practice_id, first_name, last_name, email, phones, address, communication,
                        notes, created_at, updated_at)
                    SELECT id, \(practice), first, last, NULLIF(email, ''), phones, NULLIF(address, ''),
                        communication::jsonb,
                           NULLIF(notes, ''), \(now), \(now)
                    FROM unnest(\(rows.map(\.id.rawValue))::uuid[], \(rows.map(\.firstName))::text[],
                        \(rows.map(\.lastName))::text[],
                                \(columns.map { $0.email ?? "" })::text[], \(columns.map(\.phones))::text[],
                                    \(columns.map { $0.address ?? "" })::text[],
                                \(columns.map(\.communication))::text[], \(columns.map { $0.notes ?? "" })::text[])
                         AS o(id, first, last, email, phones, address, communication, notes)
                    """, logger: self.logger)
                progress?(start + rows.count, total)
            }
            guard !patients.isEmpty else {
                try await self.appendAudit(
                    PopulationLoad.auditRecord(owners: owners.count, patients: 0, practiceID: scope.practiceID),
                    scope: scope, connection: connection)
                return nil
            }
            var last: Int64 = 0
            for try await value in try await connection.query(
                """
                INSERT INTO practice_counter (practice_id, name, value) VALUES (\(practice), 'mrn',
                    \(Int64(patients.count)))
                ON CONFLICT (practice_id,
                    name) DO UPDATE SET value = practice_counter.value + \(Int64(patients.count)) RETURNING value
                """, logger: self.logger
            ).decode(Int64.self) { last = value }
            let first = last - Int64(patients.count) + 1
            for start in stride(from: 0, to: patients.count, by: batch) {
                let rows = Array(patients[start..<min(start + batch, patients.count)])
                let numbers = rows.indices.map { MedicalRecordNumber.text(first + Int64(start + $0)) }
                var wordPatients: [UUID] = []
                var words: [String] = []
                var names: [String] = []
                var species: [String] = []
                var statuses: [String] = []
                for (patient, number) in zip(rows, numbers) {
                    let owner = try ownersByID[patient.ownerID].orNotFound("owner")
                    for word in PatientSearchTerms.words(
                        patient: patient, recordNumber: number, owner: owner,
                        coOwner: patient.coOwnerID.flatMap { ownersByID[$0] }, contacts: contacts)
                    {
                        wordPatients.append(patient.id.rawValue)
                        words.append(word)
                        names.append(patient.name)
                        species.append(patient.species.rawValue)
                        statuses.append(patient.status.rawValue)
                    }
                }
                try await connection.query(
                    """
                    INSERT INTO patient (id, practice_id, mrn, name, species, breed, sex, birth_date,
                        birth_date_estimated, colour, microchip,
                                         status, alerts, owner_id, co_owner_id, archived_at, created_at, updated_at)
                    SELECT id, \(practice), mrn, name, species, NULLIF(breed, ''), sex, NULLIF(birth, '')::date,
                        estimated, NULLIF(colour, ''),
                           NULLIF(chip, ''), status, alerts::jsonb, owner, NULLIF(co_owner, '')::uuid,
                           CASE WHEN status = 'archived' THEN \(now)::timestamptz END, \(now), \(now)
                    FROM unnest(\(rows.map(\.id.rawValue))::uuid[], \(numbers)::text[], \(rows.map(\.name))::text[],
                                \(rows.map(\.species.rawValue))::text[], \(rows.map { $0.breed ?? "" })::text[],
                                    \(rows.map(\.sex.rawValue))::text[],
                                \(rows.map { $0.birthDate.map { RecordCalendar.isoDay($0) } ?? "" })::text[],
                                    \(rows.map(\.birthDateEstimated))::boolean[],
                                \(rows.map { $0.colour ?? "" })::text[], \(rows.map { $0.microchip ?? "" })::text[],
                                \(rows.map(\.status.rawValue))::text[],
                                    \(try rows.map { try Self.json($0.alerts) })::text[],
                                \(rows.map(\.ownerID.rawValue))::uuid[],
                                    \(rows.map { $0.coOwnerID?.description ?? "" })::text[])
                         AS p(id, mrn, name, species, breed, sex, birth, estimated, colour, chip, status, alerts, owner,
                             co_owner)
                    """, logger: self.logger)
                try await connection.query(
                    """
                    INSERT INTO patient_word (practice_id, word, patient_id, name, species, status)
                    SELECT \(practice), word, patient, name, species, status
                    FROM unnest(\(words)::text[], \(wordPatients)::uuid[], \(names)::text[], \(species)::text[],
                        \(statuses)::text[])
                         AS w(word, patient, name, species, status)
                    """, logger: self.logger)
                progress?(owners.count + start + rows.count, total)
            }
            try await self.appendAudit(
                PopulationLoad.auditRecord(
                    owners: owners.count, patients: patients.count, practiceID: scope.practiceID), scope: scope,
                connection: connection)
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
