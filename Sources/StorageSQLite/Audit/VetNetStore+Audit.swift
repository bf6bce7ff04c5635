import Foundation
import GRDB
import SharedKernel

extension VetNetStore {
    // MARK: - Writing

    /// Appends an entry inside the caller's write transaction, so the entry commits or rolls
    /// back together with the change it records. SQLite serializes writers, so reading the
    /// chain head here cannot race with another append.
    @discardableResult
    public func appendAudit(_ record: AuditRecord, scope: AccessScope?, db: Database) throws -> AuditEntry {
        let head = try Row.fetchOne(db.cachedStatement(sql: "SELECT seq, hash FROM audit_entry ORDER BY seq DESC LIMIT 1"))
        let previousHash: String = head?["hash"] ?? AuditChain.genesis
        let sequence: Int64 = (head?["seq"] as Int64? ?? 0) + 1
        var entry = AuditEntry(
            sequence: sequence, id: UUID(), occurredAt: Timestamp.string(clock.now()),
            practiceID: scope?.practiceID.description, actorID: scope?.actorID?.description,
            action: record.action, resourceType: record.resourceType, resourceID: record.resourceID,
            outcome: record.outcome, requestID: scope?.requestID, detail: record.detail,
            previousHash: previousHash, hash: "")
        entry.hash = AuditChain.hash(of: entry, key: auditKey)
        try db.cachedStatement(sql: """
            INSERT INTO audit_entry (seq, id, occurred_at, practice_id, actor_id, action, resource_type,
                resource_id, outcome, request_id, detail, prev_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [entry.sequence, UUIDText.lowercase(entry.id), entry.occurredAt, entry.practiceID, entry.actorID,
                        entry.action, entry.resourceType, entry.resourceID, entry.outcome.rawValue, entry.requestID,
                        entry.detail, entry.previousHash, entry.hash])
        return entry
    }

    /// Appends an entry in a transaction of its own (for denials and reads that change nothing).
    public func recordAudit(_ record: AuditRecord, scope: AccessScope?) async throws {
        try await writer.write { db in _ = try self.appendAudit(record, scope: scope, db: db) }
    }

    // MARK: - Reading

    /// A page of the practice's audit entries, newest first. `cursor` is the sequence number
    /// to continue below.
    public func auditEntries(scope: AccessScope, limit: Int, before cursor: Int64?, resourceType: String? = nil, resourceID: String? = nil) async throws -> Page<AuditEntry> {
        try await writer.read { db in
            var sql = "SELECT * FROM audit_entry WHERE practice_id = ?"
            var arguments: StatementArguments = [scope.practiceID.description]
            if let cursor { sql += " AND seq < ?"; arguments += [cursor] }
            if let resourceType { sql += " AND resource_type = ?"; arguments += [resourceType] }
            if let resourceID { sql += " AND resource_id = ?"; arguments += [resourceID] }
            sql += " ORDER BY seq DESC LIMIT ?"
            arguments += [limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            let entries = rows.prefix(limit).map(Self.auditEntry(from:))
            let next = rows.count > limit ? entries.last.map { String($0.sequence) } : nil
            return Page(items: Array(entries), nextCursor: next)
        }
    }

    // MARK: - Verifying

    /// Walks the whole chain in sequence order and names the first entry that was edited,
    /// deleted, inserted or reordered.
    public func verifyAuditChain() async throws -> AuditVerification {
        try await writer.read { db in
            var expectedPrevious = AuditChain.genesis
            var expectedSequence: Int64 = 1
            var checked = 0
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM audit_entry ORDER BY seq")
            while let row = try cursor.next() {
                let entry = Self.auditEntry(from: row)
                let storedID: String = row["id"]
                func broken(_ reason: String) -> AuditVerification {
                    AuditVerification(checked: checked, firstProblem: .init(sequence: entry.sequence, id: storedID, reason: reason), headHash: expectedPrevious)
                }
                if AuditChain.hash(of: entry, key: self.auditKey) != entry.hash {
                    return broken("its content does not match its hash: the entry was edited, or inserted without the key")
                }
                if entry.sequence != expectedSequence {
                    return broken("expected entry #\(expectedSequence) here: \(entry.sequence - expectedSequence) entr\(entry.sequence - expectedSequence == 1 ? "y was" : "ies were") deleted before it")
                }
                if entry.previousHash != expectedPrevious {
                    return broken("it does not follow the previous entry's hash: entries were reordered, deleted or inserted before it")
                }
                expectedPrevious = entry.hash
                expectedSequence += 1
                checked += 1
            }
            return AuditVerification(checked: checked, firstProblem: nil, headHash: expectedPrevious)
        }
    }

    static func auditEntry(from row: Row) -> AuditEntry {
        AuditEntry(
            sequence: row["seq"], id: UUIDText.parse(row["id"] as String) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            occurredAt: row["occurred_at"], practiceID: row["practice_id"], actorID: row["actor_id"],
            action: row["action"], resourceType: row["resource_type"], resourceID: row["resource_id"],
            outcome: AuditOutcome(rawValue: row["outcome"]) ?? .failure, requestID: row["request_id"],
            detail: row["detail"], previousHash: row["prev_hash"], hash: row["hash"])
    }
}
