import Foundation
import Logging
import PostgresNIO
import SharedKernel
import StoragePorts
import StoragePostgres
import Synchronization
import Testing

/// PostgreSQL keeps one audit chain per practice: practices append without waiting on one
/// another, and an installation upgraded from the single chain keeps its trail verifiable.
@Suite(
    "PostgreSQL: an audit chain per practice",
    .enabled(
        if: Adapter.available.contains(.postgres), "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
struct AuditChainPerPracticeTests {
    /// Which writes have finished.
    final class Finished: Sendable {
        let names = Mutex<Set<String>>([])
    }

    static let read = AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "p")

    @Test("one practice's audited write goes on while another practice's chain is held; that practice's waits")
    func practicesDoNotWait() async throws {
        try await withStore(.postgres) { store in
            let a = PracticeID()
            let b = PracticeID()
            try await store.audit.recordAudit(Self.read, scope: .system(a))
            try await store.audit.recordAudit(Self.read, scope: .system(b))
            let owner = try #require(store.postgres?.owner)
            let logger = Logger(label: "test")
            let finished = Finished()
            let writes = try await owner.client.withTransaction(logger: logger) { connection in
                // A long write of practice A holds its chain's head until it commits.
                try await connection.query(
                    "SELECT seq FROM audit_head WHERE chain = \(a.description) FOR UPDATE", logger: logger)
                let writes = [("a", a), ("b", b)].map { name, practice in
                    Task {
                        try await store.audit.recordAudit(Self.read, scope: .system(practice))
                        finished.names.withLock { _ = $0.insert(name) }
                    }
                }
                // Not a timed assertion: B is given up to 20 s, and A must still be waiting after B is done.
                let deadline = ContinuousClock.now + .seconds(20)
                while !finished.names.withLock({ $0.contains("b") }) && ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try await Task.sleep(for: .milliseconds(200))
                let done = finished.names.withLock { $0 }
                #expect(done == ["b"], "practice B's write must finish while A's chain is held, A's must wait")
                return writes
            }
            for write in writes { try await write.value }
            let verification = try await store.audit.verifyAuditChain()
            #expect(verification.isIntact && verification.checked == 4 && verification.chains == 3)
            let seen = try await store.maintenance.verifyAuditChain(visibleTo: .system(a))
            #expect(seen.isIntact && seen.checked == 2 && seen.headSequence == 2)
        }
    }

    @Test(
        """
        an installation upgraded from one chain: its old entries still verify, practices go on in chains of their \
        own, and a practice reads its trail across both in order
        """
    )
    func upgradeFromOneChain() async throws {
        try await PostgresTestServer.withDatabase { configuration in
            var logger = Logger(label: "test")
            logger.logLevel = .error
            let practice = PracticeID()
            let client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
            let running = Task { await client.run() }
            defer { running.cancel() }
            try await PostgresSchema.migrate(
                client, stoppingBefore: PostgresSchema.auditChainPerPracticeMigration, logger: logger)
            // The trail as the single chain kept it: three entries, two of the practice's, and its signed head.
            var previous = AuditChain.genesis
            var legacy: [AuditEntry] = []
            for (index, practiceID) in [practice.description, nil, practice.description].enumerated() {
                var entry = AuditEntry(
                    sequence: Int64(index + 1), id: UUID(), occurredAt: "2026-01-0\(index + 1)T09:00:00.000Z",
                    practiceID: practiceID, actorID: nil, action: "patient.read",
                    resourceType: ResourceKind.patient.rawValue,
                    resourceID: "old\(index)", outcome: .success, requestID: nil, detail: nil, previousHash: previous,
                    hash: "")
                entry.hash = AuditChain.hash(of: entry, key: testAuditKey)
                previous = entry.hash
                legacy.append(entry)
            }
            let profile = PracticeProfile(id: practice, name: "Riverside", timeZone: "Europe/London", openingHours: [])
            let profileJSON = String(decoding: try JSONEncoder().encode(profile), as: UTF8.self)
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    "SELECT set_config('vetnet.practice_id', 'installation', true)", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO practice (id, name, time_zone, profile, created_at)
                    VALUES (\(practice.rawValue), 'Riverside', 'Europe/London', \(profileJSON)::jsonb, now())
                    """, logger: logger)
                for entry in legacy {
                    try await connection.query(
                        """
                        INSERT INTO audit_entry (seq, id, occurred_at, practice_id, action, resource_type, resource_id,
                                                 outcome, prev_hash, hash)
                        VALUES (\(entry.sequence), \(entry.id), \(entry.occurredAt), \(entry.practiceID), \
                        \(entry.action),
                                \(entry.resourceType), \(entry.resourceID), 'success', \(entry.previousHash), \
                        \(entry.hash))
                        """, logger: logger)
                }
                let signature = AuditChain.headSignature(
                    chain: AuditChain.installationChain, sequence: 3, hash: previous, key: testAuditKey)
                try await connection.query(
                    "UPDATE audit_head SET seq = 3, hash = \(previous), signature = \(signature)", logger: logger)
            }
            let applied = try await PostgresSchema.migrate(client, logger: logger)
            #expect(applied == [PostgresSchema.auditChainPerPracticeMigration])
            #expect(PostgresSchema.leavesHeadsToSign(applied))
            try await withRunningStore(configuration, clock: TestClock(), migrate: false) { store in
                // Before its first head is signed, the practice's chain does not verify.
                #expect(try await store.verifyAuditChain().firstProblem?.reason.contains("not signed") == true)
                try await store.signAuditHeadsAfterUpgrade()
                let upgraded = try await store.verifyAuditChain()
                #expect(upgraded.isIntact && upgraded.checked == 3 && upgraded.chains == 2, "\(upgraded)")

                for index in 0..<3 {
                    try await store.recordAudit(
                        AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "new\(index)"),
                        scope: .system(practice))
                }
                try await store.recordAudit(Self.read, scope: nil)
                let after = try await store.verifyAuditChain()
                #expect(after.isIntact && after.checked == 7 && after.chains == 2, "\(after)")
                #expect(after.headSequence == 4, "the installation's chain went on from its old head")

                // Newest first across the practice's own chain and the one it shared before.
                var names: [String?] = []
                var cursor: Int64?
                repeat {
                    let page = try await store.auditEntries(
                        scope: .system(practice), limit: 2, before: cursor, resourceType: nil, resourceID: nil)
                    names += page.items.map(\.resourceID)
                    cursor = page.nextCursor.flatMap { Int64($0) }
                } while cursor != nil
                #expect(names == ["new2", "new1", "new0", "old2", "old0"])

                let seen = try await store.verifyAuditChain(visibleTo: .system(practice))
                #expect(seen.isIntact && seen.checked == 5 && seen.headSequence == 3, "\(seen)")
            }
        }
    }
}
