import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension VetNetStore {
    /// Sign-in checks the password against each account of an address; this bounds that work.
    public static let maxAccountsPerEmail = StoredCredentials.maxPerEmail

    // MARK: - Writing

    /// Creates a staff account in the scope's practice (audited). The email must be unused.
    public func createUser(scope: AccessScope, email: String, displayName: String, role: Role, passwordHash: String)
        async throws -> StaffAccount
    {
        let account = try StaffAccount.new(
            email: email, displayName: displayName, role: role, practiceID: scope.practiceID, createdAt: clock.now())
        return try await write { db in
            // Only this practice's accounts count: whether an address is used elsewhere on the
            // installation is none of this practice's business.
            if try
                (Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM staff_user WHERE email = ? AND practice_id = ?",
                    arguments: [account.email, scope.practiceID.description]) ?? 0) > 0
            {
                throw UniquenessConflict.accountEmail
            }
            try db.insert(AccountRows.insert(account, passwordHash: passwordHash))
            try self.appendAudit(.accountCreated(account), scope: scope, db: db)
            return account
        }
    }

    /// Changes an account's role and/or disabled flag under optimistic concurrency. Disabling
    /// revokes every session of the account in the same transaction.
    public func updateUser(scope: AccessScope, id: UserID, expectedVersion: Int?, role: Role?, disabled: Bool?)
        async throws -> StaffAccount
    {
        try await write { db in
            let change = try StaffAccountChange.decide(
                try Self.user(db: db, practiceID: scope.practiceID, id: id), expectedVersion: expectedVersion,
                role: role, disabled: disabled)
            let account = change.account
            try db.execute(
                sql: "UPDATE staff_user SET role = ?, disabled = ?, version = ? WHERE id = ? AND practice_id = ?",
                arguments: [
                    account.role.rawValue, account.disabled, account.version, id.description,
                    scope.practiceID.description,
                ])
            if change.revokesSessions {
                try db.execute(
                    sql: "UPDATE session SET revoked_at_ms = ? WHERE user_id = ? AND revoked_at_ms IS NULL",
                    arguments: [Timestamp.milliseconds(self.clock.now()), id.description])
            }
            try self.appendAudit(change.audit, scope: scope, db: db)
            return account
        }
    }

    /// Replaces an account's password hash and revokes its sessions (audited).
    public func setPassword(scope: AccessScope, id: UserID, passwordHash: String) async throws {
        try await write { db in
            guard try Self.user(db: db, practiceID: scope.practiceID, id: id) != nil else {
                throw DomainError.notFound(resource: "user")
            }
            try db.execute(
                sql: "UPDATE staff_user SET password_hash = ?, version = version + 1 WHERE id = ? AND practice_id = ?",
                arguments: [passwordHash, id.description, scope.practiceID.description])
            try db.execute(
                sql: "UPDATE session SET revoked_at_ms = ? WHERE user_id = ? AND revoked_at_ms IS NULL",
                arguments: [Timestamp.milliseconds(self.clock.now()), id.description])
            try self.appendAudit(
                AuditRecord.user(.userPasswordChange, id),
                scope: scope, db: db)
        }
    }

    // MARK: - Reading

    /// One account of the scope's practice (audited read); another practice's id is not found.
    public func user(scope: AccessScope, id: UserID) async throws -> StaffAccount {
        try await write { db in
            let account = try Self.user(db: db, practiceID: scope.practiceID, id: id).orNotFound("user")
            try self.appendAudit(
                AuditRecord.user(.userRead, id), scope: scope, db: db)
            return account
        }
    }

    /// The scope's practice's accounts ordered by name then id; the cursor is the last id of the page.
    public func users(scope: AccessScope, limit: Int, after cursor: String?) async throws -> Page<StaffAccount> {
        try await writer.read { db in
            var sql = "SELECT * FROM staff_user WHERE practice_id = ?"
            var arguments: StatementArguments = [scope.practiceID.description]
            if let cursor {
                sql +=
                    """
                     AND (display_name, id) > (SELECT display_name, id FROM staff_user WHERE id = ? AND practice_id = ?)
                    """
                arguments += [
                    try Self.cursorRow(cursor, in: "staff_user", db: db, scope: scope), scope.practiceID.description,
                ]
            }
            sql += " ORDER BY display_name, id LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return Page(fetched: try rows.map(AccountRows.account(from:)), limit: limit) { $0.id.description }
        }
    }

    /// The accounts with this email, in every practice (an address is unique within a
    /// practice only), oldest first, at most ``maxAccountsPerEmail``. Deliberately unscoped: the
    /// practice is not known before the user has signed in.
    public func credentials(email: String) async throws -> [StoredCredentials] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM staff_user WHERE email = ? ORDER BY created_at, id LIMIT ?",
                arguments: [email.lowercased(), Self.maxAccountsPerEmail]
            ).map {
                StoredCredentials(
                    account: try AccountRows.account(from: $0), passwordHash: try $0.read("password_hash"))
            }
        }
    }

    /// An account by email within the scope's practice (command-line tools).
    public func user(scope: AccessScope, email: String) async throws -> StaffAccount? {
        try await writer.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM staff_user WHERE email = ? AND practice_id = ?",
                arguments: [email.lowercased(), scope.practiceID.description]
            ).map(AccountRows.account(from:))
        }
    }

    static func user(db: Database, practiceID: PracticeID, id: UserID) throws -> StaffAccount? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM staff_user WHERE id = ? AND practice_id = ?",
            arguments: [id.description, practiceID.description]
        ).map(AccountRows.account(from:))
    }
}
