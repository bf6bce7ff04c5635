import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Writing

    /// Creates an owner in the scope's practice (validated, audited, idempotent per key).
    public func createOwner(_ owner: Owner, scope: AccessScope, idempotencyKey: IdempotencyKey? = nil) async throws -> (
        Versioned<Owner>, replayed: Bool
    ) {
        try owner.validate()
        return try await write { db in
            let (id, replayed) = try self.idempotent(db: db, scope: scope, key: idempotencyKey, operation: .ownerCreate)
            {
                try self.insertOwner(owner, db: db, scope: scope)
                try self.appendEvent(
                    owner.changeEvent(isNew: true, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                    scope: scope, db: db)
                return owner.id.description
            }
            let stored = try self.owner(db: db, practiceID: scope.practiceID, id: id).orNotFound("owner")
            return (stored, replayed)
        }
    }

    /// Creates an owner (system helper kept for seeding and tests).
    @discardableResult
    public func createOwner(_ owner: Owner, scope: AccessScope) async throws -> Owner {
        try await createOwner(owner, scope: scope, idempotencyKey: nil).0.value
    }

    /// Replaces an owner's details under optimistic concurrency; re-indexes their patients for search.
    public func updateOwner(_ owner: Owner, scope: AccessScope, expectedVersion: Int?) async throws -> Versioned<Owner>
    {
        try owner.validate()
        return try await write { db in
            let current = try self.owner(db: db, practiceID: scope.practiceID, id: owner.id.description).orNotFound(
                "owner")
            if let expectedVersion, expectedVersion != current.version {
                throw DomainError.versionMismatch(current: current.version)
            }
            try db.execute(
                sql: """
                    UPDATE owner SET first_name = ?, last_name = ?, updated_at = ?, version = version + 1
                    WHERE id = ? AND practice_id = ?
                    """,
                arguments: [
                    owner.firstName, owner.lastName, Timestamp.string(self.clock.now()), owner.id.description,
                    scope.practiceID.description,
                ])
            // The names first: the contact details' write re-indexes the owner's patients.
            try self.writeContactDetails(of: owner, practiceID: scope.practiceID, db: db)
            try self.appendAudit(
                AuditRecord(action: .ownerUpdate, resourceType: .owner, resourceID: owner.id.description),
                scope: scope, db: db)
            try self.appendEvent(
                owner.changeEvent(isNew: false, practiceID: scope.practiceID, occurredAt: self.clock.now()),
                scope: scope, db: db)
            return Versioned(owner, version: current.version + 1)
        }
    }

    // MARK: - Reading

    /// One owner (audited read).
    public func owner(scope: AccessScope, id: Identifier<Owner>) async throws -> Versioned<Owner> {
        try await write { db in
            let owner = try self.owner(db: db, practiceID: scope.practiceID, id: id.description).orNotFound("owner")
            try self.appendAudit(
                AuditRecord(action: .ownerRead, resourceType: .owner, resourceID: id.description), scope: scope, db: db
            )
            return owner
        }
    }

    /// Number of owners in the scope's practice.
    public func ownerCount(scope: AccessScope) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM owner WHERE practice_id = ?", arguments: [scope.practiceID.description])
                ?? 0
        }
    }

    // MARK: - Rows

    func insertOwner(_ owner: Owner, db: Database, scope: AccessScope) throws {
        let columns = try ownerColumns(owner, practiceID: scope.practiceID)
        let now = Timestamp.string(clock.now())
        try db.execute(
            sql: """
                INSERT INTO owner (id, practice_id, first_name, last_name, email, phones, contact_tokens, address,
                    communication,
                                   notes, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                owner.id.description, scope.practiceID.description, owner.firstName, owner.lastName, columns.email,
                columns.phones, columns.tokens, columns.address, columns.communication, columns.notes, now, now,
            ])
        try appendAudit(
            AuditRecord(action: .ownerCreate, resourceType: .owner, resourceID: owner.id.description), scope: scope,
            db: db)
    }

    /// An owner's columns as stored: the contact details sealed, their search tokens (see
    /// ``ContactSearchIndex``) marked and space-separated.
    func ownerColumns(_ owner: Owner, practiceID: PracticeID) throws -> (
        email: String?, phones: String, tokens: String, address: String?, communication: String, notes: String?
    ) {
        let stored = try StoredOwnerColumns(owner, seal: fieldSeal(practiceID))
        let tokens = ContactSearchIndex(cipher: cipher, practiceID: practiceID).tokens(of: owner)
        return (
            stored.email, stored.phones, tokens.map { Self.contactTokenMark + $0 }.joined(separator: " "),
            stored.address, stored.communication, stored.notes
        )
    }

    /// Rewrites an owner's contact details, sealed, with their search tokens, and re-indexes
    /// their patients (an update, and the sealing of details written before sealing began).
    func writeContactDetails(of owner: Owner, practiceID: PracticeID, db: Database) throws {
        let columns = try ownerColumns(owner, practiceID: practiceID)
        try db.execute(
            sql: """
                UPDATE owner SET email = ?, phones = ?, contact_tokens = ?, address = ?, communication = ?, notes = ?
                WHERE id = ? AND practice_id = ?
                """,
            arguments: [
                columns.email, columns.phones, columns.tokens, columns.address, columns.communication, columns.notes,
                owner.id.description, practiceID.description,
            ])
        for patientID in try String.fetchAll(
            db, sql: "SELECT id FROM patient WHERE (owner_id = ? OR co_owner_id = ?) AND practice_id = ?",
            arguments: [owner.id.description, owner.id.description, practiceID.description])
        {
            try Self.reindexPatient(db: db, id: patientID)
        }
    }

    func owner(db: Database, practiceID: PracticeID, id: String) throws -> Versioned<Owner>? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM owner WHERE id = ? AND practice_id = ?", arguments: [id, practiceID.description]
        ).map(owner(from:))
    }

    /// An owner from its row, the contact details opened.
    func owner(from row: Row) throws -> Versioned<Owner> {
        try StoredOwnerColumns.owner(from: row, seal: try fieldSeal(row: row))
    }
}
