import Foundation
import GRDB
import SharedKernel
import StoragePorts
import Synchronization

extension VetNetStore {
    // MARK: - Appending

    /// Appends `event` to its practice's log inside the caller's write transaction, numbered
    /// one past the practice's head, with the scope's actor. SQLite has one writer, so the
    /// numbers of a practice are gapless and in commit order.
    @discardableResult
    public func appendEvent(_ event: DomainEvent, scope: AccessScope?, db: Database) throws -> DomainEvent {
        var event = event
        let practice = event.practiceID.description
        guard
            let sequence = try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        INSERT INTO event_head (practice_id, seq) VALUES (?, 1)
                        ON CONFLICT (practice_id) DO UPDATE SET seq = seq + 1 RETURNING seq
                        """), arguments: [practice])
        else { throw StoreCorruption(column: "event_head.seq", reason: "no sequence returned") }
        event.sequence = sequence
        if event.actorID == nil { event.actorID = scope?.actorID?.description }
        try db.cachedStatement(
            sql: """
                INSERT INTO event_log (practice_id, seq, kind, occurred_at_ms, resource_type, resource_id, actor_id,
                    payload)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            practice, sequence, event.kind, Timestamp.milliseconds(event.occurredAt), event.resourceType,
            event.resourceID, event.actorID, Self.payloadJSON(event.payload),
        ])
        let signal = eventCommits
        let practiceID = event.practiceID
        db.afterNextTransaction { _ in signal.notify(practiceID) }
        return event
    }

    /// Appends every event of `events`, in order, inside the caller's transaction.
    public func appendEvents(_ events: [DomainEvent], scope: AccessScope?, db: Database) throws {
        for event in events { try appendEvent(event, scope: scope, db: db) }
    }

    /// Appends events in a transaction of their own: for summaries of work whose changes
    /// already carried their own events (an applied optimizer plan, a re-plan).
    public func recordEvents(_ events: [DomainEvent], scope: AccessScope?) async throws {
        guard !events.isEmpty else { return }
        try await write { db in try self.appendEvents(events, scope: scope, db: db) }
    }

    // MARK: - Reading

    /// Up to `limit` events of the practice numbered after `position`, oldest first, with the
    /// head and pruning position read in the same snapshot.
    public func events(practiceID: PracticeID, after position: Int64, limit: Int) async throws -> EventLogPage {
        try await writer.read { db in try Self.events(db: db, practiceID: practiceID, after: position, limit: limit) }
    }

    /// The practice's latest sequence number (0 before its first event).
    public func eventHead(practiceID: PracticeID) async throws -> Int64 {
        try await writer.read { db in
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM event_head WHERE practice_id = ?"),
                arguments: [practiceID.description]) ?? 0
        }
    }

    /// Every practice's latest sequence number (practices without events are absent).
    public func eventHeads() async throws -> [PracticeID: Int64] {
        try await writer.read { db in
            var heads: [PracticeID: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT practice_id, seq FROM event_head") {
                if let id = PracticeID(uuidString: try row.read(at: 0)) { heads[id] = try row.read(at: 1) }
            }
            return heads
        }
    }

    static func events(db: Database, practiceID: PracticeID, after position: Int64, limit: Int) throws -> EventLogPage {
        let practice = practiceID.description
        let head = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT seq, pruned_through FROM event_head WHERE practice_id = ?"),
            arguments: [practice])
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT seq, kind, occurred_at_ms, resource_type, resource_id, actor_id, payload FROM event_log
                    WHERE practice_id = ? AND seq > ? ORDER BY seq LIMIT ?
                    """), arguments: [practice, max(position, 0), max(0, limit)])
        let events = try rows.map { row in
            try DomainEvent.stored(
                practiceID: practiceID, sequence: try row.read(at: 0), kind: try row.read(at: 1),
                occurredAtMilliseconds: try row.read(at: 2), resourceType: try row.read(at: 3),
                resourceID: try row.read(at: 4), actorID: try row.read(at: 5), payload: try row.read(at: 6))
        }
        return EventLogPage(
            events: events, headSequence: try head?.read("seq") ?? 0,
            prunedThrough: try head?.read("pruned_through") ?? 0)
    }

    // MARK: - Retention

    /// Deletes events that happened before `cutoff`, in every practice, and moves each
    /// practice's pruning mark so resuming from a deleted position asks for a reload.
    /// Housekeeping; returns how many events were deleted.
    @discardableResult
    public func pruneEvents(before cutoff: Date) async throws -> Int {
        let cutoffMs = Timestamp.milliseconds(cutoff)
        return try await write { db in
            try db.execute(
                sql: """
                    UPDATE event_head SET pruned_through = MAX(pruned_through, (
                        SELECT MAX(seq) FROM event_log WHERE event_log.practice_id = event_head.practice_id
                            AND occurred_at_ms < ?))
                    WHERE EXISTS (SELECT 1 FROM event_log WHERE event_log.practice_id = event_head.practice_id
                        AND occurred_at_ms < ?)
                    """, arguments: [cutoffMs, cutoffMs])
            // Delete by sequence, not by time: a clock step backwards must not leave a hole
            // below the pruning mark that a resuming client would silently skip.
            try db.execute(
                sql: """
                    DELETE FROM event_log WHERE seq <= (SELECT pruned_through FROM event_head
                        WHERE event_head.practice_id = event_log.practice_id)
                    """)
            return db.changesCount
        }
    }

    static func payloadJSON(_ payload: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
