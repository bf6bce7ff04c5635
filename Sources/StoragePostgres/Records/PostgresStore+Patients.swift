import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: PatientDirectory {
    // MARK: - Writing

    /// Creates a patient with the next record number, assigned in the same transaction
    /// (validated, audited, idempotent per key). The owners must belong to the practice.
    public func createPatient(_ patient: Patient, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws -> (
        Versioned<Patient>, replayed: Bool
    ) {
        try patient.validate(now: clock.now())
        let now = clock.now()
        return try await transaction(.practice(scope.practiceID)) { connection in
            let (id, replayed) = try await self.idempotent(
                connection: connection, scope: scope, key: idempotencyKey,
                operation: .patientCreate, resourceID: patient.id.description
            ) {
                try await self.insertPatient(patient, scope: scope, now: now, connection: connection)
                try await self.appendEvent(
                    patient.changeEvent(previous: nil, practiceID: scope.practiceID, occurredAt: now),
                    scope: scope, connection: connection)
            }
            guard let patientID = UUID(uuidString: id),
                let stored = try await self.patient(connection: connection, practiceID: scope.practiceID, id: patientID)
            else {
                throw DomainError.notFound(resource: "patient")
            }
            return (stored, replayed)
        }
    }

    /// Replaces a patient's details under optimistic concurrency. The record number never
    /// changes; the search words are rebuilt from the new details and the current owners.
    public func updatePatient(_ patient: Patient, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<
        Patient
    > {
        let now = clock.now()
        return try await transaction(.practice(scope.practiceID)) { connection in
            // Locked, so two instances updating at once compare against the same version.
            let update = try PatientUpdate.decide(
                patient,
                current: try await self.patient(
                    connection: connection, practiceID: scope.practiceID, id: patient.id.rawValue, forUpdate: true),
                expectedVersion: expectedVersion, scope: scope, now: now)
            let (owner, coOwner) = try await self.requireOwners(
                of: patient, practiceID: scope.practiceID, connection: connection)
            let updated = update.patient.value
            let words = PatientSearchTerms.words(
                patient: updated, recordNumber: updated.medicalRecordNumber ?? "", owner: owner, coOwner: coOwner,
                contacts: contactIndex(scope.practiceID))
            let change = try PatientRows.update(update, practiceID: scope.practiceID, now: now)
            do {
                try await connection.update(change, logger: self.logger)
            } catch let error as PSQLError where Self.isMicrochipConflict(error) {
                throw UniquenessConflict.patientMicrochip
            }
            try await connection.query(
                "DELETE FROM patient_word WHERE patient_id = \(updated.id.rawValue)", logger: self.logger)
            try await self.insertWords(words, of: updated, practiceID: scope.practiceID, connection: connection)
            try await self.appendAudit(update.audit, events: [update.event], scope: scope, connection: connection)
            return update.patient
        }
    }

    // MARK: - Reading

    /// One patient (audited read).
    public func patient(scope: AccessScope, id: Identifier<Patient>) async throws -> Versioned<Patient> {
        try await transaction(.practice(scope.practiceID)) { connection in
            let patient = try await self.patient(
                connection: connection, practiceID: scope.practiceID, id: id.rawValue
            ).orNotFound("patient")
            try await self.appendAudit(
                AuditRecord.patient(.patientRead, id.rawValue),
                scope: scope, connection: connection)
            return patient
        }
    }

    // MARK: - Rows

    /// Inserts a patient with its search words, audited: with `recordNumber` (a restored patient
    /// keeps its own), else the practice's next. A patient registered as archived starts its
    /// retention period now, unless `archivedAt` (a restored one's) says when it began.
    func insertPatient(
        _ patient: Patient, recordNumber given: String? = nil, archivedAt: Date? = nil, scope: AccessScope, now: Date,
        connection: PostgresConnection
    ) async throws {
        let (owner, coOwner) = try await requireOwners(
            of: patient, practiceID: scope.practiceID, connection: connection)
        let recordNumber: String
        if let given {
            recordNumber = given
        } else {
            recordNumber = try await nextMedicalRecordNumber(practiceID: scope.practiceID, connection: connection)
        }
        let words = PatientSearchTerms.words(
            patient: patient, recordNumber: recordNumber, owner: owner, coOwner: coOwner,
            contacts: contactIndex(scope.practiceID))
        let row = try PatientRows.insert(
            patient, recordNumber: recordNumber, practiceID: scope.practiceID, archivedAt: archivedAt, now: now)
        do {
            try await connection.insert(row, logger: logger)
        } catch let error as PSQLError where Self.isMicrochipConflict(error) {
            throw UniquenessConflict.patientMicrochip
        }
        try await insertWords(words, of: patient, practiceID: scope.practiceID, connection: connection)
        try await appendAudit(.patientCreated(patient.id), scope: scope, connection: connection)
    }

    /// Records a patient's search words (see ``PatientSearchTerms``), each with the name,
    /// species and status the search sorts and filters by.
    func insertWords(_ words: [String], of patient: Patient, practiceID: PracticeID, connection: PostgresConnection)
        async throws
    {
        guard !words.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO patient_word (practice_id, word, patient_id, name, species, status)
            SELECT \(practiceID.rawValue), word, \(patient.id.rawValue), \(patient.name), \(patient.species.rawValue),
                \(patient.status.rawValue)
            FROM unnest(\(words)::text[]) AS w(word)
            """, logger: logger)
    }

    /// The patient's owner and co-owner, which must belong to the practice.
    func requireOwners(of patient: Patient, practiceID: PracticeID, connection: PostgresConnection) async throws -> (
        Owner, Owner?
    ) {
        guard let owner = try await owner(connection: connection, practiceID: practiceID, id: patient.ownerID.rawValue)
        else {
            throw DomainError.notFound(resource: "owner")
        }
        guard let coOwnerID = patient.coOwnerID else { return (owner.value, nil) }
        guard let coOwner = try await self.owner(connection: connection, practiceID: practiceID, id: coOwnerID.rawValue)
        else {
            throw DomainError.notFound(resource: "owner")
        }
        return (owner.value, coOwner.value)
    }

    /// `P-000001`, `P-000002`, … per practice; gap-free because the counter row stays locked
    /// by the creating transaction until it commits or rolls back.
    func nextMedicalRecordNumber(practiceID: PracticeID, connection: PostgresConnection) async throws -> String {
        for try await value in try await connection.query(
            """
            INSERT INTO practice_counter (practice_id, name, value) VALUES (\(practiceID.rawValue), 'mrn', 1)
            ON CONFLICT (practice_id, name) DO UPDATE SET value = practice_counter.value + 1 RETURNING value
            """, logger: logger
        ).decode(Int64.self) {
            return MedicalRecordNumber.text(value)
        }
        throw StoreCorruption(column: "practice_counter.value", reason: "no value returned")
    }

    /// Whether `error` is the refusal of a microchip another patient of the practice has.
    static func isMicrochipConflict(_ error: PSQLError) -> Bool {
        error.sqlState == "23505" && error.serverInfo?[.constraintName] == "patient_microchip"
    }

    /// The patient columns every read selects (fifteen, named as ``PatientRows`` reads them).
    static let patientColumns = """
        p.id, p.mrn, p.name, p.species, p.breed, p.sex, to_char(p.birth_date, 'YYYY-MM-DD') AS birth_date,
        p.birth_date_estimated, p.colour, p.microchip, p.status, p.alerts::text AS alerts, p.owner_id, p.co_owner_id,
        p.version
        """

    /// The patient `id` of `practiceID`, or `nil`; `forUpdate` locks its row until commit.
    func patient(connection: PostgresConnection, practiceID: PracticeID, id: UUID, forUpdate: Bool = false) async throws
        -> Versioned<Patient>?
    {
        return try await connection.firstRow(
            """
            SELECT \(unescaped: Self.patientColumns) FROM patient p WHERE p.id = \(id)
                AND p.practice_id = \(practiceID.rawValue)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger
        ) { try PatientRows.patient(from: $0) }
    }
}
