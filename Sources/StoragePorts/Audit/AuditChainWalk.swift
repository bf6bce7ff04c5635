import Foundation
import SharedKernel
import StorageSupport

/// One audit chain walked entry by entry from its first, and its first problem named: what
/// makes a chain intact is decided here once, whichever store reads the entries.
///
/// A store feeds the entries in sequence order (``check(_:storedID:)``, or
/// ``unreadable(_:storedID:)`` for a row that does not read) and, at the end, what it recorded
/// of the chain's end (``finish(recordedHead:)``).
package struct AuditChainWalk {
    private let key: AuditKey
    private let practice: String?
    private let checkpoint: AuditCheckpoint?
    private var expectedPrevious = AuditChain.genesis
    private var expectedSequence: Int64 = 1
    private var checked = 0

    /// A walk with `key`. `practice`: the practice whose chain this is (each entry must be
    /// that practice's), or `nil` for a chain that holds entries of every practice.
    /// `checkpoint`: the last head recorded outside the database, which the chain must still
    /// hold.
    package init(key: AuditKey, practice: String? = nil, checkpoint: AuditCheckpoint? = nil) {
        self.key = key
        self.practice = practice
        self.checkpoint = checkpoint
    }

    /// Checks the next entry (`storedID`: its id as stored); the verification that ends the
    /// walk when the entry breaks the chain, `nil` when it links on.
    package mutating func check(_ entry: AuditEntry, storedID: String) -> AuditVerification? {
        func broken(_ reason: String) -> AuditVerification {
            verification(problem: .init(sequence: entry.sequence, id: storedID, reason: reason))
        }
        if AuditChain.hash(of: entry, key: key) != entry.hash {
            return broken("its content does not match its hash: the entry was edited, or inserted without the key")
        }
        if entry.sequence != expectedSequence {
            let missing = entry.sequence - expectedSequence
            return broken(
                """
                expected entry #\(expectedSequence) here: \(missing > 0 ? "\(missing) " : "")\
                entr\(missing == 1 ? "y was" : "ies were") deleted before it
                """)
        }
        if entry.previousHash != expectedPrevious {
            return broken(
                "it does not follow the previous entry's hash: entries were reordered, deleted or inserted before it")
        }
        // An entry moved into another practice's chain carries its own practice in its hash.
        if let practice, entry.practiceID != practice {
            return broken("it belongs to practice \(entry.practiceID ?? "-"), not to this chain's")
        }
        if let checkpoint, checkpoint.sequence == entry.sequence, checkpoint.headHash != entry.hash {
            return broken(
                """
                it is not the entry the checkpoint of \(checkpoint.writtenAt) recorded: the chain was rewritten from \
                here
                """)
        }
        expectedPrevious = entry.hash
        expectedSequence += 1
        checked += 1
        return nil
    }

    /// The verification that ends the walk at a row whose values do not read (`unreadable`
    /// names the column): a value of the wrong kind is an edit made outside VetNet.
    package func unreadable(_ unreadable: StoreCorruption, storedID: String) -> AuditVerification {
        verification(
            problem: .init(
                sequence: expectedSequence, id: storedID,
                reason: "its \(unreadable.column) does not read: the entry was edited"))
    }

    /// The verification once every entry has been checked: the chain must reach the head the
    /// database records with each append (`recordedHead`, where it keeps one) and the
    /// checkpoint, or its newest entries were deleted.
    package func finish(recordedHead: (sequence: Int64, hash: String)? = nil) -> AuditVerification {
        let last = expectedSequence - 1
        func cut(recorded sequence: Int64, as record: String) -> AuditVerification {
            let missing = sequence - last
            let deleted = missing > 0 ? "\(missing) entr\(missing == 1 ? "y was" : "ies were")" : "entries were"
            return verification(
                problem: .init(
                    sequence: last + 1, id: "-",
                    reason: """
                        the chain ends at entry #\(last), but \(record) entry #\(sequence): \(deleted) deleted \
                        from the end
                        """))
        }
        if let recordedHead, recordedHead.sequence != last || recordedHead.hash != expectedPrevious {
            return cut(recorded: recordedHead.sequence, as: "its head records")
        }
        if let checkpoint, checkpoint.sequence > last {
            return cut(recorded: checkpoint.sequence, as: "the checkpoint of \(checkpoint.writtenAt) recorded")
        }
        return verification(problem: nil)
    }

    /// Where the walk stands, with `problem`.
    private func verification(problem: AuditVerification.Problem?) -> AuditVerification {
        AuditVerification(
            checked: checked, firstProblem: problem, headHash: expectedPrevious, headSequence: expectedSequence - 1,
            checkpoint: checkpoint)
    }
}
