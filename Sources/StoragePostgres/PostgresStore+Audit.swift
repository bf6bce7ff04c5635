import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: AuditRepository {
    // MARK: - Writing

    /// Appends an entry inside the caller's transaction, to the chain of the entry's practice
    /// (or the installation's, for an entry made for no practice). That chain's head row is
    /// locked first (`FOR UPDATE`), so appends to one chain from every instance on the database
    /// queue behind one another until commit — the chain stays one line, and an entry rolls
    /// back with its change — while other practices' appends go on beside them.
    ///
    /// `head` is the chain's head (sequence and hash) when the caller has locked it already in
    /// a statement of its own, to save a round trip under the lock.
    @discardableResult
    func appendAudit(
        _ record: AuditRecord, scope: AccessScope?, head: (Int64, String)? = nil, connection: PostgresConnection
    ) async throws -> AuditEntry {
        let practiceID = scope?.practiceID.description
        let chain = AuditChain.chain(ofPractice: practiceID)
        let entry = try await auditEntry(record, scope: scope, chain: chain, head: head, connection: connection)
        try await appendLink(entry, to: chain, connection: connection)
        return entry
    }

    /// Appends an audit entry and the events of the same change, in the caller's transaction.
    /// With one event (a booking, a lifecycle step), the link, the chain's head, the event's
    /// number, row and notification go in one statement: from the audit head's lock to the
    /// commit, the practice's other writes wait, and this saves them a round trip.
    func appendAudit(
        _ record: AuditRecord, events: [DomainEvent], scope: AccessScope, head: (Int64, String)? = nil,
        connection: PostgresConnection
    ) async throws {
        guard events.count == 1, let first = events.first, first.practiceID == scope.practiceID else {
            try await appendAudit(record, scope: scope, head: head, connection: connection)
            for event in events { try await appendEvent(event, scope: scope, connection: connection) }
            return
        }
        let chain = AuditChain.chain(ofPractice: scope.practiceID.description)
        let entry = try await auditEntry(record, scope: scope, chain: chain, head: head, connection: connection)
        let signature = AuditChain.headSignature(
            chain: chain, sequence: entry.sequence, hash: entry.hash, key: auditKey)
        var event = first
        if event.actorID == nil { event.actorID = scope.actorID?.description }
        var statement = PostgresStatement()
        let link = statement.auditLink(entry, chain: chain, signature: signature)
        let (tables, from) = statement.event(event, channel: Self.eventChannel)
        var numbered = false
        for try await (moved, _) in try await connection.prepared(
            statement.prepared("WITH \(link), \(tables)\nSELECT (SELECT count(*) FROM moved), head.seq FROM \(from)"),
            logger: logger
        ).decode((Int64, Int64).self) {
            guard moved == 1 else { throw StoreCorruption(column: "audit_head", reason: "the chain's head is missing") }
            numbered = true
        }
        guard numbered else { throw StoreCorruption(column: "event_head.seq", reason: "no sequence returned") }
    }

    /// The hashed entry for `record`, next in `chain` after `head` (the chain's sequence and
    /// hash, when the caller has locked it already or expects it) or after the head locked here.
    func auditEntry(
        _ record: AuditRecord, scope: AccessScope?, chain: String, head: (Int64, String)?,
        connection: PostgresConnection
    ) async throws -> AuditEntry {
        let (previousSequence, previousHash): (Int64, String)
        if let head {
            (previousSequence, previousHash) = head
        } else {
            (previousSequence, previousHash) = try await lockedHead(of: chain, connection: connection)
        }
        var entry = AuditEntry(
            sequence: previousSequence + 1, id: UUID(), occurredAt: Timestamp.string(clock.now()),
            practiceID: scope?.practiceID.description, actorID: scope?.actorID?.description,
            action: record.action.name, resourceType: record.resourceType, resourceID: record.resourceID,
            outcome: record.outcome, requestID: scope?.requestID, detail: record.detail,
            previousHash: previousHash, hash: "")
        entry.hash = AuditChain.hash(of: entry, key: auditKey)
        return entry
    }

    /// Appends an entry another installation recorded (a restored practice's history) as the
    /// next link of its practice's chain here, in the caller's transaction.
    func appendCarriedAudit(_ entry: AuditEntry, connection: PostgresConnection) async throws {
        let chain = AuditChain.chain(ofPractice: entry.practiceID)
        let (previousSequence, previousHash) = try await lockedHead(of: chain, connection: connection)
        let link = AuditChain.carried(entry, sequence: previousSequence + 1, previousHash: previousHash, key: auditKey)
        try await appendLink(link, to: chain, connection: connection)
    }

    /// The chain's head, locked until the transaction ends (appends to the chain from every
    /// instance queue here). A chain's first append starts it at the genesis.
    private func lockedHead(of chain: String, connection: PostgresConnection) async throws -> (Int64, String) {
        for _ in 0..<2 {
            for try await row in try await connection.prepared(
                "SELECT seq, hash FROM audit_head WHERE chain = \(chain) FOR UPDATE", logger: logger
            ).decode((Int64, String).self) { return row }
            // Two first appends at once: one inserts, the other waits for it and finds its row.
            try await connection.query(
                """
                INSERT INTO audit_head (chain, seq, hash) VALUES (\(chain), 0, \(AuditChain.genesis))
                ON CONFLICT (chain) DO NOTHING
                """, logger: logger)
        }
        throw StoreCorruption(column: "audit_head", reason: "the head row of chain '\(chain)' cannot be kept")
    }

    /// Writes a hashed entry and moves its chain's signed head to it. One statement for both:
    /// the chain's audited writes queue on the head row until commit, so each round trip saved
    /// here is throughput for the practice.
    private func appendLink(_ entry: AuditEntry, to chain: String, connection: PostgresConnection) async throws {
        let signature = AuditChain.headSignature(
            chain: chain, sequence: entry.sequence, hash: entry.hash, key: auditKey)
        var statement = PostgresStatement()
        let link = statement.auditLink(entry, chain: chain, signature: signature)
        for try await moved in try await connection.prepared(
            statement.prepared("WITH \(link)\nSELECT count(*) FROM moved"), logger: logger
        ).decode(Int64.self) where moved != 1 {
            throw StoreCorruption(column: "audit_head", reason: "the head row of chain '\(chain)' is missing")
        }
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
            // The cursor is the entry's place in the practice's trail (`ordinal`): sequence
            // numbers restart with each chain, and a practice's trail may span two.
            let entries: [(entry: AuditEntry, ordinal: Int64)] = try await connection.rows(
                """
                SELECT \(unescaped: Self.auditColumns), ordinal FROM audit_entry
                WHERE practice_id = \(scope.practiceID.description) AND ordinal < \(cursor ?? Int64.max)
                  AND (\(resourceType)::text IS NULL OR resource_type = \(resourceType))
                  AND (\(resourceID)::text IS NULL OR resource_id = \(resourceID))
                ORDER BY ordinal DESC LIMIT \(limit + 1)
                """, logger: logger
            ) { (try AuditRows.entry(from: $0), try $0[13].decode(Int64.self)) }
            return Page(fetched: entries, limit: limit) { String($0.ordinal) }.map(\.entry)
        }
    }

    // MARK: - Verifying

    /// A chain's head as stored: its sequence, hash and signature.
    struct AuditHead: Sendable {
        let chain: String
        let sequence: Int64
        let hash: String
        let signature: String?
    }

    /// Walks every chain of the installation — each practice's and the installation's own —
    /// and names the first problem found, in the installation's chain first, then by
    /// practice. A practice without a head, or entries whose chain has none, were deleted.
    public func verifyAuditChain() async throws -> AuditVerification {
        try await transaction(.installation) { connection in
            // The heads first, then each chain's entries up to its head: every entry a head
            // counts committed with it or before it, and chains only grow, so writers
            // appending meanwhile (another instance, opening hours) cannot make a whole chain
            // look cut.
            let heads = try await self.auditHeads(chain: nil, connection: connection)
            for try await chain in try await connection.query("SELECT vetnet_audit_headless()", logger: self.logger)
                .decode(String.self)
            {
                return AuditVerification(
                    checked: 0,
                    firstProblem: .init(
                        sequence: 0, id: "-",
                        reason:
                            """
                            \(Self.chainName(chain)) has no head row: its head and entries were deleted (the whole \
                            chain, or its head)
                            """
                    ),
                    headHash: AuditChain.genesis, headSequence: 0, checkpoint: nil, chains: heads.count)
            }
            var checked = 0
            var installation: AuditVerification?
            for head in heads {
                let walked = try await self.walk(head, connection: connection)
                checked += walked.checked
                if head.chain == AuditChain.installationChain { installation = walked }
                if let problem = walked.firstProblem {
                    return AuditVerification(
                        checked: checked,
                        firstProblem: .init(
                            sequence: problem.sequence, id: problem.id,
                            reason: "in \(Self.chainName(head.chain)): \(problem.reason)"),
                        headHash: walked.headHash, headSequence: walked.headSequence, checkpoint: nil,
                        chains: heads.count)
                }
            }
            return AuditVerification(
                checked: checked, firstProblem: nil, headHash: installation?.headHash ?? AuditChain.genesis,
                headSequence: installation?.headSequence ?? 0, checkpoint: nil, chains: heads.count)
        }
    }

    /// The heads of every chain (`chain` `nil`), or of one, in chain order (the installation's first).
    func auditHeads(chain: String?, connection: PostgresConnection) async throws -> [AuditHead] {
        var heads: [AuditHead] = []
        for try await (name, sequence, hash, signature) in try await connection.query(
            """
            SELECT chain, seq, hash, signature FROM audit_head WHERE \(chain)::text IS NULL OR chain = \(chain)
            ORDER BY chain COLLATE "C"
            """, logger: logger
        ).decode((String, Int64, String, String?).self) {
            heads.append(AuditHead(chain: name, sequence: sequence, hash: hash, signature: signature))
        }
        return heads
    }

    /// How a problem names a chain.
    static func chainName(_ chain: String) -> String {
        chain == AuditChain.installationChain ? "the installation's audit chain" : "practice \(chain)'s audit chain"
    }

    /// Walks one chain from its first entry to `head`, and names its first problem.
    func walk(_ head: AuditHead, connection: PostgresConnection) async throws -> AuditVerification {
        // A head is signed with the audit key: moved back to match a cut chain without the key,
        // or copied from another chain, it no longer verifies. Only the installation's chain of
        // a new database, before any entry, has no signature yet.
        let unsignedGenesis =
            head.chain == AuditChain.installationChain && head.sequence == 0 && head.hash == AuditChain.genesis
            && head.signature == nil
        if !unsignedGenesis,
            head.signature
                != AuditChain.headSignature(chain: head.chain, sequence: head.sequence, hash: head.hash, key: auditKey)
        {
            return AuditVerification(
                checked: 0,
                firstProblem: .init(
                    sequence: head.sequence, id: "-",
                    reason:
                        """
                        the chain's head row (entry #\(head.sequence)) is not signed with this installation's audit \
                        key: it was edited
                        """
                ),
                headHash: head.hash, headSequence: head.sequence, checkpoint: nil)
        }
        var walk = AuditChainWalk(
            key: auditKey, practice: head.chain == AuditChain.installationChain ? nil : head.chain)
        let rows = try await connection.query(
            "SELECT \(unescaped: Self.auditColumns) FROM vetnet_audit_chain(\(head.chain), 1, \(head.sequence))",
            logger: logger)
        for try await row in rows {
            let storedID = (try? row.makeRandomAccess()[1].decode(UUID.self)).map(UUIDText.lowercase) ?? "-"
            do {
                if let broken = walk.check(try AuditRows.entry(from: row.makeRandomAccess()), storedID: storedID) {
                    return broken
                }
            } catch let unreadable as StoreCorruption {
                return walk.unreadable(unreadable, storedID: storedID)
            }
        }
        return walk.finish(recordedHead: (head.sequence, head.hash))
    }

    /// Signs the heads left unsigned by an upgrade (``PostgresSchema/leavesHeadsToSign(_:)``):
    /// called by the process that applied it, before anything else writes, so that the
    /// installation's existing head, and each existing practice's first head, are signed once.
    /// A head unsigned later stays unsigned and fails `verify`.
    public func signAuditHeadsAfterUpgrade() async throws {
        try await transaction(.installation) { connection in
            var unsigned: [(String, Int64, String)] = []
            for try await row in try await connection.query(
                "SELECT chain, seq, hash FROM audit_head WHERE signature IS NULL FOR UPDATE", logger: logger
            )
            .decode((String, Int64, String).self) { unsigned.append(row) }
            for (chain, sequence, hash) in unsigned {
                let signature = AuditChain.headSignature(chain: chain, sequence: sequence, hash: hash, key: auditKey)
                try await connection.query(
                    "UPDATE audit_head SET signature = \(signature) WHERE chain = \(chain)", logger: logger)
            }
        }
    }

    /// ``AuditRows/columns`` as a select list.
    static let auditColumns = AuditRows.columns.joined(separator: ", ")
}
