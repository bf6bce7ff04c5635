import Foundation
import GRDB
import SharedKernel
import StoragePorts
import StorageSupport

extension VetNetStore {
    // MARK: - Writing

    /// Appends an entry inside the caller's write transaction, so the entry commits or rolls
    /// back together with the change it records. SQLite serializes writers, so reading the
    /// chain head here cannot race with another append.
    @discardableResult
    public func appendAudit(_ record: AuditRecord, scope: AccessScope?, db: Database) throws -> AuditEntry {
        let head = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, hash FROM audit_entry ORDER BY seq DESC LIMIT 1"))
        let previousHash: String = try head?.read("hash") ?? AuditChain.genesis
        let sequence: Int64 = (try head?.read("seq", as: Int64.self) ?? 0) + 1
        var entry = AuditEntry(
            sequence: sequence, id: UUID(), occurredAt: Timestamp.string(clock.now()),
            practiceID: scope?.practiceID.description, actorID: scope?.actorID?.description,
            action: record.action.name, resourceType: record.resourceType, resourceID: record.resourceID,
            outcome: record.outcome, requestID: scope?.requestID, detail: record.detail,
            previousHash: previousHash, hash: "")
        entry.hash = AuditChain.hash(of: entry, key: auditKey)
        try Self.insertAuditEntry(entry, db: db)
        return entry
    }

    /// Appends an entry another installation recorded (a restored practice's history) as the
    /// next link of this chain, inside the caller's transaction.
    func appendCarriedAudit(_ entry: AuditEntry, db: Database) throws {
        let head = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, hash FROM audit_entry ORDER BY seq DESC LIMIT 1"))
        let link = AuditChain.carried(
            entry, sequence: (try head?.read("seq", as: Int64.self) ?? 0) + 1,
            previousHash: try head?.read("hash") ?? AuditChain.genesis,
            key: auditKey)
        try Self.insertAuditEntry(link, db: db)
    }

    /// Writes one linked entry of the chain, as it was hashed.
    private static func insertAuditEntry(_ entry: AuditEntry, db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO audit_entry (seq, id, occurred_at, practice_id, actor_id, action, resource_type,
                    resource_id, outcome, request_id, detail, prev_hash, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            entry.sequence, UUIDText.lowercase(entry.id), entry.occurredAt, entry.practiceID, entry.actorID,
            entry.action, entry.resourceType, entry.resourceID, entry.outcome.rawValue, entry.requestID,
            entry.detail, entry.previousHash, entry.hash,
        ])
    }

    /// Appends an entry in a transaction of its own (for denials and reads that change nothing).
    public func recordAudit(_ record: AuditRecord, scope: AccessScope?) async throws {
        try await write { db in _ = try self.appendAudit(record, scope: scope, db: db) }
    }

    // MARK: - Reading

    /// A page of the practice's audit entries, newest first. `cursor` is the sequence number
    /// to continue below.
    public func auditEntries(
        scope: AccessScope, limit: Int, before cursor: Int64?, resourceType: String? = nil, resourceID: String? = nil
    ) async throws -> Page<AuditEntry> {
        try await writer.read { db in
            var sql = "SELECT * FROM audit_entry WHERE practice_id = ?"
            var arguments: StatementArguments = [scope.practiceID.description]
            if let cursor {
                sql += " AND seq < ?"
                arguments += [cursor]
            }
            if let resourceType {
                sql += " AND resource_type = ?"
                arguments += [resourceType]
            }
            if let resourceID {
                sql += " AND resource_id = ?"
                arguments += [resourceID]
            }
            sql += " ORDER BY seq DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return Page(fetched: try rows.map(AuditRows.entry(from:)), limit: limit) { String($0.sequence) }
        }
    }

    // MARK: - Verifying

    /// Walks the whole chain in sequence order and names the first entry that was edited,
    /// deleted, inserted or reordered; then holds the chain to the signed checkpoint, which
    /// shows entries deleted from the end.
    public func verifyAuditChain() async throws -> AuditVerification {
        var checkpoint: AuditCheckpoint?
        var checkpointProblem: String?
        if let file = auditCheckpoint {
            do { checkpoint = try file.read(key: auditKey) } catch { checkpointProblem = "\(error)" }
        }
        let walked = try await walkAuditChain(checkpoint: checkpoint)
        if let checkpointProblem, walked.isIntact {
            return AuditVerification(
                checked: walked.checked,
                firstProblem: .init(sequence: walked.headSequence, id: "-", reason: checkpointProblem),
                headHash: walked.headHash, headSequence: walked.headSequence, checkpoint: nil)
        }
        return walked
    }

    /// The verification as one practice may see it. The chain is one for the whole
    /// installation, so the whole chain is walked and the answer says whether it is intact;
    /// but the count and head are the practice's own entries, and a broken entry is named only
    /// when it is the practice's — otherwise the answer says the break lies elsewhere and the
    /// operator's `vetnet audit verify` names it. No practice learns another's activity.
    public func verifyAuditChain(visibleTo scope: AccessScope) async throws -> AuditVerification {
        let whole = try await verifyAuditChain()
        let practice = scope.practiceID.description
        let (count, head, problemPractice) = try await writer.read { db -> (Int, Row?, String?) in
            let count =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM audit_entry WHERE practice_id = ?", arguments: [practice]) ?? 0
            let head = try Row.fetchOne(
                db, sql: "SELECT seq, hash FROM audit_entry WHERE practice_id = ? ORDER BY seq DESC LIMIT 1",
                arguments: [practice])
            let owner = try whole.firstProblem.flatMap {
                try String.fetchOne(
                    db, sql: "SELECT practice_id FROM audit_entry WHERE seq = ?", arguments: [$0.sequence])
            }
            return (count, head, owner)
        }
        let own = problemPractice == practice
        return .seenByPractice(
            checked: count, head: try head.map { (try $0.read("seq"), try $0.read("hash")) },
            ownProblem: own ? whole.firstProblem : nil,
            problemElsewhere: whole.firstProblem != nil && !own)
    }

    /// The chain's anchor as it stands (``AuditAnchor``); `nil` when the store keeps no checkpoint.
    public func auditAnchor() throws -> AuditAnchor? {
        guard let file = auditCheckpoint else { return nil }
        let read = Result { () throws -> AuditCheckpoint? in try file.read(key: auditKey) }
        let recorded = (try? read.get())?.map(\.sequence)
        let (head, atCheckpoint) = try writer.read { db -> ((sequence: Int64, hash: String)?, String?) in
            let head = try Row.fetchOne(db, sql: "SELECT seq, hash FROM audit_entry ORDER BY seq DESC LIMIT 1")
                .map { (sequence: try $0.read("seq") as Int64, hash: try $0.read("hash") as String) }
            let atCheckpoint = try recorded.flatMap {
                try String.fetchOne(db, sql: "SELECT hash FROM audit_entry WHERE seq = ?", arguments: [$0])
            }
            return (head, atCheckpoint)
        }
        return AuditAnchor.assess(head: head, checkpoint: read, hashAtCheckpoint: atCheckpoint)
    }

    /// Moves the checkpoint to the chain's current head; returns it, or `nil` when the store
    /// keeps no checkpoint. A new store (no entries, no checkpoint) gets its genesis checkpoint.
    ///
    /// Only an anchored chain's checkpoint moves (``AuditAnchor``): when the chain no longer
    /// holds the entry the checkpoint recorded, or the checkpoint is gone while entries exist,
    /// nothing is written and ``AuditNotAnchored`` is thrown, so the evidence stays for
    /// `verify` and the server refuses to start until `vetnet audit re-anchor`.
    ///
    /// Every write of the checkpoint takes its turn on one queue, the one that anchors each
    /// commit: the periodic writer and the commits never interleave, so a checkpoint read at an
    /// older head is never written over a newer one (an acknowledged entry would otherwise be
    /// left beyond the checkpoint).
    @discardableResult
    public func writeAuditCheckpoint() throws -> AuditCheckpoint? {
        try anchorQueue.sync { try writeAuditCheckpointInTurn() }
    }

    /// ``writeAuditCheckpoint()`` on the anchor queue.
    private func writeAuditCheckpointInTurn() throws -> AuditCheckpoint? {
        guard let file = auditCheckpoint, let anchor = try auditAnchor() else { return nil }
        let previous: AuditCheckpoint?
        switch anchor {
        case .empty: previous = nil
        case .anchored(let checkpoint): previous = checkpoint
        case .missing, .cut, .rewritten, .unreadable: throw AuditNotAnchored(anchor)
        }
        let head =
            try writer.read { db in
                try Row.fetchOne(db, sql: "SELECT seq, hash FROM audit_entry ORDER BY seq DESC LIMIT 1")
                    .map { (sequence: try $0.read("seq") as Int64, hash: try $0.read("hash") as String) }
            } ?? (sequence: AuditAnchor.genesisSequence, hash: AuditChain.genesis)
        if let previous, previous.sequence == head.sequence { return previous }
        let checkpoint = AuditCheckpoint(
            sequence: head.sequence, headHash: head.hash, writtenAt: Timestamp.string(clock.now()), key: auditKey)
        try file.write(checkpoint)
        return checkpoint
    }

    /// Keeps the checkpoint at the chain's head after a commit, before the commit is answered:
    /// an acknowledged change's entry is always covered, so deleting it shows in `verify` even
    /// after a crash. Commits that arrive together share one checkpoint write (the queue runs
    /// one at a time, and a later run finds the head already covered). A checkpoint that
    /// cannot move (a cut chain, a full disk) does not fail the committed change: the periodic
    /// writer logs it, and the server refuses its next start.
    func anchorCommitted() async {
        guard auditCheckpoint != nil else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            anchorQueue.async {
                _ = try? self.writeAuditCheckpointInTurn()
                continuation.resume()
            }
        }
    }

    /// Anchors the chain at its current end after the operator has looked into why it lost its
    /// anchor: refused when the chain itself does not verify (re-anchoring would hide the
    /// break); otherwise appends an `audit.re_anchored` entry naming what was found and the
    /// reason, then writes the checkpoint at that entry. Returns the state found and the new
    /// checkpoint.
    public func reanchorAudit(reason: String) async throws -> (found: AuditAnchor, checkpoint: AuditCheckpoint) {
        guard let file = auditCheckpoint else {
            throw AuditReanchorRefused(reason: "this store keeps no audit checkpoint")
        }
        let walked = try await walkAuditChain(checkpoint: nil)
        if let problem = walked.firstProblem {
            throw AuditReanchorRefused(
                reason: "the chain itself does not verify (\(problem)); restore the store from a backup instead")
        }
        let found = try auditAnchor() ?? .empty
        let record = AuditRecord(
            action: AuditReanchorRefused.action, resourceType: .auditTrail, outcome: .success,
            detail: "found: \(found.summary); reason: \(reason)")
        let entry = try await write { db in try self.appendAudit(record, scope: nil, db: db) }
        let checkpoint = AuditCheckpoint(
            sequence: entry.sequence, headHash: entry.hash, writtenAt: Timestamp.string(clock.now()), key: auditKey)
        try anchorQueue.sync { try file.write(checkpoint) }
        return (found, checkpoint)
    }

    private func walkAuditChain(checkpoint: AuditCheckpoint?) async throws -> AuditVerification {
        try await writer.read { db in
            var walk = AuditChainWalk(key: self.auditKey, checkpoint: checkpoint)
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM audit_entry ORDER BY seq")
            while let row = try cursor.next() {
                let storedID = (try? row.read("id", as: String?.self)).flatMap { $0 } ?? ""
                do {
                    if let broken = walk.check(try AuditRows.entry(from: row), storedID: storedID) { return broken }
                } catch let unreadable as StoreCorruption {
                    return walk.unreadable(unreadable, storedID: storedID)
                }
            }
            return walk.finish()
        }
    }
}
