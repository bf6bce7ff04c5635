import Foundation
import GRDB
import Scheduling
import SharedKernel
import StoragePorts

extension VetNetStore {
    // MARK: - Creating

    /// Creates a practice with no staff account (system action, audited); its name must be
    /// free on the installation.
    public func createPractice(_ profile: PracticeProfile, requestID: String? = nil) async throws {
        try profile.validate()
        try await write { db in
            try Self.requireFreeName(profile.name, db: db)
            try self.insertPractice(profile, requestID: requestID, db: db)
        }
    }

    /// Refuses a practice name already used on the installation (the command line finds
    /// practices by name).
    private static func requireFreeName(_ name: String, db: Database) throws {
        if try (Int.fetchOne(db, sql: "SELECT COUNT(*) FROM practice WHERE name = ?", arguments: [name]) ?? 0) > 0 {
            throw UniquenessConflict.practiceName
        }
    }

    /// Creates a practice and its first administrator in one audited transaction: a fresh
    /// install never holds a practice nobody can sign in to. Emails are unique within a
    /// practice, so a new practice's first account can take any address (someone may run two
    /// practices); the practice's name is unique on the installation, since the command line
    /// finds practices by name.
    public func createPractice(
        _ profile: PracticeProfile, administrator: FirstAdministrator,
        requestID: String? = nil
    ) async throws -> (PracticeProfile, StaffAccount) {
        let now = clock.now()
        let account = try administrator.account(of: profile, createdAt: now)
        try await write { db in
            try Self.requireFreeName(profile.name, db: db)
            try self.insertPractice(profile, requestID: requestID, db: db)
            try db.insert(AccountRows.insert(account, passwordHash: administrator.passwordHash))
            try self.appendAudit(
                .accountCreated(account, first: true), scope: .system(profile.id, requestID: requestID), db: db)
        }
        return (profile, account)
    }

    private func insertPractice(_ profile: PracticeProfile, requestID: String?, db: Database) throws {
        try Self.insertPracticeRow(profile, id: profile.id, createdAt: Timestamp.string(clock.now()), db: db)
        try appendAudit(
            AuditRecord.practice(.practiceCreate, profile.id),
            scope: .system(profile.id, requestID: requestID), db: db)
    }

    /// The practice's row with every setting (creating and restoring).
    static func insertPracticeRow(_ profile: PracticeProfile, id: PracticeID, createdAt: String, db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO practice (id, name, time_zone, opening_hours, phone, address, created_at, closures,
                    slot_grid_minutes,
                                      default_buffer_minutes, services, retention_years, second_factor_roles)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id.description, profile.name, profile.timeZone, try json(profile.openingHours), profile.phone,
                profile.address, createdAt, try json(profile.closures), profile.slotGridMinutes,
                profile.defaultBufferMinutes, try json(profile.services.map(\.rawValue)), profile.retentionYears,
                try json(profile.secondFactorRoles.map(\.rawValue)),
            ])
    }

    // MARK: - Changing

    /// Applies `change` to the caller's practice under optimistic concurrency (audited, naming
    /// the settings changed). A time-zone change is refused while appointments are still to
    /// come (see ``PracticeProfile/applying(_:openAppointments:)``); after a change of hours the
    /// appointments left outside them are returned for re-planning.
    public func updatePractice(_ change: PracticeSettingsChange, scope: AccessScope, expectedVersion: Int?) async throws
        -> PracticeChangeResult
    {
        let now = clock.now()
        return try await write { db in
            let write = try PracticeSettingsWrite.update(
                change, current: try Self.versionedPractice(db: db, id: scope.practiceID),
                expectedVersion: expectedVersion,
                open: try Self.openAppointments(db: db, practiceID: scope.practiceID, now: now), scope: scope, now: now)
            try self.store(write, scope: scope, db: db)
            return PracticeChangeResult(practice: write.practice, appointmentsToReplan: write.stranded)
        }
    }

    /// Adds a closure (audited). Bookings that fall into it stay booked and are returned for
    /// re-planning; from now on nothing can be booked in it. With an idempotency key, a
    /// retried request adds nothing and answers with the first closure as it now stands.
    public func addClosure(
        _ closure: PracticeClosure, scope: AccessScope, expectedVersion: Int?,
        idempotencyKey: IdempotencyKey? = nil
    ) async throws -> ClosureAddition {
        let now = clock.now()
        return try await write { db in
            let (id, replayed) = try self.idempotent(
                db: db, scope: scope, key: idempotencyKey, operation: .practiceClosureAdd
            ) {
                try self.store(
                    try PracticeSettingsWrite.addClosure(
                        closure, current: try Self.versionedPractice(db: db, id: scope.practiceID),
                        expectedVersion: expectedVersion, scope: scope, now: now),
                    scope: scope, db: db)
                return closure.id.description
            }
            let (addition, audit) = try PracticeSettingsWrite.closureAdded(
                id, in: try Self.versionedPractice(db: db, id: scope.practiceID),
                open: try Self.openAppointments(db: db, practiceID: scope.practiceID, now: now), replayed: replayed,
                scope: scope, now: now)
            if let audit { try self.appendAudit(audit, scope: scope, db: db) }
            return addition
        }
    }

    /// Removes a closure (audited); another practice's closure, or none, is not found.
    public func removeClosure(_ id: Identifier<PracticeClosure>, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<PracticeProfile>
    {
        let now = clock.now()
        return try await write { db in
            let write = try PracticeSettingsWrite.removeClosure(
                id, current: try Self.versionedPractice(db: db, id: scope.practiceID), expectedVersion: expectedVersion,
                scope: scope, now: now)
            try self.store(write, scope: scope, db: db)
            return write.practice
        }
    }

    /// Writes a decided settings change: the profile at its new version, its audit entry and event.
    private func store(_ write: PracticeSettingsWrite, scope: AccessScope, db: Database) throws {
        try storeSettings(write.practice.value, version: write.practice.version, db: db)
        try appendAudit(write.audit, scope: scope, db: db)
        try appendEvent(write.event, scope: scope, db: db)
    }

    private func storeSettings(_ profile: PracticeProfile, version: Int, db: Database) throws {
        try db.execute(
            sql: """
                UPDATE practice SET name = ?, time_zone = ?, opening_hours = ?, phone = ?, address = ?, closures = ?,
                    slot_grid_minutes = ?,
                    default_buffer_minutes = ?, services = ?, retention_years = ?, second_factor_roles = ?, version = ?
                WHERE id = ?
                """,
            arguments: [
                profile.name, profile.timeZone, try Self.json(profile.openingHours), profile.phone, profile.address,
                try Self.json(profile.closures), profile.slotGridMinutes, profile.defaultBufferMinutes,
                try Self.json(profile.services.map(\.rawValue)), profile.retentionYears,
                try Self.json(profile.secondFactorRoles.map(\.rawValue)), version,
                profile.id.description,
            ])
    }

    /// The practice's appointments still to come at `now` (booked or checked in, not yet over), by start.
    static func openAppointments(db: Database, practiceID: PracticeID, now: Date) throws -> [Versioned<Appointment>] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT \(AppointmentRows.selectList()) FROM appointment
                WHERE practice_id = ? AND status IN (\(AppointmentStatus.sqlList(where: \.isAwaitingVisit)))
                    AND end_ms > ? ORDER BY start_ms
                """, arguments: [practiceID.description, Timestamp.milliseconds(now)]
        ).map(AppointmentRows.appointment(from:))
    }

    // MARK: - Reading

    /// The caller's practice with its settings' version (the ETag of `GET /practice`).
    public func versionedPractice(scope: AccessScope) async throws -> Versioned<PracticeProfile> {
        try await writer.read { db in try Self.versionedPractice(db: db, id: scope.practiceID) }
    }

    /// A practice by id, for system use (command-line tools); `nil` when unknown.
    public func practice(id: PracticeID) async throws -> PracticeProfile? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM practice WHERE id = ?", arguments: [id.description]).map(
                Self.practice(from:))
        }
    }

    /// Every practice in the store, by name (system use: the command-line tools).
    public func allPractices() async throws -> [PracticeProfile] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM practice ORDER BY name").map(Self.practice(from:))
        }
    }

    /// Whether the store holds no practice yet (demo seeding runs only then).
    public func isEmpty() async throws -> Bool {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM practice") == 0 }
    }

    static func versionedPractice(db: Database, id: PracticeID) throws -> Versioned<PracticeProfile> {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM practice WHERE id = ?", arguments: [id.description])
        else {
            throw DomainError.notFound(resource: "practice")
        }
        return Versioned(try practice(from: row), version: try row.read("version") ?? 1)
    }

    static func practice(from row: Row) throws -> PracticeProfile {
        func decoded<T: Decodable>(_ column: String, as type: T.Type) throws -> T? {
            guard let text = try row.read(column, as: String?.self) else { return nil }
            return try StoreCorruption.decoded(T.self, from: text, column: "practice.\(column)")
        }
        func words<Word>(_ column: String, _ word: (String) -> Word?) throws -> [Word]? {
            try decoded(column, as: [String].self)?.map {
                try StoreCorruption.known(word($0), column: "practice.\(column)")
            }
        }
        return PracticeProfile(
            id: try row.identifier("id"), name: try row.read("name") ?? "",
            timeZone: try row.read("time_zone") ?? "UTC",
            openingHours: try decoded("opening_hours", as: [OpeningHours].self) ?? [], phone: try row.read("phone"),
            address: try row.read("address"),
            closures: try decoded("closures", as: [PracticeClosure].self) ?? [],
            slotGridMinutes: try row.read("slot_grid_minutes") ?? 5,
            defaultBufferMinutes: try row.read("default_buffer_minutes") ?? 0,
            services: try words("services", Specialty.init(rawValue:)) ?? [],
            retentionYears: try row.read("retention_years") ?? 7,
            secondFactorRoles: try words("second_factor_roles", Role.init(rawValue:))
                ?? PracticeProfile.defaultSecondFactorRoles)
    }
}
