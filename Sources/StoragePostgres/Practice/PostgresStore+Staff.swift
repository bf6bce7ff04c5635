import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: StaffDirectory {
    // MARK: - Writing

    /// Changes an account's role and/or disabled flag under optimistic concurrency (the row is
    /// locked, so two instances changing it take turns). Disabling revokes every session of
    /// the account in the same transaction; a role change needs no revocation, as every
    /// request reads the account's current role with its session.
    public func updateUser(scope: AccessScope, id: UserID, expectedVersion: Int?, role: Role?, disabled: Bool?)
        async throws -> StaffAccount
    {
        let nowMs = Timestamp.milliseconds(clock.now())
        return try await transaction(.practice(scope.practiceID)) { connection in
            let change = try StaffAccountChange.decide(
                try await self.account(practiceID: scope.practiceID, id: id, forUpdate: true, connection: connection),
                expectedVersion: expectedVersion, role: role, disabled: disabled)
            let account = change.account
            try await connection.query(
                """
                UPDATE staff_user SET role = \(account.role.rawValue), disabled = \(account.disabled),
                    version = \(account.version)
                WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                """, logger: logger)
            if change.revokesSessions {
                try await self.revokeSessions(of: id, practiceID: scope.practiceID, atMs: nowMs, connection: connection)
            }
            try await self.appendAudit(change.audit, scope: scope, connection: connection)
            return account
        }
    }

    /// Replaces an account's password hash and revokes its sessions (audited).
    public func setPassword(scope: AccessScope, id: UserID, passwordHash: String) async throws {
        let nowMs = Timestamp.milliseconds(clock.now())
        try await transaction(.practice(scope.practiceID)) { connection in
            var found = false
            for try await _ in try await connection.query(
                """
                UPDATE staff_user SET password_hash = \(passwordHash), version = version + 1
                WHERE id = \(id.rawValue) AND practice_id = \(scope.practiceID.rawValue) RETURNING 1
                """, logger: logger)
            { found = true }
            guard found else { throw DomainError.notFound(resource: "user") }
            try await self.revokeSessions(of: id, practiceID: scope.practiceID, atMs: nowMs, connection: connection)
            try await self.appendAudit(
                AuditRecord.user(.userPasswordChange, id),
                scope: scope, connection: connection)
        }
    }

    private func revokeSessions(of id: UserID, practiceID: PracticeID, atMs: Int64, connection: PostgresConnection)
        async throws
    {
        try await connection.query(
            """
            UPDATE session SET revoked_at_ms = \(atMs)
            WHERE user_id = \(id.rawValue) AND practice_id = \(practiceID.rawValue) AND revoked_at_ms IS NULL
            """, logger: logger)
    }

    // MARK: - Reading

    /// One account of the scope's practice (an audited read); another practice's id is not found.
    public func user(scope: AccessScope, id: UserID) async throws -> StaffAccount {
        try await transaction(.practice(scope.practiceID)) { connection in
            let account = try await self.account(
                practiceID: scope.practiceID, id: id, forUpdate: false, connection: connection
            ).orNotFound("user")
            try await self.appendAudit(
                AuditRecord.user(.userRead, id),
                scope: scope, connection: connection)
            return account
        }
    }

    public func user(scope: AccessScope, email: String) async throws -> StaffAccount? {
        try await transaction(.practice(scope.practiceID)) { connection in
            return try await connection.firstRow(
                """
                SELECT \(unescaped: Self.staffColumns) FROM staff_user
                WHERE email = \(email.lowercased()) AND practice_id = \(scope.practiceID.rawValue)
                """, logger: logger
            ) { try Self.account(from: $0).0 }
        }
    }

    /// The practice's accounts by name then id (names compared by code point, as the embedded
    /// store compares them, whatever the database's locale); the cursor is the page's last id.
    public func users(scope: AccessScope, limit: Int, after cursor: String?) async throws -> Page<StaffAccount> {
        let limit = max(0, limit)
        return try await transaction(.practice(scope.practiceID)) { connection in
            let after = try await cursor.asyncMap {
                try await self.cursorRow($0, in: "staff_user", practiceID: scope.practiceID, connection: connection)
            }
            let accounts: [StaffAccount] = try await connection.rows(
                """
                SELECT \(unescaped: Self.staffColumns) FROM staff_user u
                WHERE u.practice_id = \(scope.practiceID.rawValue)
                  AND (\(after)::uuid IS NULL OR (u.display_name COLLATE "C", u.id) >
                       (SELECT c.display_name COLLATE "C",
                           c.id FROM staff_user c WHERE c.id = \(after)
                           AND c.practice_id = \(scope.practiceID.rawValue)))
                ORDER BY u.display_name COLLATE "C", u.id LIMIT \(Int64(limit) + 1)
                """, logger: logger
            ) { try Self.account(from: $0).0 }
            return Page(fetched: accounts, limit: limit) { $0.id.description }
        }
    }

    static let staffColumns = "id, practice_id, email, display_name, role, disabled, created_at, version, password_hash"

    private func account(practiceID: PracticeID, id: UserID, forUpdate: Bool, connection: PostgresConnection)
        async throws -> StaffAccount?
    {
        return try await connection.firstRow(
            """
            SELECT \(unescaped: Self.staffColumns) FROM staff_user WHERE id = \(id.rawValue)
                AND practice_id = \(practiceID.rawValue)
            \(unescaped: forUpdate ? "FOR UPDATE" : "")
            """, logger: logger
        ) { try Self.account(from: $0).0 }
    }
}
