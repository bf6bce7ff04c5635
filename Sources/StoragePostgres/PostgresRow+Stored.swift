import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

/// PostgreSQL's row, read by the entity readers both stores share: ids are `uuid`, flags
/// `boolean`, whole numbers of any width.
extension PostgresRandomAccessRow: StoredRow {
    public func textValue(_ column: String, at position: Int?) throws -> String? {
        try read(column, at: position, as: String?.self)
    }
    public func integerValue(_ column: String, at position: Int?) throws -> Int64? {
        try read(column, at: position, as: Int64?.self)
    }
    public func uuidValue(_ column: String, at position: Int?) throws -> UUID? {
        try read(column, at: position, as: UUID?.self)
    }
    public func boolValue(_ column: String, at position: Int?) throws -> Bool? {
        try read(column, at: position, as: Bool?.self)
    }
    public func bytesValue(_ column: String, at position: Int?) throws -> Data? {
        try read(column, at: position, as: Data?.self)
    }
    public func instantValue(_ column: String, at position: Int?) throws -> Date? {
        switch try cell(column, at: position).dataType {
        case .timestamptz, .timestamp: return try read(column, at: position, as: Date?.self)
        case .int8, .int4: return try read(column, at: position, as: Int64?.self).map(Timestamp.date(milliseconds:))
        default: throw StoreCorruption(column: column, reason: "not a time")
        }
    }

    /// The cell of `column`: at `position` when the query's layout is known, else found by
    /// name; a column the row does not have is refused (the driver would stop the process).
    private func cell(_ column: String, at position: Int?) throws -> PostgresCell {
        if let position, position < count { return self[position] }
        guard position == nil, contains(column) else {
            throw StoreCorruption(column: column, reason: "not in the row read")
        }
        return self[column]
    }

    /// The value in `column`; a value of another kind fails naming the column, never with the
    /// cell's bytes.
    private func read<Value: PostgresDecodable>(_ column: String, at position: Int?, as _: Value.Type) throws
        -> Value
    {
        let cell = try cell(column, at: position)
        do { return try cell.decode(Value.self) } catch {
            throw StoreCorruption(
                column: column, reason: "not the kind of value the column holds (\(String(describing: Value.self)))")
        }
    }
}
