import Foundation
import GRDB
import SharedKernel
import StoragePorts
import StorageSQLite
import StorageSupport
import Testing

@Suite("Audit chain")
struct AuditChainTests {
    /// A store with a few audited actions, and a way to tamper with it as an attacker with
    /// file access would: by dropping the append-only triggers first.
    func tamperedStore(_ tamper: @escaping @Sendable (Database) throws -> Void) async throws -> AuditVerification {
        let fixture = try await TwoPractices.make()
        for index in 0..<5 {
            _ = try await fixture.store.createUser(
                scope: fixture.scope(fixture.adminA), email: "u\(index)@alpha.example",
                displayName: "User \(index)", role: .technician, passwordHash: "x")
        }
        #expect(try await fixture.store.verifyAuditChain().isIntact)
        try await fixture.store.writer.write { db in
            try db.execute(sql: "DROP TRIGGER audit_entry_no_update; DROP TRIGGER audit_entry_no_delete")
            try tamper(db)
        }
        return try await fixture.store.verifyAuditChain()
    }

    @Test("an intact chain verifies and counts every entry")
    func intact() async throws {
        let fixture = try await TwoPractices.make()
        let result = try await fixture.store.verifyAuditChain()
        #expect(result.isIntact)
        #expect(result.checked == 4) // two practices, two administrators
    }

    @Test("editing an entry's action is named")
    func edited() async throws {
        let result = try await tamperedStore { db in
            try db.execute(sql: "UPDATE audit_entry SET action = 'user.read' WHERE seq = 6")
        }
        #expect(result.firstProblem?.sequence == 6)
        #expect(result.firstProblem?.reason.contains("edited") == true)
    }

    @Test(
        "editing the outcome or the actor is named",
        arguments: ["outcome = 'denied'", "actor_id = NULL", "occurred_at = '2020-01-01T00:00:00.000Z'"])
    func editedFields(assignment: String) async throws {
        let result = try await tamperedStore { db in
            try db.execute(sql: "UPDATE audit_entry SET \(assignment) WHERE seq = 7")
        }
        #expect(result.firstProblem?.sequence == 7)
    }

    @Test("deleting an entry is named at the entry after the gap")
    func deleted() async throws {
        let result = try await tamperedStore { db in try db.execute(sql: "DELETE FROM audit_entry WHERE seq = 4") }
        #expect(result.firstProblem?.sequence == 5)
        #expect(result.firstProblem?.reason.contains("deleted") == true)
    }

    @Test("inserting a forged entry is named")
    func inserted() async throws {
        let result = try await tamperedStore { db in
            try db.execute(sql: "UPDATE audit_entry SET seq = seq + 100 WHERE seq >= 5")
            try db.execute(
                sql: """
                    INSERT INTO audit_entry (seq, id, occurred_at, action, resource_type, outcome, prev_hash, hash)
                    SELECT 5, '00000000-0000-0000-0000-000000000001', occurred_at, 'user.read', 'user', 'success', \
                    hash, hash
                    FROM audit_entry WHERE seq = 4
                    """)
        }
        #expect(result.firstProblem?.sequence == 5)
    }

    @Test("swapping two entries is named")
    func reordered() async throws {
        let result = try await tamperedStore { db in
            try db.execute(sql: "UPDATE audit_entry SET seq = 1000 WHERE seq = 5")
            try db.execute(sql: "UPDATE audit_entry SET seq = 5 WHERE seq = 6")
            try db.execute(sql: "UPDATE audit_entry SET seq = 6 WHERE seq = 1000")
        }
        #expect(result.firstProblem?.sequence == 5)
    }

    @Test("the store itself refuses UPDATE and DELETE on the trail")
    func appendOnly() async throws {
        let fixture = try await TwoPractices.make()
        await #expect(throws: DatabaseError.self) {
            try await fixture.store.writer.write { db in try db.execute(sql: "UPDATE audit_entry SET action = 'x'") }
        }
        await #expect(throws: DatabaseError.self) {
            try await fixture.store.writer.write { db in try db.execute(sql: "DELETE FROM audit_entry") }
        }
        #expect(try await fixture.store.verifyAuditChain().isIntact)
    }

    @Test("a failed change leaves no audit entry (same transaction)")
    func atomicWithChange() async throws {
        let fixture = try await TwoPractices.make()
        let before = try await fixture.store.verifyAuditChain().checked
        await #expect(throws: UniquenessConflict.self) {
            _ = try await fixture.store.createUser(
                scope: fixture.scope(fixture.adminA), email: fixture.adminA.email,
                displayName: "Duplicate", role: .technician, passwordHash: "x")
        }
        #expect(try await fixture.store.verifyAuditChain().checked == before)
    }

    @Test("a different key does not verify the chain")
    func wrongKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-audit-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try VetNetStore.open(
            directory: directory, auditKey: AuditKey(bytes: Array(repeating: 1, count: 32)),
            cipher: try RecordCipher(keyBytes: Array(repeating: 3, count: 32)))
        try await store.createPractice(PracticeProfile(id: PracticeID(), name: "K", timeZone: "UTC", openingHours: []))
        try store.close()
        let other = try VetNetStore.open(
            directory: directory, auditKey: AuditKey(bytes: Array(repeating: 2, count: 32)),
            cipher: try RecordCipher(keyBytes: Array(repeating: 3, count: 32)))
        #expect(try await other.verifyAuditChain().firstProblem?.sequence == 1)
        try other.close()
    }
}
