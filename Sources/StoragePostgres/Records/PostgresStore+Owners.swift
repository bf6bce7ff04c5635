import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore {
    // MARK: - Writing

    /// Creates an owner in the scope's practice (validated, audited, idempotent per key).
    public func createOwner(_ owner: Owner, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws -> (
        Versioned<Owner>, replayed: Bool
    ) {
        try owner.validate()
        let now = clock.now()
        return try await transaction(.practice(scope.practiceID)) { connection in
            let (id, replayed) = try await self.idempotent(
                connection: connection, scope: scope, key: idempotencyKey,
                operation: .ownerCreate, resourceID: owner.id.description
            ) {
                try await self.insertOwner(owner, scope: scope, now: now, connection: connection)
                try await self.appendEvent(
                    owner.changeEvent(isNew: true, practiceID: scope.practiceID, occurredAt: now),
                    scope: scope, connection: connection)
            }
            guard let ownerID = UUID(uuidString: id),
                let stored = try await self.owner(connection: connection, practiceID: scope.practiceID, id: ownerID)
            else {
                throw DomainError.notFound(resource: "owner")
            }
            return (stored, replayed)
        }
    }

    /// Replaces an owner's details under optimistic concurrency (the row is locked, so two
    /// instances saving the same version take turns and the second is refused), and rebuilds
    /// the search words of the patients they own or co-own. Audited, with its event.
    public func updateOwner(_ owner: Owner, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<Owner>
    {
        try owner.validate()
        let now = clock.now()
        // A deadlock with a patient update of the same household is run again.
        return try await retryingTransientFailures {
            try await transaction(.practice(scope.practiceID)) { connection in
                let current = try await self.owner(
                    connection: connection, practiceID: scope.practiceID, id: owner.id.rawValue,
                    forUpdate: true
                ).orNotFound("owner")
                if let expectedVersion, expectedVersion != current.version {
                    throw DomainError.versionMismatch(current: current.version)
                }
                try await connection.update(
                    StoredOwnerColumns.update(owner, seal: self.fieldSeal(scope.practiceID), now: now),
                    logger: self.logger)
                try await self.reindexPatients(
                    ofOwner: owner.id.rawValue, practiceID: scope.practiceID, connection: connection)
                try await self.appendAudit(
                    AuditRecord.owner(.ownerUpdate, owner.id),
                    scope: scope, connection: connection)
                try await self.appendEvent(
                    owner.changeEvent(isNew: false, practiceID: scope.practiceID, occurredAt: now),
                    scope: scope, connection: connection)
                return Versioned(owner, version: current.version + 1)
            }
        }
    }

    // MARK: - Reading

    /// One owner (audited read).
    public func owner(scope: AccessScope, id: Identifier<Owner>) async throws -> Versioned<Owner> {
        try await transaction(.practice(scope.practiceID)) { connection in
            let owner = try await self.owner(connection: connection, practiceID: scope.practiceID, id: id.rawValue)
                .orNotFound("owner")
            try await self.appendAudit(
                AuditRecord.owner(.ownerRead, id),
                scope: scope, connection: connection)
            return owner
        }
    }

    // MARK: - Rows

    /// Rebuilds the search words of the patients an owner owns or co-owns (their names, phone
    /// numbers and email addresses are words of each). The patients' rows are locked as a
    /// patient update locks them, so an update of one of them on another instance either
    /// finishes first or, after this commits, reads the new details.
    func reindexPatients(ofOwner ownerID: UUID, practiceID: PracticeID, connection: PostgresConnection) async throws {
        var patientIDs: [UUID] = []
        for try await id in try await connection.query(
            """
            SELECT id FROM patient WHERE practice_id = \(practiceID.rawValue)
              AND (owner_id = \(ownerID) OR co_owner_id = \(ownerID)) ORDER BY id FOR UPDATE
            """, logger: logger
        ).decode(UUID.self) { patientIDs.append(id) }
        for id in patientIDs {
            guard let patient = try await self.patient(connection: connection, practiceID: practiceID, id: id)?.value
            else { continue }
            let (first, co) = try await requireOwners(of: patient, practiceID: practiceID, connection: connection)
            let words = PatientSearchTerms.words(
                patient: patient, recordNumber: patient.medicalRecordNumber ?? "", owner: first, coOwner: co,
                contacts: contactIndex(practiceID))
            try await connection.query("DELETE FROM patient_word WHERE patient_id = \(id)", logger: logger)
            try await insertWords(words, of: patient, practiceID: practiceID, connection: connection)
        }
    }

    /// Inserts an owner with its audit entry, in the caller's transaction (creates and imports).
    func insertOwner(_ owner: Owner, scope: AccessScope, now: Date, connection: PostgresConnection) async throws {
        try await connection.insert(
            StoredOwnerColumns.insert(owner, seal: fieldSeal(scope.practiceID), now: now), logger: logger)
        try await appendAudit(
            AuditRecord.owner(.ownerCreate, owner.id),
            scope: scope, connection: connection)
    }

    /// The owner `id` of `practiceID`, or `nil`; `forUpdate` locks its row until commit (not its
    /// key: a patient being linked to the owner meanwhile need not wait).
    func owner(connection: PostgresConnection, practiceID: PracticeID, id: UUID, forUpdate: Bool = false) async throws
        -> Versioned<Owner>?
    {
        return try await connection.firstRow(
            """
            SELECT id, first_name, last_name, email, phones::text, address::text, communication::text, notes, version
            FROM owner WHERE id = \(id) AND practice_id = \(practiceID.rawValue)
            \(unescaped: forUpdate ? "FOR NO KEY UPDATE" : "")
            """, logger: logger
        ) { try self.owner(from: $0, practiceID: practiceID) }
    }

    /// The owner in `row` (the nine columns ``owner(connection:practiceID:id:forUpdate:)`` selects).
    func owner(from row: PostgresRandomAccessRow, practiceID: PracticeID) throws -> Versioned<Owner> {
        try StoredOwnerColumns.owner(from: row, seal: fieldSeal(practiceID))
    }
}
