import Foundation
import SharedKernel
import StoragePorts
import StorageSupport
import Testing

/// What makes a chain intact, decided once for both stores, checked without a store.
@Suite("Audit chain walk: the first break is named, and why")
struct AuditChainWalkTests {
    static let practice = PracticeID().description

    /// `count` linked entries of `practice`, sealed with the tests' key.
    static func chain(_ count: Int, practice: String? = practice) -> [AuditEntry] {
        var previous = AuditChain.genesis
        return (1...count).map { sequence in
            var entry = AuditEntry(
                sequence: Int64(sequence), id: UUID(), occurredAt: "2026-11-0\(sequence % 9 + 1)T09:00:00.000Z",
                practiceID: practice, actorID: nil, action: "patient.read", resourceType: "patient",
                resourceID: "p\(sequence)", outcome: .success, requestID: nil, detail: nil, previousHash: previous,
                hash: "")
            entry.hash = AuditChain.hash(of: entry, key: testAuditKey)
            previous = entry.hash
            return entry
        }
    }

    /// The walk of `entries` (ending against `head` when given).
    static func walk(
        _ entries: [AuditEntry], practice: String? = nil, checkpoint: AuditCheckpoint? = nil,
        head: (Int64, String)? = nil
    ) -> AuditVerification {
        var walk = AuditChainWalk(key: testAuditKey, practice: practice, checkpoint: checkpoint)
        for entry in entries {
            if let broken = walk.check(entry, storedID: entry.id.uuidString) { return broken }
        }
        return walk.finish(recordedHead: head)
    }

    @Test("an intact chain verifies to its head, against the head row and a checkpoint of it")
    func intact() {
        let entries = Self.chain(5)
        let last = entries[4]
        let checkpoint = AuditCheckpoint(sequence: 5, headHash: last.hash, writtenAt: "t", key: testAuditKey)
        let result = Self.walk(
            entries, practice: Self.practice, checkpoint: checkpoint, head: (last.sequence, last.hash))
        #expect(result.isIntact && result.checked == 5 && result.headSequence == 5 && result.headHash == last.hash)
    }

    @Test("an edit, a deletion, a reordering and an entry of another practice are each named at the entry")
    func breaks() {
        var edited = Self.chain(4)
        edited[2].detail = "changed"
        #expect(Self.walk(edited).firstProblem?.reason.contains("does not match its hash") == true)
        #expect(Self.walk(edited).firstProblem?.sequence == 3 && Self.walk(edited).checked == 2)

        var cut = Self.chain(6)
        cut.removeSubrange(1...2)
        #expect(Self.walk(cut).firstProblem?.reason.contains("expected entry #2 here: 2 entries were deleted") == true)

        let swapped = Self.chain(4)
        let reordered = [swapped[0], swapped[2], swapped[1], swapped[3]]
        #expect(Self.walk(reordered).firstProblem?.sequence == 3)

        let foreign = Self.chain(3, practice: PracticeID().description)
        let named = Self.walk(foreign, practice: Self.practice).firstProblem
        #expect(named?.sequence == 1 && named?.reason.contains("belongs to practice") == true)
        // A chain of every practice takes every practice's entries.
        #expect(Self.walk(foreign).isIntact)
    }

    @Test("newest entries deleted are named against the head row and against the checkpoint")
    func deletedFromTheEnd() {
        let entries = Self.chain(6)
        let kept = Array(entries.prefix(4))
        let byHead = Self.walk(kept, head: (6, entries[5].hash)).firstProblem
        #expect(byHead?.sequence == 5 && byHead?.reason.contains("its head records entry #6: 2 entries") == true)
        let checkpoint = AuditCheckpoint(sequence: 6, headHash: entries[5].hash, writtenAt: "t", key: testAuditKey)
        let byCheckpoint = Self.walk(kept, checkpoint: checkpoint).firstProblem
        #expect(byCheckpoint?.reason.contains("checkpoint of t recorded entry #6: 2 entries were deleted") == true)
        // A chain rewritten under the checkpoint is named where it differs.
        var rewritten = entries
        rewritten[5] = Self.chain(6)[5]
        #expect(Self.walk(rewritten, checkpoint: checkpoint).firstProblem?.sequence == 6)
    }

    @Test("a row that does not read ends the walk at the place it holds")
    func unreadable() {
        var walk = AuditChainWalk(key: testAuditKey)
        for entry in Self.chain(2) { #expect(walk.check(entry, storedID: "x") == nil) }
        let result = walk.unreadable(StoreCorruption(column: "seq", reason: "not a number"), storedID: "abc")
        #expect(result.firstProblem?.sequence == 3 && result.firstProblem?.id == "abc" && result.checked == 2)
        #expect(result.firstProblem?.reason == "its seq does not read: the entry was edited")
    }
}
