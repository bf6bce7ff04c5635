import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: AuditRepository {
    // MARK: - Writing

    /// Appends an entry inside the caller's transaction. The head row is locked first
    /// (`FOR UPDATE`), so appends from every instance on the database queue behind one
    /// another until commit: the chain stays one line, and an entry rolls back with its change.
    @discardableResult
    func appendAudit(_ record: AuditRecord, scope: AccessScope?, connection: PostgresConnection) async throws
        -> AuditEntry
    {
        let (previousSequence, previousHash) = try await lockedHead(connection: connection)
        var entry = AuditEntry(
            sequence: previousSequence + 1, id: UUID(), occurredAt: Timestamp.string(clock.now()),
            practiceID: scope?.practiceID.description, actorID: scope?.actorID?.description,
            action: record.action.name, resourceType: record.resourceType, resourceID: record.resourceID,
            outcome: record.outcome, requestID: scope?.requestID, detail: record.detail,
            previousHash: previousHash, hash: "")
        entry.hash = AuditChain.hash(of: entry, key: auditKey)
        try await appendLink(entry, connection: connection)
        return entry
    }

    /// Appends an entry another installation recorded (a restored practice's history) as the
    /// next link of this chain, in the caller's transaction.
    func appendCarriedAudit(_ entry: AuditEntry, connection: PostgresConnection) async throws {
        let (previousSequence, previousHash) = try await lockedHead(connection: connection)
        let link = AuditChain.carried(entry, sequence: previousSequence + 1, previousHash: previousHash, key: auditKey)
        try await appendLink(link, connection: connection)
    }

    /// The chain's head, locked until the transaction ends (appends from every instance queue here).
    private func lockedHead(connection: PostgresConnection) async throws -> (Int64, String) {
        for try await row in try await connection.query("SELECT seq, hash FROM audit_head FOR UPDATE", logger: logger)
            .decode((Int64, String).self)
        { return row }
        throw StoreCorruption(column: "audit_head", reason: "the head row is missing")
    }

    /// Writes a hashed entry and moves the signed head to it. One statement for both: every
    /// instance's audited writes queue on the head row until commit, so each round trip saved
    /// here is throughput for all.
    private func appendLink(_ entry: AuditEntry, connection: PostgresConnection) async throws {
        try await connection.query(
            """
            WITH appended AS (
                INSERT INTO audit_entry (seq, id, occurred_at, practice_id, actor_id, action, resource_type, resource_id, outcome,
                                         request_id, detail, prev_hash, hash)
                VALUES (\(entry.sequence), \(entry.id), \(entry.occurredAt), \(entry.practiceID), \(entry.actorID), \(entry.action),
                        \(entry.resourceType), \(entry.resourceID), \(entry.outcome.rawValue), \(entry.requestID), \(entry.detail),
                        \(entry.previousHash), \(entry.hash))
            )
            UPDATE audit_head SET seq = \(entry.sequence), hash = \(entry.hash),
                signature = \(AuditChain.headSignature(sequence: entry.sequence, hash: entry.hash, key: auditKey))
            """, logger: logger)
    }

    public func recordAudit(_ record: AuditRecord, scope: AccessScope?) async throws {
        try await transaction(scope.map { .practice($0.practiceID) } ?? .installation) { connection in
            _ = try await self.appendAudit(record, scope: scope, connection: connection)
        }
    }

    // MARK: - Reading

    public func auditEntries(
        scope: AccessScope, limit: Int, before cursor: Int64?, resourceType: String? = nil,
        resourceID: String? = nil
    ) async throws -> Page<AuditEntry> {
        let limit = max(0, limit)
        return try await transaction(.practice(scope.practiceID)) { connection in
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.auditColumns) FROM audit_entry
                WHERE practice_id = \(scope.practiceID.description) AND seq < \(cursor ?? Int64.max)
                  AND (\(resourceType)::text IS NULL OR resource_type = \(resourceType))
                  AND (\(resourceID)::text IS NULL OR resource_id = \(resourceID))
                ORDER BY seq DESC LIMIT \(limit + 1)
                """, logger: logger)
            var entries: [AuditEntry] = []
            for try await row in rows { entries.append(try Self.auditEntry(from: row)) }
            let more = entries.count > limit
            let page = Array(entries.prefix(limit))
            return Page(items: page, nextCursor: more ? page.last.map { String($0.sequence) } : nil)
        }
    }

    // MARK: - Verifying

    public func verifyAuditChain() async throws -> AuditVerification {
        try await transaction(.installation) { connection in
            // The head first, then the entries up to it: every entry the head counts committed
            // with it or before it, and the chain only grows, so writers appending meanwhile
            // (another instance, opening hours) cannot make a whole chain look cut.
            var head: (sequence: Int64, hash: String, signature: String?)?
            for try await (sequence, hash, signature) in try await connection.query(
                "SELECT seq, hash, signature FROM audit_head", logger: logger
            )
            .decode((Int64, String, String?).self) {
                head = (sequence, hash, signature)
            }
            guard let head else { throw StoreCorruption(column: "audit_head", reason: "the head row is missing") }
            // The head is signed with the audit key: moved back to match a cut chain without the
            // key, it no longer verifies. (A new database's head, before any entry, has none yet.)
            let unsignedGenesis = head.sequence == 0 && head.hash == AuditChain.genesis && head.signature == nil
            if !unsignedGenesis,
                head.signature != AuditChain.headSignature(sequence: head.sequence, hash: head.hash, key: self.auditKey)
            {
                return AuditVerification(
                    checked: 0,
                    firstProblem: .init(
                        sequence: head.sequence, id: "-",
                        reason:
                            "the chain's head row (entry #\(head.sequence)) is not signed with this installation's audit key: it was edited"
                    ),
                    headHash: head.hash, headSequence: head.sequence, checkpoint: nil)
            }
            var expectedPrevious = AuditChain.genesis
            var expectedSequence: Int64 = 1
            var checked = 0
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.auditColumns) FROM vetnet_audit_chain(1, \(head.sequence))",
                logger: logger)
            for try await row in rows {
                let entry = try Self.auditEntry(from: row)
                func broken(_ reason: String) -> AuditVerification {
                    AuditVerification(
                        checked: checked,
                        firstProblem: .init(
                            sequence: entry.sequence, id: entry.id.uuidString.lowercased(), reason: reason),
                        headHash: expectedPrevious, headSequence: expectedSequence - 1, checkpoint: nil)
                }
                if AuditChain.hash(of: entry, key: self.auditKey) != entry.hash {
                    return broken(
                        "its content does not match its hash: the entry was edited, or inserted without the key")
                }
                if entry.sequence != expectedSequence {
                    return broken("expected entry #\(expectedSequence) here: entries were deleted before it")
                }
                if entry.previousHash != expectedPrevious {
                    return broken(
                        "it does not follow the previous entry's hash: entries were reordered, deleted or inserted before it"
                    )
                }
                expectedPrevious = entry.hash
                expectedSequence += 1
                checked += 1
            }
            // The head row is written with every append: a chain shorter than it lost its newest entries.
            if head.sequence != expectedSequence - 1 || head.hash != expectedPrevious {
                return AuditVerification(
                    checked: checked,
                    firstProblem: .init(
                        sequence: expectedSequence, id: "-",
                        reason:
                            "the chain ends at entry #\(expectedSequence - 1), but its head records entry #\(head.sequence): entries were deleted from the end"
                    ),
                    headHash: expectedPrevious, headSequence: expectedSequence - 1, checkpoint: nil)
            }
            return AuditVerification(
                checked: checked, firstProblem: nil, headHash: expectedPrevious, headSequence: expectedSequence - 1,
                checkpoint: nil)
        }
    }

    /// Signs a head left unsigned by the upgrade that added head signatures (pg-12): called by
    /// the process that applied that migration, before anything else writes, so an
    /// installation's existing head is signed once. A head unsigned later stays unsigned and
    /// fails `verify`.
    public func signAuditHeadAfterUpgrade() async throws {
        try await transaction(.installation) { connection in
            var head: (Int64, String)?
            for try await row in try await connection.query(
                "SELECT seq, hash FROM audit_head WHERE signature IS NULL FOR UPDATE", logger: logger
            )
            .decode((Int64, String).self) { head = row }
            guard let (sequence, hash) = head else { return }
            try await connection.query(
                """
                UPDATE audit_head SET signature = \(AuditChain.headSignature(sequence: sequence, hash: hash, key: auditKey))
                """, logger: logger)
        }
    }

    static let auditColumns =
        "seq, id, occurred_at, practice_id, actor_id, action, resource_type, resource_id, outcome, request_id, detail, prev_hash, hash"

    static func auditEntry(from row: PostgresRow) throws -> AuditEntry {
        let columns = row.makeRandomAccess()
        guard let outcome = AuditOutcome(rawValue: try columns[8].decode(String.self)) else {
            throw StoreCorruption(column: "audit_entry.outcome", reason: "not an outcome")
        }
        return AuditEntry(
            sequence: try columns[0].decode(Int64.self), id: try columns[1].decode(UUID.self),
            occurredAt: try columns[2].decode(String.self),
            practiceID: try columns[3].decode(String?.self), actorID: try columns[4].decode(String?.self),
            action: try columns[5].decode(String.self), resourceType: try columns[6].decode(String.self),
            resourceID: try columns[7].decode(String?.self), outcome: outcome,
            requestID: try columns[9].decode(String?.self),
            detail: try columns[10].decode(String?.self), previousHash: try columns[11].decode(String.self),
            hash: try columns[12].decode(String.self))
    }
}
