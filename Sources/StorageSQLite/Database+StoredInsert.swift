import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension Database {
    /// Inserts `row` in the current transaction (or over the row with its key, for an
    /// upsert): identifiers as canonical lower-case text, instants as RFC 3339 text (or the
    /// milliseconds a column keeps), days as `YYYY-MM-DD` text, as the embedded store keeps them.
    func insert(_ row: StoredInsert) throws {
        let values: [(any DatabaseValueConvertible)?] = row.values.map { value in
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
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        var sql = "INSERT INTO \(row.table) (\(row.columns.joined(separator: ", "))) VALUES (\(placeholders))"
        if !row.conflictKey.isEmpty {
            sql +=
                " ON CONFLICT (\(row.conflictKey.joined(separator: ", "))) DO UPDATE SET "
                + row.replacing.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        }
        try execute(sql: sql, arguments: StatementArguments(values))
    }
}
