import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: EventLogRepository {
    // MARK: - Appending

    /// Appends `event` inside the caller's transaction, numbered one past its practice's head.
    /// The upsert locks the head row until commit, so a second instance appending to the same
    /// practice waits: numbers are gapless and in commit order. `pg_notify` is delivered at
    /// commit (and dropped on rollback) to every instance listening.
    @discardableResult
    func appendEvent(_ event: DomainEvent, scope: AccessScope?, connection: PostgresConnection) async throws
        -> DomainEvent
    {
        var event = event
        if event.actorID == nil { event.actorID = scope?.actorID?.description }
        // Numbering, the row and the notification in one statement: the head row stays locked
        // until commit, and every round trip under it is time other writers of the practice wait.
        var statement = PostgresStatement()
        let (tables, from) = statement.event(event, channel: Self.eventChannel)
        var sequence: Int64?
        for try await value in try await connection.prepared(
            statement.prepared("WITH \(tables)\nSELECT head.seq FROM \(from)"), logger: logger
        ).decode(Int64.self) { sequence = value }
        guard let sequence else { throw StoreCorruption(column: "event_head.seq", reason: "no sequence returned") }
        event.sequence = sequence
        return event
    }

    public func recordEvents(_ events: [DomainEvent], scope: AccessScope?) async throws {
        // One transaction per practice: row-level security admits one practice at a time.
        for practiceID in Set(events.map(\.practiceID)).sorted() {
            try await transaction(.practice(practiceID)) { connection in
                for event in events where event.practiceID == practiceID {
                    try await self.appendEvent(event, scope: scope, connection: connection)
                }
            }
        }
    }

    // MARK: - Reading

    public func events(practiceID: PracticeID, after position: Int64, limit: Int) async throws -> EventLogPage {
        try await transaction(.practice(practiceID)) { connection in
            // The head first, and no event past it: a page never runs ahead of the head it reports.
            var head: (Int64, Int64) = (0, 0)
            for try await row in try await connection.query(
                """
                SELECT seq, pruned_through FROM event_head WHERE practice_id = \(practiceID.rawValue)
                """, logger: logger
            ).decode((Int64, Int64).self) { head = row }
            let rows = try await connection.query(
                """
                SELECT seq, kind, occurred_at_ms, resource_type, resource_id, actor_id, payload::text FROM event_log
                WHERE practice_id = \(practiceID.rawValue) AND seq > \(max(position, 0)) AND seq <= \(head.0)
                    ORDER BY seq LIMIT \(max(0, limit))
                """, logger: logger)
            var events: [DomainEvent] = []
            for try await (sequence, kind, occurredMs, resourceType, resourceID, actorID, payloadText)
                in rows.decode((Int64, String, Int64, String?, String?, String?, String).self)
            {
                events.append(
                    try DomainEvent.stored(
                        practiceID: practiceID, sequence: sequence, kind: kind, occurredAtMilliseconds: occurredMs,
                        resourceType: resourceType, resourceID: resourceID, actorID: actorID, payload: payloadText))
            }
            return EventLogPage(events: events, headSequence: head.0, prunedThrough: head.1)
        }
    }

    public func eventHead(practiceID: PracticeID) async throws -> Int64 {
        try await transaction(.practice(practiceID)) { connection in
            for try await seq in try await connection.query(
                "SELECT seq FROM event_head WHERE practice_id = \(practiceID.rawValue)",
                logger: logger
            ).decode(Int64.self) { return seq }
            return 0
        }
    }

    public func eventHeads() async throws -> [PracticeID: Int64] {
        try await transaction(.installation) { connection in
            var heads: [PracticeID: Int64] = [:]
            for try await (id, seq) in try await connection.query(
                "SELECT practice_id, seq FROM vetnet_event_heads()", logger: logger
            )
            .decode((UUID, Int64).self) { heads[PracticeID(id)] = seq }
            return heads
        }
    }

    // MARK: - Retention

    @discardableResult
    public func pruneEvents(before cutoff: Date) async throws -> Int {
        let cutoffMs = Timestamp.milliseconds(cutoff)
        return try await transaction(.installation) { connection in
            // By sequence, not by time (see the function): a clock step backwards leaves no hole.
            for try await count in try await connection.query("SELECT vetnet_prune_events(\(cutoffMs))", logger: logger)
                .decode(Int64.self)
            {
                return Int(count)
            }
            return 0
        }
    }

    static func payloadJSON(_ payload: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
