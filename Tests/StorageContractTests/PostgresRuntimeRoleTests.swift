import Foundation
import Logging
import PostgresNIO
import Scheduling
import SharedKernel
import StoragePorts
import StoragePostgres
import Synchronization
import Testing

/// The role a server serves as, and the audit trail while a practice is open: what someone
/// holding the serving role's password can do to the trail, and whether verification tells a
/// busy trail from a cut one.
@Suite(
    "PostgreSQL: the runtime role and the trail under load",
    .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
struct PostgresRuntimeRoleTests {
    /// Runs `statement` as the serving role and answers its SQLSTATE, or `nil` when it ran.
    static func refusal(_ statement: String, on store: PostgresStore, actingFor practice: String = "installation") async
        -> String?
    {
        let logger = Logger(label: "test")
        do {
            try await store.client.withTransaction(logger: logger) { connection in
                try await connection.query("SELECT set_config('vetnet.practice_id', \(practice), true)", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            return nil
        } catch let error as PostgresTransactionError {
            return (error.closureError as? PSQLError)?.serverInfo?[.sqlState] ?? "\(error)"
        } catch {
            return "\(error)"
        }
    }

    @Test(
        """
        the runtime role cannot alter, disable, delete, truncate or re-own the trail; a head it re-points fails verify
        """,
        .enabled(if: PostgresTestServer.runtimeURL != nil, "VETNET_TEST_RUNTIME_DATABASE_URL names no runtime role"))
    func runtimeRoleCannotRewriteHistory() async throws {
        try await withStore(.postgres) { store in
            let postgres = try #require(store.postgres)
            #expect(postgres.store !== postgres.owner)
            let serving = try await postgres.store.servingRole()
            #expect(!serving.ownsSchema && !serving.bypassesRowLevelSecurity)
            #expect(try await postgres.owner.servingRole().ownsSchema)
            try await AuditTamperContractTests.populated(store)
            let attempts = [
                "ALTER TABLE audit_entry NO FORCE ROW LEVEL SECURITY",
                "ALTER TABLE audit_entry DISABLE ROW LEVEL SECURITY",
                "ALTER TABLE audit_entry DISABLE TRIGGER audit_entry_no_change",
                "DROP TRIGGER audit_entry_no_change ON audit_entry",
                "DROP POLICY audit_entry_read ON audit_entry",
                "DELETE FROM audit_entry WHERE seq > 9",
                "UPDATE audit_entry SET action = 'user.read' WHERE seq = 3",
                "TRUNCATE audit_entry",
                "ALTER TABLE patient DISABLE ROW LEVEL SECURITY",
                "CREATE OR REPLACE FUNCTION vetnet_installation() RETURNS boolean LANGUAGE sql AS $$ SELECT true $$",
                "CREATE TABLE intruder (x integer)",
                "INSERT INTO vetnet_migration (name) VALUES ('pg-99 nothing')",
                "UPDATE installation_key SET audit_key_check = 'x'",
                "INSERT INTO vetnet_runtime_role (name) VALUES ('someone')",
                "SET ROLE \(try PostgresDatabaseConfiguration(url: try #require(PostgresTestServer.url)).username)",
            ]
            for statement in attempts {
                // 42501: insufficient privilege (not the owner, or not granted).
                #expect(await Self.refusal(statement, on: postgres.store) == "42501", "\(statement)")
            }
            #expect(try await store.audit.verifyAuditChain().isIntact)
            // What it may do — update the head row, as every append does — it cannot do unseen:
            // a head moved back to match a cut chain is not signed with the audit key.
            let ninth = try await asInstallation(postgres.owner) { connection -> String in
                for try await hash in try await connection.query(
                    "SELECT hash FROM audit_entry WHERE seq = 9", logger: Logger(label: "test")
                )
                .decode(String.self) { return hash }
                return ""
            }
            #expect(await Self.refusal("UPDATE audit_head SET seq = 9, hash = '\(ninth)'", on: postgres.store) == nil)
            let verification = try await store.audit.verifyAuditChain()
            #expect(!verification.isIntact)
            #expect(verification.firstProblem?.reason.contains("not signed with this installation's audit key") == true)
        }
    }

    @Test("the runtime role's narrow functions answer what serving needs and nothing of another practice")
    func narrowFunctions() async throws {
        try await withStore(.postgres) { store in
            let postgres = try #require(store.postgres).store
            let owner = try #require(store.postgres).owner
            let (one, _) = try await postgres.createPractice(
                AccountContractTests.practice("One"),
                administrator: PostgresInstancesTests.admin("one@example.com"), requestID: nil)
            _ = try await postgres.createPractice(
                AccountContractTests.practice("Two"),
                administrator: PostgresInstancesTests.admin("two@example.com"), requestID: nil)
            // Sign-in finds one account by its address, whichever practice holds it.
            let found = try await postgres.credentials(email: "one@example.com")
            #expect(found.map(\.account.practiceID) == [one.id])
            #expect(try await postgres.allPractices().map(\.name) == ["One", "Two"])
            try await postgres.recordEvents(
                [EventLogContractTests.event(one.id, "appointment.booked", at: store.clock.clock.now(), id: "1")],
                scope: nil)
            #expect(try await postgres.eventHeads() == [one.id: 1])
            #expect(try await countRows(owner, "SELECT count(*) FROM event_head") == 1)
            // The housekeeping functions run as the owner and change only what is theirs.
            #expect(try await postgres.pruneIdempotencyKeys(olderThan: 0) == 0)
            #expect(try await postgres.pruneEvents(before: Date(timeIntervalSince1970: 0)) == 0)
        }
    }

    @Test("20 of 20 verifications say intact while 8 clients on two instances book")
    func verifyUnderBookingLoad() async throws {
        try await withStore(.postgres) { a in
            let postgres = try #require(a.postgres)
            let fixture = try await SchedulingFixture.make(a, name: "Busy")
            try await withRunningStore(postgres.configuration, clock: a.clock, migrate: false) { storeB in
                let load = Load()
                let verifications = try await withThrowingTaskGroup(of: [AuditVerification].self) { group in
                    for client in 0..<8 {
                        let repository: any SchedulingRepository = client.isMultiple(of: 2) ? postgres.store : storeB
                        group.addTask {
                            defer { load.clientsDone.add(1, ordering: .relaxed) }
                            var index = 0
                            // Slots of their own: no client waits on another's conflict, only on the trail.
                            while !load.stop.load(ordering: .relaxed) && index < 400 {
                                let start = fixture.morning.addingTimeInterval(Double(index * 8 + client) * 1800)
                                let clinician = client.isMultiple(of: 2) ? fixture.vet : fixture.otherVet
                                do {
                                    _ = try await fixture.book(
                                        fixture.consult,
                                        at: start.addingTimeInterval(client.isMultiple(of: 2) ? 0 : 86_400 * 30),
                                        clinician: clinician, through: repository)
                                    load.booked.add(1, ordering: .relaxed)
                                } catch {
                                    load.failures.withLock { $0.append(String(reflecting: error)) }
                                }
                                index += 1
                            }
                            return []
                        }
                    }
                    group.addTask {
                        defer { load.stop.store(true, ordering: .relaxed) }
                        // Bookings under way first, then verifications among them.
                        // (Clients that all stop before 16 bookings fail the test below, not hang it.)
                        while load.booked.load(ordering: .relaxed) < 16,
                            load.clientsDone.load(ordering: .relaxed) < 8
                        {
                            try await Task.sleep(for: .milliseconds(20))
                        }
                        var results: [AuditVerification] = []
                        let first = load.booked.load(ordering: .relaxed)
                        defer { load.bookedDuring.withLock { $0 = (first, load.booked.load(ordering: .relaxed)) } }
                        for index in 0..<20 {
                            let store: any AuditRepository = index.isMultiple(of: 2) ? postgres.store : storeB
                            results.append(try await store.verifyAuditChain())
                        }
                        return results
                    }
                    var all: [AuditVerification] = []
                    for try await results in group { all += results }
                    return all
                }
                let intact = verifications.filter(\.isIntact).count
                let bookings = load.booked.load(ordering: .relaxed)
                print(
                    """
                    verify under load: \(intact) of \(verifications.count) intact while 8 clients booked \(bookings) \
                    appointments
                    """
                )
                #expect(
                    verifications.count == 20 && intact == 20, "\(verifications.compactMap(\.firstProblem).prefix(2))")
                #expect(load.failures.withLock { $0 }.isEmpty, "\(load.failures.withLock { $0 }.prefix(2))")
                // The load was real: bookings kept coming while the chain was walked.
                let during = load.bookedDuring.withLock { $0.last - $0.first }
                print("verify under load: \(during) bookings made between the first verification and the last")
                #expect(during > 0)
                #expect(try await postgres.store.verifyAuditChain().isIntact)
            }
        }
    }

    /// What the booking clients and the verifier share.
    final class Load: Sendable {
        let stop = Atomic<Bool>(false)
        let booked = Atomic<Int>(0)
        let clientsDone = Atomic<Int>(0)
        let bookedDuring = Mutex<(first: Int, last: Int)>((0, 0))
        let failures = Mutex<[String]>([])
    }
}
