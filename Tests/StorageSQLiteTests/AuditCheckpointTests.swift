import Foundation
import GRDB
import SharedKernel
import StoragePorts
import StorageSQLite
import StorageSupport
import Synchronization
import Testing

/// Deleting the newest audit entries leaves a shorter chain that verifies on its own; the
/// signed checkpoint kept outside the database is what shows it.
@Suite("Audit checkpoint")
struct AuditCheckpointTests {
    /// A store on disk with its checkpoint in a separate directory, and a few audited actions.
    static func store() throws -> (VetNetStore, URL, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vetnet-checkpoint-\(UUID().uuidString)")
        let checkpoint = root.appendingPathComponent("elsewhere/audit.checkpoint")
        let store = try VetNetStore.open(
            directory: root.appendingPathComponent("data"), auditKey: AuditKey(bytes: Array(repeating: 3, count: 32)),
            cipher: try RecordCipher(keyBytes: Array(repeating: 4, count: 32)), checkpoint: checkpoint)
        return (store, checkpoint, root)
    }

    static func addEntries(_ store: VetNetStore, count: Int) async throws {
        for index in 0..<count {
            try await store.recordAudit(
                AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "p\(index)"), scope: nil)
        }
    }

    static func dropNewest(_ store: VetNetStore, _ count: Int) async throws {
        try await store.writer.write { db in
            try db.execute(sql: "DROP TRIGGER audit_entry_no_delete")
            try db.execute(
                sql: "DELETE FROM audit_entry WHERE seq > (SELECT MAX(seq) FROM audit_entry) - ?", arguments: [count])
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
        #expect(throws: AuditNotAnchored.self) { try store.writeAuditCheckpoint() }
        #expect(try store.auditAnchor() == .cut(headSequence: 4, checkpoint: checkpoint))
        try store.close()
    }

    /// Appends entries the way a commit does just before a crash: durable, but with no
    /// checkpoint written after them.
    static func addEntriesUnanchored(_ store: VetNetStore, count: Int) async throws {
        try await store.writer.write { db in
            for index in 0..<count {
                try store.appendAudit(
                    AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "c\(index)"), scope: nil,
                    db: db)
            }
        }
    }

    static func checkpointOnDisk(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test(
        """
        a chain that grew after the checkpoint (a crash between commit and checkpoint) verifies, and the checkpoint \
        advances
        """
    )
    func growthAccepted() async throws {
        let (store, _, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 3)
        try await Self.addEntriesUnanchored(store, count: 4)
        let result = try await store.verifyAuditChain()
        #expect(result.isIntact)
        #expect(result.checkpoint?.sequence == 3)
        #expect(try store.writeAuditCheckpoint()?.sequence == 7)
    }

    @Test("a new store is anchored at its start, so entries written before any later checkpoint never fail verify")
    func genesis() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.checkpointOnDisk(url).hasPrefix("vetnet-audit-checkpoint-v1 0 "))
        try await Self.addEntriesUnanchored(store, count: 5)
        let result = try await store.verifyAuditChain()
        #expect(result.isIntact && result.checkpoint?.sequence == 0)
    }

    @Test("the periodic checkpoint never moves back behind an acknowledged write while commits race it")
    func periodicWriterNeverMovesBack() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        let start = try #require(try store.writeAuditCheckpoint()).sequence
        let acknowledged = SharedFlag(0)
        let done = SharedFlag(false)
        // The periodic writer, as fast as it can go, beside eight clients writing at once, and
        // someone reading the file all along: it must never see the checkpoint go back. Both
        // loop on threads of their own, leaving the clients the task pool.
        let watched = SharedFlag<[Int64]>([])
        let failure = SharedFlag<String?>(nil)
        let stopped = DispatchGroup()
        stopped.enter()
        Thread.detachNewThread {
            defer { stopped.leave() }
            while !done.value.withLock({ $0 }) {
                do { _ = try store.writeAuditCheckpoint() } catch {
                    failure.value.withLock { $0 = "\(error)" }
                    return
                }
            }
        }
        stopped.enter()
        Thread.detachNewThread {
            defer { stopped.leave() }
            while !done.value.withLock({ $0 }) {
                guard let line = try? Self.checkpointOnDisk(url), let sequence = Int64(line.split(separator: " ")[1])
                else { continue }
                watched.value.withLock { if $0.last != sequence { $0.append(sequence) } }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<8 {
                group.addTask {
                    for index in 0..<30 {
                        try await store.recordAudit(
                            AuditRecord(
                                action: .patientRead, resourceType: .patient, resourceID: "c\(client)-\(index)"),
                            scope: nil)
                        // Every acknowledged entry is at or below the checkpoint from now on, and
                        // acknowledged entries have distinct places: the checkpoint is past as many.
                        let seen = acknowledged.value.withLock {
                            $0 += 1
                            return $0
                        }
                        let line = try Self.checkpointOnDisk(url)
                        let sequence = Int64(line.split(separator: " ")[1]) ?? -1
                        #expect(sequence >= start + Int64(seen), "checkpoint \(sequence) after \(seen) acknowledged")
                    }
                }
            }
            try await group.waitForAll()
        }
        done.value.withLock { $0 = true }
        stopped.wait()
        #expect(failure.value.withLock { $0 } == nil)
        let seen = watched.value.withLock { $0 }
        #expect(seen == seen.sorted(), "the checkpoint went back: \(seen)")
        #expect(try Self.checkpointOnDisk(url).hasPrefix("vetnet-audit-checkpoint-v1 \(start + 240) "))
        #expect(try await store.verifyAuditChain().isIntact)
    }

    @Test("every acknowledged write is covered by the checkpoint before it is answered")
    func acknowledgedIsAnchored() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        for count in 1...5 {
            try await Self.addEntries(store, count: 1)
            #expect(try Self.checkpointOnDisk(url).hasPrefix("vetnet-audit-checkpoint-v1 \(count) "))
        }
    }

    @Test(
        """
        a restart does not bless a cut trail: with the checkpoint deleted, closing and reopening write none and the \
        start is refused
        """
    )
    func missingCheckpointNotBlessed() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 6)
        try await Self.dropNewest(store, 3)
        try FileManager.default.removeItem(at: url)
        try store.close()
        let reopened = try VetNetStore.open(
            directory: root.appendingPathComponent("data"), auditKey: AuditKey(bytes: Array(repeating: 3, count: 32)),
            cipher: try RecordCipher(keyBytes: Array(repeating: 4, count: 32)), checkpoint: url)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let anchor = try #require(try reopened.auditAnchor())
        #expect(anchor == .missing(headSequence: 3))
        #expect(
            anchor.refusal(recovery: "vetnet audit re-anchor --reason …")?.contains("vetnet audit re-anchor") == true)
        // New writes do not anchor it either.
        try await Self.addEntries(reopened, count: 1)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try reopened.close()
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("re-anchoring records what was found and why in the trail, and the chain verifies against the new checkpoint")
    func reanchor() async throws {
        let (store, url, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 6)
        let before = try #require(try store.writeAuditCheckpoint())
        try await Self.dropNewest(store, 2)
        #expect(!(try store.auditAnchor()?.isAnchored ?? true))
        let (found, checkpoint) = try await store.reanchorAudit(reason: "restored after the disk failure of 27 Nov")
        #expect(found == .cut(headSequence: 4, checkpoint: before))
        #expect(checkpoint.sequence == 5)
        #expect(try Self.checkpointOnDisk(url).hasPrefix("vetnet-audit-checkpoint-v1 5 "))
        let newest = try #require(
            try await store.writer.read { db in
                try Row.fetchOne(db, sql: "SELECT action, detail FROM audit_entry ORDER BY seq DESC LIMIT 1")
            })
        #expect(newest["action"] as String == "audit.re_anchored")
        let detail: String = newest["detail"]
        #expect(detail.contains("restored after the disk failure of 27 Nov"))
        #expect(detail.contains("chain ends at #4 before the checkpoint's #6"))
        let result = try await store.verifyAuditChain()
        #expect(result.isIntact && result.checkpoint?.sequence == 5)
    }

    @Test("re-anchoring is refused while the chain itself does not verify")
    func reanchorRefusedOnEditedChain() async throws {
        let (store, _, root) = try Self.store()
        defer { try? FileManager.default.removeItem(at: root) }
        try await Self.addEntries(store, count: 4)
        try await store.writer.write { db in
            try db.execute(sql: "DROP TRIGGER audit_entry_no_update")
            try db.execute(sql: "UPDATE audit_entry SET action = 'user.read' WHERE seq = 2")
        }
        await #expect(throws: AuditReanchorRefused.self) { try await store.reanchorAudit(reason: "hide it") }
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

/// A value the test's concurrent tasks share.
private final class SharedFlag<Value: Sendable>: Sendable {
    let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
}
