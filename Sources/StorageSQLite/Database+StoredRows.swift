import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension Database {
    /// Inserts `row` in the current transaction (or over the row with its key, for an
    /// upsert).
    func insert(_ row: StoredInsert) throws {
        let placeholders = Array(repeating: "?", count: row.values.count).joined(separator: ", ")
        var sql = "INSERT INTO \(row.table) (\(row.columns.joined(separator: ", "))) VALUES (\(placeholders))"
        if !row.conflictKey.isEmpty {
            sql +=
                " ON CONFLICT (\(row.conflictKey.joined(separator: ", "))) DO UPDATE SET "
                + row.replacing.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
        // Cached: a bulk load writes thousands of rows of one shape.
        try cachedStatement(sql: sql).execute(arguments: StatementArguments(row.values.map(Self.stored)))
    }

    /// Applies `change` in the current transaction.
    func update(_ change: StoredUpdate) throws {
        let assignments = change.columns.map { "\($0) = ?" } + (change.bumpsVersion ? ["version = version + 1"] : [])
        try execute(
            sql: """
                UPDATE \(change.table) SET \(assignments.joined(separator: ", ")) \
                WHERE \(change.keyColumns.map { "\($0) = ?" }.joined(separator: " AND "))
                """,
            arguments: StatementArguments((change.values + change.keyValues).map(Self.stored)))
    }

    /// `value` as the embedded store keeps it: identifiers as canonical lower-case text,
    /// instants as RFC 3339 text (or the milliseconds a column keeps), days as `YYYY-MM-DD`
    /// text, JSON as text, flags as 0 or 1.
    static func stored(_ value: StoredValue) -> (any DatabaseValueConvertible)? {
        switch value {
        case .text(let text), .json(let text): text
        case .integer(let number): number
        case .uuid(let id): id.map(UUIDText.lowercase)
        case .bytes(let bytes): bytes
        case .day(let day): day
        case .flag(let flag): flag
        case .instant(let instant), .time(let instant): instant.map(Timestamp.string)
        case .milliseconds(let instant): instant.map(Timestamp.milliseconds)
        }
    }
}
