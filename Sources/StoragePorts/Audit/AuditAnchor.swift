import Foundation
import SharedKernel
import StorageSupport

/// Whether the audit chain's end is held by its signed checkpoint — the one rule that the
/// server's start, the checkpoint writer, `vetnet audit verify` and `vetnet audit re-anchor`
/// share.
///
/// The checkpoint only ever moves forward along the same chain, and only a store that is
/// anchored may move it: a restart, a closing store or a verify never writes a checkpoint for
/// a chain that has lost the one it had, so a cut trail is never blessed silently. Moving the
/// anchor of a store that lost it is an explicit, audited operator command.
public enum AuditAnchor: Sendable, Equatable {
    /// The checkpoint is on the chain: at its head, or behind it (entries written since, e.g.
    /// before a crash, which never makes an untampered trail fail).
    case anchored(AuditCheckpoint)
    /// No entry and no checkpoint: a new store, anchored at its start by a genesis checkpoint.
    case empty
    /// Entries but no checkpoint: it was deleted (or the store predates checkpoints).
    case missing(headSequence: Int64)
    /// The chain ends before the entry the checkpoint recorded: entries were deleted from the end.
    case cut(headSequence: Int64, checkpoint: AuditCheckpoint)
    /// The entry at the checkpoint's position is another one: the chain was rewritten from there.
    case rewritten(checkpoint: AuditCheckpoint)
    /// The checkpoint file is malformed or not signed with this store's audit key.
    case unreadable(reason: String)

    /// The sequence a genesis checkpoint records: before the first entry.
    public static let genesisSequence: Int64 = 0

    /// Decides the state from the chain's head (`nil`: no entries), the checkpoint as read (or
    /// why it could not be), and the hash the chain holds at the checkpoint's sequence.
    public static func assess(
        head: (sequence: Int64, hash: String)?, checkpoint: Result<AuditCheckpoint?, any Error>,
        hashAtCheckpoint: String?
    ) -> AuditAnchor {
        let found: AuditCheckpoint?
        switch checkpoint {
        case .failure(let error): return .unreadable(reason: "\(error)")
        case .success(let read): found = read
        }
        guard let found else {
            guard let head else { return .empty }
            return .missing(headSequence: head.sequence)
        }
        let headSequence = head?.sequence ?? 0
        if found.sequence > headSequence { return .cut(headSequence: headSequence, checkpoint: found) }
        if found.sequence == genesisSequence {
            return found.headHash == AuditChain.genesis ? .anchored(found) : .rewritten(checkpoint: found)
        }
        return hashAtCheckpoint == found.headHash ? .anchored(found) : .rewritten(checkpoint: found)
    }

    /// Whether the checkpoint may move forward (and the server start).
    public var isAnchored: Bool {
        switch self {
        case .anchored, .empty: return true
        case .missing, .cut, .rewritten, .unreadable: return false
        }
    }

    /// Why a server must not start on this chain, with the way to recover; `nil` when anchored.
    public func refusal(recovery: String) -> String? {
        let what: String
        switch self {
        case .anchored, .empty: return nil
        case .missing(let head):
            what =
                """
                the audit chain has \(head) entries but its checkpoint is missing, so entries deleted from the end \
                could not be told
                """
        case .cut(let head, let checkpoint):
            let missing = checkpoint.sequence - head
            what =
                "the audit chain ends at entry #\(head), but the checkpoint of \(checkpoint.writtenAt) recorded "
                + "entry #\(checkpoint.sequence): "
                + "\(missing) entr\(missing == 1 ? "y was" : "ies were") deleted from the end"
        case .rewritten(let checkpoint):
            what =
                "the audit chain no longer holds the entry #\(checkpoint.sequence) its checkpoint of "
                + "\(checkpoint.writtenAt) recorded: "
                + "the chain was rewritten from there"
        case .unreadable(let reason):
            what = reason
        }
        return
            "Refusing to start: \(what). Run `vetnet audit verify` to see the chain; once the cause is known and "
            + "recorded, "
            + "`\(recovery)` anchors the chain at its current end, recording the reason and what was found in the "
            + "trail itself."
    }

    /// The state in words, for the trail's own record of a re-anchoring.
    public var summary: String {
        switch self {
        case .anchored(let checkpoint): return "anchored at entry #\(checkpoint.sequence) (\(checkpoint.writtenAt))"
        case .empty: return "empty"
        case .missing(let head): return "checkpoint missing with \(head) entries"
        case .cut(let head, let checkpoint):
            return "chain ends at #\(head) before the checkpoint's #\(checkpoint.sequence) (\(checkpoint.writtenAt))"
        case .rewritten(let checkpoint):
            return "entry #\(checkpoint.sequence) differs from the checkpoint of \(checkpoint.writtenAt)"
        case .unreadable(let reason): return "checkpoint unreadable: \(reason)"
        }
    }
}

/// The checkpoint was not moved because the chain is not anchored (see ``AuditAnchor``).
public struct AuditNotAnchored: Error, CustomStringConvertible {
    /// What was found.
    public let anchor: AuditAnchor

    /// Wraps the state found.
    public init(_ anchor: AuditAnchor) { self.anchor = anchor }

    public var description: String {
        "the audit checkpoint was not moved: \(anchor.summary); run `vetnet audit verify`"
    }
}

/// `vetnet audit re-anchor` was refused.
public struct AuditReanchorRefused: Error, CustomStringConvertible {
    /// The trail's own record of a re-anchoring.
    public static let action = AuditAction.auditReAnchored
    /// Why.
    public let reason: String

    /// A refusal for `reason`.
    public init(reason: String) { self.reason = reason }

    public var description: String { "re-anchoring refused: \(reason)" }
}
