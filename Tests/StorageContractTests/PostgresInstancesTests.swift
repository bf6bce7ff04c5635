import Foundation
import Logging
import PostgresNIO
import SharedKernel
import StoragePorts
import StoragePostgres
import StorageSupport
import Synchronization
import Testing

/// What only a shared database can show: two store instances on one PostgreSQL database
/// (as two `vetnet serve` processes), and invariants the schema enforces on any writer.
@Suite(
    "PostgreSQL: several instances on one database, invariants in the schema",
    .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
struct PostgresInstancesTests {
    static func admin(_ email: String) -> FirstAdministrator {
        FirstAdministrator(email: email, displayName: "Admin", passwordHash: "h")
    }

    @Test("a session created through instance A is valid on B; one sign-out on B revokes it on both")
    func sessionsAcrossInstances() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let (profile, account) = try await storeA.createPractice(
                AccountContractTests.practice("Shared"), administrator: Self.admin("x@example.com"),
                requestID: nil)
            let policy = SessionPolicy()
            _ = try await storeA.createSession(
                tokenHash: AccountContractTests.hash, account: account, policy: policy, requestID: nil)
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                #expect(
                    try await storeB.activeSession(tokenHash: AccountContractTests.hash, policy: policy)?.account.id
                        == account.id)
                try await storeB.revokeSession(
                    tokenHash: AccountContractTests.hash,
                    scope: AccessScope(
                        practiceID: profile.id, actorID: account.id, role: .administrator, requestID: nil))
                #expect(try await storeA.activeSession(tokenHash: AccountContractTests.hash, policy: policy) == nil)
                #expect(try await storeB.sessionIsActive(tokenHash: AccountContractTests.hash, policy: policy) == false)
            }
        }
    }

    @Test("an instance holding another audit or record key than the database was set up with refuses to start")
    func instanceKeysMustMatch() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            try await storeA.checkInstallationKeys() // the first instance records the fingerprints
            try await storeA.checkInstallationKeys() // and passes again
            var logger = Logger(label: "vetnet.contract")
            logger.logLevel = .error
            for (audit, cipher, named) in [
                (AuditKey(bytes: Array(repeating: 8, count: 32)), testCipher, "VETNET_AUDIT_KEY"),
                (testAuditKey, try RecordCipher(keyBytes: Array(repeating: 1, count: 32)), "VETNET_RECORD_KEY"),
            ] {
                let other = PostgresStore(
                    configuration: configuration, auditKey: audit, cipher: cipher, clock: a.clock.clock, logger: logger)
                let running = Task { await other.run() }
                defer { running.cancel() }
                await #expect(throws: InstallationKeyMismatch.self) { try await other.checkInstallationKeys() }
                do { try await other.checkInstallationKeys() } catch let mismatch as InstallationKeyMismatch {
                    #expect(mismatch.key == named)
                    #expect(!mismatch.description.contains(configuration.password ?? "\u{0}"))
                }
                running.cancel()
                await running.value
            }
        }
    }

    @Test("an event committed through instance A wakes an observer of instance B (LISTEN/NOTIFY)")
    func eventReachesOtherInstance() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let (profile, _) = try await storeA.createPractice(
                AccountContractTests.practice("Notify"), administrator: Self.admin("n@example.com"),
                requestID: nil)
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                let woken = Mutex<ContinuousClock.Instant?>(nil)
                let token = storeB.eventCommits.observe { id in
                    if id == profile.id { woken.withLock { $0 = $0 ?? .now } }
                }
                defer { storeB.eventCommits.removeObserver(token) }
                // The listener connects in the background, as a starting server's does: an event
                // committed before it listens is not announced (the server's own catch-up reads
                // the log), so events are sent until one is heard. Only a notification wakes
                // `eventCommits` (nothing polls it), so hearing one proves the crossing; how fast
                // is printed, not held to a bound, since the suites run in parallel on this machine.
                var sent = ContinuousClock.now
                var count = 0
                while woken.withLock({ $0 == nil }) && count < 5 {
                    count += 1
                    sent = ContinuousClock.now
                    try await storeA.recordEvents(
                        [
                            EventLogContractTests.event(
                                profile.id, "appointment.booked", at: a.clock.clock.now(),
                                id: "\(count)")
                        ], scope: nil)
                    try? await waitUntil(seconds: 3) { woken.withLock { $0 != nil } }
                }
                let arrived = try #require(
                    woken.withLock { $0 }, "instance B heard none of \(count) events, each given 3 s")
                print("event crossing instances: heard \(arrived - sent) after the commit of event \(count)")
                #expect(
                    try await storeB.events(practiceID: profile.id, after: 0, limit: 10).events.map(\.resourceID)
                        == (1...count).map { "\($0)" })
            }
        }
    }

    @Test("two instances appending at once keep one audit chain and gapless event numbers")
    func concurrentAppendsStayLinear() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let (profile, _) = try await storeA.createPractice(
                AccountContractTests.practice("Race"), administrator: Self.admin("r@example.com"),
                requestID: nil)
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<40 {
                        let store = index.isMultiple(of: 2) ? storeA : storeB
                        group.addTask {
                            try await store.recordAudit(
                                AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "\(index)"),
                                scope: .system(profile.id))
                            try await store.recordEvents(
                                [EventLogContractTests.event(profile.id, "x", at: a.clock.clock.now(), id: "\(index)")],
                                scope: nil)
                        }
                    }
                    try await group.waitForAll()
                }
                let verification = try await storeB.verifyAuditChain()
                #expect(verification.isIntact && verification.checked == 42)
                let page = try await storeA.events(practiceID: profile.id, after: 0, limit: 100)
                #expect(page.events.map(\.sequence) == Array(1...40))
                #expect(Set(page.events.compactMap(\.resourceID)).count == 40)
            }
        }
    }

    @Test("the database itself refuses an overlapping booking, whoever inserts it; cancelled and adjacent ones pass")
    func exclusionConstraint() async throws {
        try await withStore(.postgres) { a in
            let store = try #require(a.postgres).store
            // Real records of the practice: the rows below must pass its reference checks.
            let fixture = try await SchedulingFixture.make(a, name: "Overlap")
            let practice = fixture.scope.practiceID
            let clinician = fixture.vet.id.rawValue
            let otherClinician = fixture.otherVet.id.rawValue
            let room = fixture.theatre.id.rawValue
            func insert(start: Int64, end: Int64, buffer: Int64 = 0, holds: Bool = true, clinician: UUID, room: UUID?)
                async throws
            {
                try await store.client.withTransaction(logger: Logger(label: "test")) { connection in
                    try await connection.query(
                        "SELECT set_config('vetnet.practice_id', \(practice.description), true)",
                        logger: Logger(label: "test"))
                    try await connection.query(
                        """
                        INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, \
                        room_id, start_ms, end_ms,
                                                 occupied_end_ms, status, holds_time, created_at)
                        VALUES (\(UUID()), \(practice.rawValue), \(fixture.patient), \(clinician), \
                        \(fixture.surgery.id.rawValue), \(room),
                                \(start), \(end), \(end + buffer),
                                \(holds ? "booked" : "cancelled"), \(holds), now())
                        """, logger: Logger(label: "test"))
                }
            }
            func refused(_ body: () async throws -> Void) async -> String? {
                do {
                    try await body()
                    return nil
                } catch let error as PostgresTransactionError {
                    return (error.closureError as? PSQLError)?.serverInfo?[.sqlState] ?? "\(error)"
                } catch { return "\(error)" }
            }
            try await insert(start: 0, end: 1_800_000, buffer: 600_000, clinician: clinician, room: room)
            // The buffer is occupied time: 09:35 overlaps a 09:00–09:30 booking with 10 minutes after it.
            #expect(
                await refused { try await insert(start: 2_100_000, end: 3_000_000, clinician: clinician, room: nil) }
                    == "23P01")
            #expect(
                await refused { try await insert(start: 600_000, end: 900_000, clinician: otherClinician, room: room) }
                    == "23P01")
            #expect(
                await refused { try await insert(start: 2_400_000, end: 3_000_000, clinician: clinician, room: room) }
                    == nil)
            #expect(
                await refused {
                    try await insert(start: 0, end: 1_800_000, holds: false, clinician: clinician, room: room)
                } == nil)
        }
    }

    @Test("row-level security: a transaction acting for one practice sees none of another's rows, even unfiltered")
    func rowLevelSecurity() async throws {
        try await withStore(.postgres) { a in
            let postgres = try #require(a.postgres)
            let store = postgres.store
            let (one, _) = try await store.createPractice(
                AccountContractTests.practice("One"), administrator: Self.admin("one@example.com"), requestID: nil)
            _ = try await store.createPractice(
                AccountContractTests.practice("Two"), administrator: Self.admin("two@example.com"), requestID: nil)
            let logger = Logger(label: "test")
            func count(_ table: String, actingFor setting: String?, as role: PostgresStore? = nil) async throws -> Int {
                try await (role ?? store).client.withTransaction(logger: logger) { connection in
                    if let setting {
                        try await connection.query(
                            "SELECT set_config('vetnet.practice_id', \(setting), true)", logger: logger)
                    }
                    for try await value in try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger
                    )
                    .decode(Int64.self) { return Int(value) }
                    return -1
                }
            }
            #expect(try await count("staff_user", actingFor: one.id.description) == 1)
            #expect(try await count("practice", actingFor: one.id.description) == 1)
            #expect(try await count("staff_user", actingFor: "installation", as: postgres.owner) == 2)
            #expect(try await count("staff_user", actingFor: nil) == 0)
            #expect(try await count("audit_entry", actingFor: one.id.description) == 2)
            if postgres.store !== postgres.owner {
                // The serving role cannot act for the installation: it sees no practice's rows.
                for table in ["staff_user", "practice", "session", "audit_entry", "patient"] {
                    #expect(try await count(table, actingFor: "installation") == 0, "\(table)")
                }
            }
        }
    }
}

extension PostgresInstancesTests {
    @Test("the sign-in throttle counts attempts made through both instances together")
    func throttleAcrossInstances() async throws {
        try await withStore(.postgres) { a in
            let (configuration, storeA) = (try #require(a.postgres).configuration, try #require(a.postgres).store)
            let limits = SignInLimits(window: 900, accountLimit: 10, addressLimit: 50)
            let now = a.clock.clock.now()
            try await withRunningStore(configuration, clock: a.clock, migrate: false) { storeB in
                for index in 0..<10 {
                    let store = index.isMultiple(of: 2) ? storeA : storeB
                    let refusal = try await store.reserveSignInAttempt(
                        UUID(), accountKey: "account:shared", addressKey: "address:\(index)",
                        limits: limits, now: now)
                    #expect(refusal == nil)
                }
                // The 11th, on either instance, waits.
                let onA = try await storeA.reserveSignInAttempt(
                    UUID(), accountKey: "account:shared", addressKey: "address:x", limits: limits, now: now)
                let onB = try await storeB.reserveSignInAttempt(
                    UUID(), accountKey: "account:shared", addressKey: "address:y", limits: limits, now: now)
                #expect(onA?.key == "account:shared")
                #expect(onB?.retryAfterSeconds == 900)
            }
        }
    }
}
