import Foundation
import SharedKernel
import StorageSupport

/// The hash-chain arithmetic, kept apart from SQL so it can be checked on its own.
package enum AuditChain {
    /// The `previousHash` of the first entry.
    package static let genesis = String(repeating: "0", count: 64)

    /// HMAC-SHA256 over the canonical form of `entry` (all fields but `hash`, in a fixed order,
    /// separated by the ASCII unit separator, which no field can contain unnoticed because
    /// each field is length-prefixed).
    package static func hash(of entry: AuditEntry, key: AuditKey) -> String {
        let fields: [String?] = [
            String(entry.sequence), UUIDText.lowercase(entry.id), entry.occurredAt, entry.practiceID, entry.actorID,
            entry.action, entry.resourceType, entry.resourceID, entry.outcome.rawValue, entry.requestID, entry.detail,
            entry.previousHash,
        ]
        var canonical = ""
        for field in fields {
            if let field {
                canonical += "\(field.utf8.count):\(field)\u{1F}"
            } else {
                canonical += "-\u{1F}"
            }
        }
        return key.authenticationCode(of: canonical)
    }
}

/// The outcome of walking the chain.
public struct AuditVerification: Sendable, CustomStringConvertible {
    /// Number of entries checked.
    public let checked: Int
    /// The first broken entry and why, or `nil` when the chain is intact.
    public let firstProblem: Problem?
    /// The hash of the last entry verified.
    public let headHash: String
    /// The sequence number of the last entry verified.
    public let headSequence: Int64
    /// The checkpoint the chain was held to, if one was found.
    public let checkpoint: AuditCheckpoint?
    /// How many chains were walked: one on a store with a single chain, one per practice (and
    /// one for the installation's own entries) where each practice appends to its own.
    public let chains: Int

    /// A break in the chain.
    public struct Problem: Sendable, CustomStringConvertible {
        /// Sequence number of the first entry that does not verify.
        public let sequence: Int64
        /// Its id as stored.
        public let id: String
        /// What is wrong.
        public let reason: String

        /// Names the entry and what is wrong with it.
        public init(sequence: Int64, id: String, reason: String) {
            self.sequence = sequence
            self.id = id
            self.reason = reason
        }

        public var description: String { "entry #\(sequence) (id \(id)): \(reason)" }
    }

    /// The result of a walk.
    public init(
        checked: Int, firstProblem: Problem?, headHash: String, headSequence: Int64, checkpoint: AuditCheckpoint?,
        chains: Int = 1
    ) {
        self.checked = checked
        self.firstProblem = firstProblem
        self.headHash = headHash
        self.headSequence = headSequence
        self.checkpoint = checkpoint
        self.chains = chains
    }

    /// Whether the whole chain verified.
    public var isIntact: Bool { firstProblem == nil }

    /// A verification as one practice may see it: the practice's own entry count and head,
    /// and a break named only when it lies in the practice's own entries (`ownProblem`). A
    /// break elsewhere (`problemElsewhere`) is reported only as that, so no practice learns
    /// another's activity; the operator's `vetnet audit verify` names it.
    public static func seenByPractice(
        checked: Int, head: (sequence: Int64, hash: String)?, ownProblem: Problem?, problemElsewhere: Bool
    ) -> AuditVerification {
        let elsewhere = Problem(
            sequence: 0, id: "-",
            reason: """
                the installation's audit trail is broken outside this practice's entries; the operator's `vetnet \
                audit verify` names the entry
                """)
        return AuditVerification(
            checked: checked, firstProblem: ownProblem ?? (problemElsewhere ? elsewhere : nil),
            headHash: head?.hash ?? AuditChain.genesis, headSequence: head?.sequence ?? 0, checkpoint: nil)
    }

    public var description: String {
        if let firstProblem { return "audit chain BROKEN after checking \(checked) entries: \(firstProblem)" }
        let held =
            checkpoint.map { "; checkpoint of \($0.writtenAt) at entry #\($0.sequence) matches" }
            ?? (checked > 0 ? "; no checkpoint found, so deletion of the newest entries cannot be ruled out" : "")
        if chains > 1 {
            return "audit chains intact: \(checked) entries verified in \(chains) chains (one per practice)\(held)"
        }
        return "audit chain intact: \(checked) entries verified, head #\(headSequence) \(headHash)\(held)"
    }
}

extension AuditChain {
    /// `entry`, recorded by another installation, as the next link of this chain: the same
    /// id, time, practice, actor, action, resource, outcome, request and detail, at
    /// `sequence` after `previousHash`, sealed with this chain's `key`. A moved practice's
    /// history so stays verifiable where it now lives.
    package static func carried(_ entry: AuditEntry, sequence: Int64, previousHash: String, key: AuditKey) -> AuditEntry
    {
        var link = entry
        link.sequence = sequence
        link.previousHash = previousHash
        link.hash = ""
        link.hash = hash(of: link, key: key)
        return link
    }
}

extension AuditChain {
    /// The signature of a chain head kept in the database (PostgreSQL's `audit_head`): an HMAC
    /// of the chain it heads, its sequence and hash with the audit key, under a label of its
    /// own, so that whoever can write the database but does not hold the key cannot move a head
    /// back to match a chain cut at its end, nor give one chain another's head.
    ///
    /// `chain` is the practice's id, or ``installationChain``. The installation's chain was
    /// the only one before practices had their own, and keeps the form its head was signed in
    /// then (no chain named), so a head signed before still verifies.
    package static func headSignature(chain: String, sequence: Int64, hash: String, key: AuditKey) -> String {
        let text =
            chain == installationChain
            ? "vetnet-audit-head-v1\u{1F}\(sequence)\u{1F}\(hash)"
            : "vetnet-audit-head-v2\u{1F}\(chain)\u{1F}\(sequence)\u{1F}\(hash)"
        return key.authenticationCode(of: text)
    }

    /// The name of the chain of entries made for no practice (failed sign-ins of unknown
    /// accounts, the operator's commands), and of every entry written before each practice
    /// had a chain of its own.
    package static let installationChain = ""

    /// The chain an entry of `practiceID` joins where each practice has its own.
    package static func chain(ofPractice practiceID: String?) -> String { practiceID ?? installationChain }
}
