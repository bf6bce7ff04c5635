import Foundation
import SharedKernel

/// Reading a stored audit entry back, as both stores do (to list, export and verify the trail).
public enum AuditRows {
    /// The columns ``entry(from:)`` reads, in the order every select list names them.
    public static let columns = [
        "seq", "id", "occurred_at", "practice_id", "actor_id", "action", "resource_type", "resource_id", "outcome",
        "request_id", "detail", "prev_hash", "hash",
    ]

    /// The entry in `row`. An unknown outcome or a malformed id is refused naming its column,
    /// never read as another outcome or a made-up id (which would also make an intact entry
    /// read as edited).
    public static func entry(from row: some StoredRow) throws -> AuditEntry {
        let columns = StoredColumns(row, table: "audit_entry")
        return AuditEntry(
            sequence: try columns.integer("seq"), id: try columns.uuid("id"),
            occurredAt: try columns.text("occurred_at"), practiceID: try columns.optionalText("practice_id"),
            actorID: try columns.optionalText("actor_id"), action: try columns.text("action"),
            resourceType: try columns.text("resource_type"), resourceID: try columns.optionalText("resource_id"),
            outcome: try columns.word("outcome"), requestID: try columns.optionalText("request_id"),
            detail: try columns.optionalText("detail"), previousHash: try columns.text("prev_hash"),
            hash: try columns.text("hash"))
    }
}
