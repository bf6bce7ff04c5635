import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension Database {
    /// Inserts `row` in the current transaction: identifiers as canonical lower-case text,
    /// instants as RFC 3339 text, days as `YYYY-MM-DD` text, as the embedded store keeps them.
    func insert(_ row: StoredInsert) throws {
        let values: [(any DatabaseValueConvertible)?] = row.values.map { value in
            switch value {
            case .text(let text): text
            case .integer(let number): number
            case .uuid(let id): id.map(UUIDText.lowercase)
            case .bytes(let bytes): bytes
            case .day(let day): day
            case .instant(let instant): instant.map(Timestamp.string)
            }
        }
        let placeholders = Array(repeating: "?", count: values.count).joined(separator: ", ")
        try execute(
            sql: "INSERT INTO \(row.table) (\(row.columns.joined(separator: ", "))) VALUES (\(placeholders))",
            arguments: StatementArguments(values))
    }
}
