import Foundation
import GRDB
import SharedKernel
import StorageSQLite
import Testing

/// Deleting the newest audit entries leaves a shorter chain that verifies on its own; the
/// signed checkpoint kept outside the database is what shows it.
@Suite("Audit checkpoint")
struct AuditCheckpointTests {
    /// A store on disk with its checkpoint in a separate directory, and a few audited actions.
    static func store() throws -> (VetNetStore, URL, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-checkpoint-\(UUID().uuidString)")
        let checkpoint = root.appendingPathComponent("elsewhere/audit.checkpoint")
        let store = try VetNetStore.open(directory: root.appendingPathComponent("data"), auditKey: AuditKey(bytes: Array(repeating: 3, count: 32)),
                                         cipher: try RecordCipher(keyBytes: Array(repeating: 4, count: 32)), checkpoint: checkpoint)
        return (store, checkpoint, root)
    }

    static func addEntries(_ store: VetNetStore, count: Int) async throws {
        for index in 0..<count {
            try await store.recordAudit(AuditRecord(action: "patient.read", resourceType: "patient", resourceID: "p\(index)"), scope: nil)
        }
    }

    static func dropNewest(_ store: VetNetStore, _ count: Int) async throws {
        try await store.writer.write { db in
            try db.execute(sql: "DROP TRIGGER audit_entry_no_delete")
            try db.execute(sql: "DELETE FROM audit_entry WHERE seq > (SELECT MAX(seq) FROM audit_entry) - ?", arguments: [count])
        }
    }

    @Test("deleting the newest entries after a checkpoint makes verify fail, naming how many went")
    func truncationDetected() async throws {
        let (store, _, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 6)
        let checkpoint = try #require(try store.writeAuditCheckpoint())
        #expect(checkpoint.sequence == 6)
        #expect(try await store.verifyAuditChain().isIntact)

        try await Self.dropNewest(store, 2)
        let result = try await store.verifyAuditChain()
        #expect(!result.isIntact)
        #expect(result.firstProblem?.sequence == 5)
        #expect(result.firstProblem?.reason.contains("2 entries were deleted from the end") == true)
        // The checkpoint does not move back to the shorter chain, so the evidence stays.
        #expect(throws: AuditCheckpointFile.ReadError.self) { try store.writeAuditCheckpoint() }
        try store.close()
    }

    @Test("a chain that grew after the checkpoint verifies, and the checkpoint advances")
    func growthAccepted() async throws {
        let (store, _, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 3)
        try store.writeAuditCheckpoint()
        try await Self.addEntries(store, count: 4)
        let result = try await store.verifyAuditChain()
        #expect(result.isIntact)
        #expect(result.checkpoint?.sequence == 3)
        #expect(try store.writeAuditCheckpoint()?.sequence == 7)
    }

    @Test("a checkpoint edited without the key is refused")
    func forgedCheckpoint() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 4)
        try store.writeAuditCheckpoint()
        try await Self.dropNewest(store, 2)
        // An attacker rewrites the recorded sequence to match the shorter chain.
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: " 4 ", with: " 2 ")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let result = try await store.verifyAuditChain()
        #expect(!result.isIntact)
        #expect(result.firstProblem?.reason.contains("not signed with this store's audit key") == true)
    }

    @Test("the checkpoint file is readable by its owner only")
    func fileMode() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 1)
        try store.writeAuditCheckpoint()
        let mode = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
