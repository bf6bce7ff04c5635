import Foundation
import GRDB
import PostgresNIO
import SharedKernel
import StoragePorts
import Testing

extension StoreUnderTest {
    /// Runs `statements` straight against the database, as someone with the database's own
    /// privileges would, bypassing the store (`protections` off first when asked: the
    /// append-only triggers, and on PostgreSQL the row-level security of the trail).
    func rawSQL(_ statements: [String], liftingProtections: Bool) async throws {
        if let sqlite {
            try await sqlite.writer.write { db in
                if liftingProtections {
                    try db.execute(sql: "DROP TRIGGER audit_entry_no_update; DROP TRIGGER audit_entry_no_delete")
                }
                for statement in statements { try db.execute(sql: statement) }
            }
        } else if let postgres {
            try await postgres.owner.client.withConnection { connection in
                try await connection.query(
                    "SELECT set_config('vetnet.practice_id', 'installation', false)", logger: Logger(label: "test"))
                if liftingProtections {
                    try await connection.query(
                        "ALTER TABLE audit_entry DISABLE TRIGGER audit_entry_no_change", logger: Logger(label: "test"))
                    try await connection.query(
                        "ALTER TABLE audit_entry DISABLE ROW LEVEL SECURITY", logger: Logger(label: "test"))
                }
                for statement in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test"))
                }
            }
        }
    }
}

/// Tampering with the trail, held to both stores: the store refuses to change an entry, and
/// someone who lifts its protections is caught by verification at the first entry touched.
@Suite("Audit trail contract: tampering is refused or named")
struct AuditTamperContractTests {
    /// The practice whose entries the tests tamper with.
    static let practice = PracticeID()

    /// Twelve entries: six of one practice, six made for no practice, alternating. The
    /// embedded store keeps them in one chain (#1…#12); PostgreSQL in the practice's chain
    /// (#1…#6) and the installation's (#1…#6).
    static func populated(_ store: StoreUnderTest) async throws {
        for index in 0..<6 {
            try await store.audit.recordAudit(
                AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "p\(index)"),
                scope: .system(practice))
            try await store.audit.recordAudit(
                AuditRecord(action: .authLogin, resourceType: .session, outcome: .failure), scope: nil)
        }
        let verification = try await store.audit.verifyAuditChain()
        #expect(verification.isIntact && verification.checked == 12)
        #expect(verification.chains == (store.adapter == .postgres ? 2 : 1))
    }

    /// The entry at `sequence` of the chain the tests tamper with: the embedded store's one
    /// chain, or the practice's on PostgreSQL.
    static func entry(_ sequence: Int, _ adapter: Adapter) -> String {
        adapter == .postgres ? "chain <> '' AND seq = \(sequence)" : "seq = \(sequence)"
    }

    @Test("UPDATE and DELETE through the database change nothing of the trail", arguments: Adapter.available)
    func appendOnly(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            try await Self.populated(store)
            for statement in ["UPDATE audit_entry SET action = 'x'", "DELETE FROM audit_entry WHERE seq = 3"] {
                // SQLite's triggers refuse it. On PostgreSQL no policy admits an UPDATE or DELETE
                // of the trail, so even its owner's statement finds no row to change (the serving
                // role's is refused outright: PostgresRuntimeRoleTests). The statements are sound:
                // with the protections lifted, the tests below run the same kind.
                switch adapter {
                case .sqlite:
                    await #expect(throws: (any Error).self, "\(statement)") {
                        try await store.rawSQL([statement], liftingProtections: false)
                    }
                case .postgres:
                    try await store.rawSQL([statement], liftingProtections: false)
                }
            }
            let verification = try await store.audit.verifyAuditChain()
            #expect(verification.isIntact && verification.checked == 12)
        }
    }

    @Test(
        "PostgreSQL: the newest entries deleted and the head moved back to match are caught by the head's signature",
        .enabled(
            if: Adapter.available.contains(.postgres),
            "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
    func headMovedBack() async throws {
        try await withStore(.postgres) { store in
            try await Self.populated(store)
            // What the serving role could do on its own tables: cut the end and re-point the head.
            try await store.rawSQL(
                [
                    "DELETE FROM audit_entry WHERE chain <> '' AND seq > 3",
                    """
                    UPDATE audit_head SET seq = 3, hash = (SELECT hash FROM audit_entry WHERE chain <> '' AND seq = \
                    3) WHERE chain <> ''
                    """,
                ],
                liftingProtections: true)
            let verification = try await store.audit.verifyAuditChain()
            #expect(!verification.isIntact)
            #expect(verification.firstProblem?.reason.contains("not signed with this installation's audit key") == true)
            #expect(verification.firstProblem?.reason.contains("practice \(Self.practice)") == true)
            // A signature copied from the old head does not fit the moved one either.
            try await store.rawSQL(["UPDATE audit_head SET signature = NULL"], liftingProtections: false)
            #expect(!(try await store.audit.verifyAuditChain().isIntact))
        }
    }

    @Test(
        """
        PostgreSQL: a chain's head given another chain's, a head deleted, or a practice's whole chain deleted is named
        """,
        .enabled(
            if: Adapter.available.contains(.postgres),
            "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
    func chainsHoldEachOther() async throws {
        // Both chains end at #6: the installation's head, signed, put on the practice's chain.
        try await withStore(.postgres) { store in
            try await Self.populated(store)
            try await store.rawSQL(
                [
                    """
                    UPDATE audit_head SET signature = (SELECT signature FROM audit_head WHERE chain = ''),
                        hash = (SELECT hash FROM audit_head WHERE chain = '') WHERE chain <> ''
                    """,
                    "DELETE FROM audit_entry WHERE chain <> ''",
                    """
                    INSERT INTO audit_entry (chain, seq, id, occurred_at, practice_id, actor_id, action, resource_type,
                        resource_id, outcome, request_id, detail, prev_hash, hash)
                    SELECT '\(Self.practice)', seq, gen_random_uuid(), occurred_at, practice_id, actor_id, action,
                        resource_type, resource_id, outcome, request_id, detail, prev_hash, hash
                    FROM audit_entry WHERE chain = ''
                    """,
                ],
                liftingProtections: true)
            let verification = try await store.audit.verifyAuditChain()
            #expect(verification.firstProblem?.reason.contains("not signed") == true, "\(verification)")
        }
        // The head row deleted, the entries kept.
        try await withStore(.postgres) { store in
            try await Self.populated(store)
            try await store.rawSQL(["DELETE FROM audit_head WHERE chain <> ''"], liftingProtections: true)
            let verification = try await store.audit.verifyAuditChain()
            #expect(
                verification.firstProblem?.reason.contains("practice \(Self.practice)'s audit chain has no head row")
                    == true)
        }
        // A practice's every entry and its head deleted: the practice is there, its chain is not.
        try await withStore(.postgres) { store in
            let (profile, _) = try await store.accounts.createPractice(
                PracticeProfile(id: PracticeID(), name: "Riverside", timeZone: "Europe/London", openingHours: []),
                administrator: FirstAdministrator(email: "ada@example.com", displayName: "Ada", passwordHash: "h1"),
                requestID: nil)
            #expect(try await store.audit.verifyAuditChain().isIntact)
            try await store.rawSQL(
                [
                    "DELETE FROM audit_entry WHERE chain = '\(profile.id)'",
                    "DELETE FROM audit_head WHERE chain = '\(profile.id)'",
                ], liftingProtections: true)
            let verification = try await store.audit.verifyAuditChain()
            #expect(
                verification.firstProblem?.reason.contains("practice \(profile.id)'s audit chain has no head row")
                    == true)
        }
    }

    @Test("an edited, deleted or swapped entry is named by verification", arguments: Adapter.available)
    func tamperingNamed(adapter: Adapter) async throws {
        let at = { (sequence: Int) in Self.entry(sequence, adapter) }
        let cases: [(statements: [String], firstBad: Int64)] = [
            (["UPDATE audit_entry SET action = 'user.read' WHERE \(at(5))"], 5),
            (["UPDATE audit_entry SET outcome = 'denied' WHERE \(at(6))"], 6),
            (["UPDATE audit_entry SET occurred_at = '2020-01-01T00:00:00.000Z' WHERE \(at(2))"], 2),
            (["DELETE FROM audit_entry WHERE \(at(3))"], 4),
            (
                [
                    "UPDATE audit_entry SET seq = 1000 WHERE \(at(4))", "UPDATE audit_entry SET seq = 4 WHERE \(at(5))",
                    "UPDATE audit_entry SET seq = 5 WHERE \(at(1000))",
                ], 4
            ),
        ]
        for (statements, firstBad) in cases {
            try await withStore(adapter) { store in
                try await Self.populated(store)
                try await store.rawSQL(statements, liftingProtections: true)
                let verification = try await store.audit.verifyAuditChain()
                #expect(!verification.isIntact, "\(statements) went unnoticed")
                #expect(verification.firstProblem?.sequence == firstBad, "\(statements)")
            }
        }
    }
}
