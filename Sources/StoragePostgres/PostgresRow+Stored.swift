import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

/// PostgreSQL's row, read by the entity readers both stores share: ids are `uuid`, flags
/// `boolean`, whole numbers of any width.
extension PostgresRandomAccessRow: StoredRow {
    public func textValue(_ column: String) throws -> String? { try read(column, as: String?.self) }
    public func integerValue(_ column: String) throws -> Int64? { try read(column, as: Int64?.self) }
    public func uuidValue(_ column: String) throws -> UUID? { try read(column, as: UUID?.self) }
    public func boolValue(_ column: String) throws -> Bool? { try read(column, as: Bool?.self) }
    public func instantValue(_ column: String) throws -> Date? {
        guard contains(column) else { throw StoreCorruption(column: column, reason: "not in the row read") }
        switch self[column].dataType {
        case .timestamptz, .timestamp: return try read(column, as: Date?.self)
        case .int8, .int4: return try read(column, as: Int64?.self).map(Timestamp.date(milliseconds:))
        default: throw StoreCorruption(column: column, reason: "not a time")
        }
    }

    /// The value in `column`; a column the row does not have (the driver would stop the
    /// process) or a value of another kind fails naming the column, never with the cell's bytes.
    private func read<Value: PostgresDecodable>(_ column: String, as _: Value.Type) throws -> Value {
        guard contains(column) else { throw StoreCorruption(column: column, reason: "not in the row read") }
        do { return try self[column].decode(Value.self) } catch {
            throw StoreCorruption(
                column: column, reason: "not the kind of value the column holds (\(String(describing: Value.self)))")
        }
    }
}
