import Foundation
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts

extension PostgresStore: PracticeSettingsRepository {
    // MARK: - Changing

    /// Applies `change` under optimistic concurrency: the practice row is locked first, so two
    /// instances changing the settings at once take turns and the second sees the first's
    /// version. The domain decides what may change (a time-zone change is refused while
    /// appointments are to come); after a change of hours the appointments left outside them
    /// are returned for re-planning. Audited and published with the change.
    public func updatePractice(_ change: PracticeSettingsChange, scope: AccessScope, expectedVersion: Int?) async throws
        -> PracticeChangeResult
    {
        let now = clock.now()
        return try await settingsTransaction(scope) { connection in
            let write = try PracticeSettingsWrite.update(
                change, current: try await self.lockedPractice(scope.practiceID, connection: connection),
                expectedVersion: expectedVersion,
                open: try await self.openAppointments(practiceID: scope.practiceID, now: now, connection: connection),
                scope: scope, now: now)
            try await self.store(write, scope: scope, connection: connection)
            return PracticeChangeResult(practice: write.practice, appointmentsToReplan: write.stranded)
        }
    }

    /// Adds a closure (audited). Bookings that fall into it stay booked and are returned for
    /// re-planning. With an idempotency key, a retry — through any instance — adds nothing and
    /// answers with the first closure as it now stands.
    public func addClosure(
        _ closure: PracticeClosure, scope: AccessScope, expectedVersion: Int?,
        idempotencyKey: IdempotencyKey?
    ) async throws -> ClosureAddition {
        let now = clock.now()
        return try await settingsTransaction(scope) { connection in
            // Locked before the claim, so the claim and the change queue in the same order everywhere.
            var current = try await self.lockedPractice(scope.practiceID, connection: connection)
            let (id, replayed) = try await self.idempotent(
                connection: connection, scope: scope, key: idempotencyKey,
                operation: .practiceClosureAdd, resourceID: closure.id.description
            ) {
                let write = try PracticeSettingsWrite.addClosure(
                    closure, current: current, expectedVersion: expectedVersion, scope: scope, now: now)
                try await self.store(write, scope: scope, connection: connection)
                current = write.practice
            }
            let (addition, audit) = try PracticeSettingsWrite.closureAdded(
                id, in: current,
                open: try await self.openAppointments(practiceID: scope.practiceID, now: now, connection: connection),
                replayed: replayed, scope: scope, now: now)
            if let audit { try await self.appendAudit(audit, scope: scope, connection: connection) }
            return addition
        }
    }

    /// Removes a closure (audited); another practice's closure, or none, is not found.
    public func removeClosure(_ id: Identifier<PracticeClosure>, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<PracticeProfile>
    {
        let now = clock.now()
        return try await settingsTransaction(scope) { connection in
            let write = try PracticeSettingsWrite.removeClosure(
                id, current: try await self.lockedPractice(scope.practiceID, connection: connection),
                expectedVersion: expectedVersion, scope: scope, now: now)
            try await self.store(write, scope: scope, connection: connection)
            return write.practice
        }
    }

    /// Writes a decided settings change: the profile at its new version, its audit entry and event.
    private func store(_ write: PracticeSettingsWrite, scope: AccessScope, connection: PostgresConnection)
        async throws
    {
        try await storeSettings(write.practice.value, version: write.practice.version, connection: connection)
        try await appendAudit(write.audit, events: [write.event], scope: scope, connection: connection)
    }

    /// A settings transaction of the scope's practice; the name is unique on the installation,
    /// so a rename onto another practice's name is refused by the database's index.
    private func settingsTransaction<Result: Sendable>(
        _ scope: AccessScope,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        do {
            return try await retryingTransientFailures {
                try await transaction(.practice(scope.practiceID), body)
            }
        } catch let error as PSQLError where error.sqlState == "23505" {
            throw UniquenessConflict.practiceName
        }
    }

    /// The practice and its settings' version, its row locked until commit.
    private func lockedPractice(_ id: PracticeID, connection: PostgresConnection) async throws -> Versioned<
        PracticeProfile
    > {
        for try await (text, version) in try await connection.query(
            """
            SELECT profile::text, version FROM practice WHERE id = \(id.rawValue) FOR UPDATE
            """, logger: logger
        ).decode((String, Int32).self) {
            return Versioned(
                try Self.decode(PracticeProfile.self, text, column: "practice.profile"), version: Int(version))
        }
        throw DomainError.notFound(resource: "practice")
    }

    /// Writes the whole profile (settings live in its JSON; the name and zone are columns too,
    /// for the unique name and the command line's lookups).
    private func storeSettings(_ profile: PracticeProfile, version: Int, connection: PostgresConnection) async throws {
        let json = try Self.json(profile)
        try await connection.query(
            """
            UPDATE practice SET name = \(profile.name), time_zone = \(profile.timeZone), profile = \(json)::jsonb,
                version = \(version)
            WHERE id = \(profile.id.rawValue)
            """, logger: logger)
    }

    /// The practice's appointments still to come at `now` (booked or checked in, not yet over), by start.
    func openAppointments(practiceID: PracticeID, now: Date, connection: PostgresConnection) async throws -> [Versioned<
        Appointment
    >] {
        let found: [Versioned<Appointment>] = try await connection.rows(
            """
            SELECT \(unescaped: AppointmentRows.selectList()) FROM appointment
            WHERE practice_id = \(practiceID.rawValue)
                AND status IN (\(unescaped: AppointmentStatus.sqlList(where: \.isAwaitingVisit)))
                AND end_ms > \(Timestamp.milliseconds(now))
            ORDER BY start_ms, id
            """, logger: logger
        ) { try AppointmentRows.appointment(from: $0) }
        return found
    }

    // MARK: - Reading

    public func versionedPractice(scope: AccessScope) async throws -> Versioned<PracticeProfile> {
        try await transaction(.practice(scope.practiceID)) { connection in
            for try await (text, version) in try await connection.query(
                """
                SELECT profile::text, version FROM practice WHERE id = \(scope.practiceID.rawValue)
                """, logger: logger
            ).decode((String, Int32).self) {
                return Versioned(
                    try Self.decode(PracticeProfile.self, text, column: "practice.profile"), version: Int(version))
            }
            throw DomainError.notFound(resource: "practice")
        }
    }

    /// Every practice of the installation, by name (system use).
    public func allPractices() async throws -> [PracticeProfile] {
        try await transaction(.installation) { connection in
            var found: [PracticeProfile] = []
            for try await text in try await connection.query(
                "SELECT vetnet_practice_profiles()",
                logger: logger
            ).decode(String.self) {
                found.append(try Self.decode(PracticeProfile.self, text, column: "practice.profile"))
            }
            return found
        }
    }

    public func isEmpty() async throws -> Bool {
        try await transaction(.installation) { connection in
            for try await any in try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM vetnet_practice_profiles())", logger: logger
            ).decode(Bool.self) {
                return !any
            }
            return true
        }
    }
}
