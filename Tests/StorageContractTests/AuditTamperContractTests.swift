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
    /// Twelve entries across two practices and the installation.
    static func populated(_ store: StoreUnderTest) async throws {
        for index in 0..<6 {
            try await store.audit.recordAudit(
                AuditRecord(action: .patientRead, resourceType: "patient", resourceID: "p\(index)"),
                scope: .system(PracticeID()))
            try await store.audit.recordAudit(
                AuditRecord(action: .authLogin, resourceType: "session", outcome: .failure), scope: nil)
        }
        #expect(try await store.audit.verifyAuditChain().isIntact)
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
                    "DELETE FROM audit_entry WHERE seq > 9",
                    "UPDATE audit_head SET seq = 9, hash = (SELECT hash FROM audit_entry WHERE seq = 9)",
                ],
                liftingProtections: true)
            let verification = try await store.audit.verifyAuditChain()
            #expect(!verification.isIntact)
            #expect(verification.firstProblem?.reason.contains("not signed with this installation's audit key") == true)
            // A signature copied from the old head does not fit the moved one either.
            try await store.rawSQL(["UPDATE audit_head SET signature = NULL"], liftingProtections: false)
            #expect(!(try await store.audit.verifyAuditChain().isIntact))
        }
    }

    @Test("an edited, deleted or swapped entry is named by verification", arguments: Adapter.available)
    func tamperingNamed(adapter: Adapter) async throws {
        let cases: [(statements: [String], firstBad: Int64)] = [
            (["UPDATE audit_entry SET action = 'user.read' WHERE seq = 6"], 6),
            (["UPDATE audit_entry SET outcome = 'denied' WHERE seq = 7"], 7),
            (["UPDATE audit_entry SET occurred_at = '2020-01-01T00:00:00.000Z' WHERE seq = 8"], 8),
            (["DELETE FROM audit_entry WHERE seq = 4"], 5),
            (
                [
                    "UPDATE audit_entry SET seq = 1000 WHERE seq = 5", "UPDATE audit_entry SET seq = 5 WHERE seq = 6",
                    "UPDATE audit_entry SET seq = 6 WHERE seq = 1000",
                ], 5
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
