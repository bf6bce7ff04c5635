import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: AccountRepository {
    // MARK: - Practices

    public func createPractice(
        _ profile: PracticeProfile, administrator: FirstAdministrator,
        requestID: String? = nil
    ) async throws -> (PracticeProfile, StaffAccount) {
        let now = clock.now()
        let account = try administrator.account(of: profile, createdAt: now)
        let scope = AccessScope.system(profile.id, requestID: requestID)
        do {
            try await transaction(.practice(profile.id)) { connection in
                try await self.insertPractice(profile, at: now, scope: scope, connection: connection)
                try await connection.insert(
                    AccountRows.insert(account, passwordHash: administrator.passwordHash), logger: self.logger)
                try await self.appendAudit(.accountCreated(account, first: true), scope: scope, connection: connection)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            // Two instances creating the same name at once: the unique index decides.
            throw UniquenessConflict.practiceName
        }
        return (profile, account)
    }

    /// Creates a practice with no staff account (system action, audited); its name must be
    /// free on the installation (the unique index decides, so two instances cannot both take it).
    public func createPractice(_ profile: PracticeProfile, requestID: String? = nil) async throws {
        try profile.validate()
        let now = clock.now()
        do {
            try await transaction(.practice(profile.id)) { connection in
                try await self.insertPractice(
                    profile, at: now, scope: .system(profile.id, requestID: requestID), connection: connection)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw UniquenessConflict.practiceName
        }
    }

    /// Inserts the practice's row and its audit entry.
    private func insertPractice(
        _ profile: PracticeProfile, at now: Date, scope: AccessScope, connection: PostgresConnection
    ) async throws {
        let profileJSON = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
        try await connection.query(
            """
            INSERT INTO practice (id, name, time_zone, profile, created_at)
            VALUES (\(profile.id.rawValue), \(profile.name), \(profile.timeZone), \(profileJSON)::jsonb, \(now))
            """, logger: logger)
        try await appendAudit(
            AuditRecord.practice(.practiceCreate, profile.id),
            scope: scope, connection: connection)
    }

    public func createUser(scope: AccessScope, email: String, displayName: String, role: Role, passwordHash: String)
        async throws -> StaffAccount
    {
        let account = try StaffAccount.new(
            email: email, displayName: displayName, role: role, practiceID: scope.practiceID, createdAt: clock.now())
        do {
            try await transaction(.practice(scope.practiceID)) { connection in
                try await connection.insert(
                    AccountRows.insert(account, passwordHash: passwordHash), logger: self.logger)
                try await self.appendAudit(.accountCreated(account), scope: scope, connection: connection)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            // UNIQUE (practice_id, email): decided by the database, so two instances cannot both create it.
            throw UniquenessConflict.accountEmail
        }
        return account
    }

    public func practice(id: PracticeID) async throws -> PracticeProfile? {
        try await transaction(.practice(id)) { connection in
            let rows = try await connection.query(
                "SELECT profile::text FROM practice WHERE id = \(id.rawValue)", logger: logger)
            for try await text in rows.decode(String.self) {
                guard let profile = try? JSONDecoder().decode(PracticeProfile.self, from: Data(text.utf8)) else {
                    throw StoreCorruption(column: "practice.profile", reason: "not a practice profile")
                }
                return profile
            }
            return nil
        }
    }

    // MARK: - Credentials

    public func credentials(email: String) async throws -> [StoredCredentials] {
        // Sign-in does not know the practice yet: the only installation-wide read of accounts,
        // through the owner's function (the serving role cannot act for the installation).
        try await transaction(.installation) { connection in
            try await connection.rows(
                """
                SELECT id, practice_id, email, display_name, role, disabled, created_at, version, password_hash
                FROM vetnet_credentials(\(email.lowercased()), \(StoredCredentials.maxPerEmail))
                """, logger: logger
            ) {
                let (account, hash) = try Self.account(from: $0)
                return StoredCredentials(account: account, passwordHash: hash)
            }
        }
    }

    // MARK: - Sessions

    public func createSession(
        tokenHash: String, account: StaffAccount, assurance: SessionAssurance, policy: SessionPolicy,
        requestID: String?, detail: String?
    ) async throws -> Date {
        let session = AccountRows.session(
            tokenHash: tokenHash, account: account, assurance: assurance, policy: policy, now: clock.now())
        try await transaction(.practice(account.practiceID)) { connection in
            try await connection.insert(session.row, logger: self.logger)
            try await self.appendAudit(
                .signedIn(account, detail: detail), scope: AccessScope(account: account, requestID: requestID),
                connection: connection)
        }
        return session.expiresAt
    }

    public func liveSession(tokenHash: String, check: SessionCheck) async throws -> StoredSession? {
        // A token names its session before its practice is known; the match is by its hash.
        try await transaction(.installation) { connection in
            try await connection.firstRow(
                """
                SELECT id, practice_id, email, display_name, role, disabled, created_at, version, password_hash,
                    last_seen_at_ms, expires_at_ms,
                       second_factor, must_enrol
                FROM vetnet_session(\(tokenHash), \(check.nowMilliseconds), \(check.idleMilliseconds))
                """, logger: logger
            ) { columns in
                StoredSession(
                    account: try AccountRows.account(from: columns),
                    lastSeenMilliseconds: try columns[9].decode(Int64.self),
                    expiresAtMilliseconds: try columns[10].decode(Int64.self),
                    assurance: SessionAssurance(
                        secondFactor: try columns[11].decode(Bool.self),
                        mustEnrolSecondFactor: try columns[12].decode(Bool.self)))
            }
        }
    }

    public func touchSession(tokenHash: String, practiceID: PracticeID, at milliseconds: Int64) async throws {
        _ = try await transaction(.practice(practiceID)) { connection in
            try await connection.query(
                """
                UPDATE session SET last_seen_at_ms = GREATEST(last_seen_at_ms, \(milliseconds))
                WHERE token_hash = \(tokenHash) AND practice_id = \(practiceID.rawValue) AND revoked_at_ms IS NULL
                """, logger: logger)
        }
    }

    public func revokeSession(tokenHash: String, scope: AccessScope) async throws {
        let nowMs = Timestamp.milliseconds(clock.now())
        try await transaction(.practice(scope.practiceID)) { connection in
            try await connection.query(
                """
                UPDATE session SET revoked_at_ms = \(nowMs)
                WHERE token_hash = \(tokenHash) AND practice_id = \(scope.practiceID.rawValue) AND revoked_at_ms IS NULL
                """, logger: logger)
            try await self.appendAudit(
                .signedOut(scope), scope: scope, connection: connection)
        }
    }

    @discardableResult
    public func pruneSessions(policy: SessionPolicy) async throws -> Int {
        let check = SessionCheck(now: clock.now(), policy: policy)
        let (nowMs, idleMs) = (check.nowMilliseconds, check.idleMilliseconds)
        return try await transaction(.installation) { connection in
            for try await count in try await connection.query(
                "SELECT vetnet_prune_sessions(\(nowMs), \(idleMs))", logger: logger
            )
            .decode(Int64.self) { return Int(count) }
            return 0
        }
    }

    // MARK: - Rows

    /// The account in `row` (the columns of `staff_user`) and its password hash.
    static func account(from columns: PostgresRandomAccessRow) throws -> (StaffAccount, passwordHash: String) {
        (
            try AccountRows.account(from: columns),
            try StoredColumns(columns, table: "staff_user").text("password_hash")
        )
    }
}

extension PSQLError {
    /// The server's SQLSTATE code (e.g. `23505` unique violation, `23P01` exclusion violation).
    var sqlState: String? { serverInfo?[.sqlState] }
}
