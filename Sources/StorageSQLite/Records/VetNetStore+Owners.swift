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
            try self.writeOwner(
                StoredOwnerColumns.update(owner, seal: self.fieldSeal(scope.practiceID), now: self.clock.now()),
                of: owner, practiceID: scope.practiceID, db: db)
            try self.appendAudit(
                AuditRecord.owner(.ownerUpdate, owner.id),
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
                AuditRecord.owner(.ownerRead, id), scope: scope, db: db
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
        try db.insert(
            StoredOwnerColumns.insert(owner, seal: fieldSeal(scope.practiceID), now: clock.now())
                .setting("contact_tokens", .text(contactTokens(of: owner, practiceID: scope.practiceID))))
        try appendAudit(
            AuditRecord.owner(.ownerCreate, owner.id), scope: scope,
            db: db)
    }

    /// The owner's contact search tokens (see ``ContactSearchIndex``), marked and
    /// space-separated, for the embedded store's full-text index.
    func contactTokens(of owner: Owner, practiceID: PracticeID) -> String {
        ContactSearchIndex(cipher: cipher, practiceID: practiceID).tokens(of: owner)
            .map { Self.contactTokenMark + $0 }.joined(separator: " ")
    }

    /// Writes `change` to `owner`'s row with its contact search tokens, and indexes the
    /// owner's patients again (their rows search by the owner's contact details).
    func writeOwner(_ change: StoredUpdate, of owner: Owner, practiceID: PracticeID, db: Database) throws {
        try db.update(change.setting("contact_tokens", .text(contactTokens(of: owner, practiceID: practiceID))))
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
