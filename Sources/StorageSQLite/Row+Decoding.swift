import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension Row {
    /// The UUID in `column`.
    func uuid(_ column: String) throws -> UUID {
        guard let text = try read(column, as: String?.self) else {
            throw StoreCorruption(column: column, reason: "missing identifier")
        }
        guard let uuid = UUIDText.parse(text) else { throw StoreCorruption(column: column, reason: "not a UUID") }
        return uuid
    }

    /// The typed identifier in `column`.
    func identifier<Entity>(_ column: String) throws -> Identifier<Entity> {
        Identifier(try uuid(column))
    }

    /// The instant stored as text in `column` (`table.column` names it in the error): an
    /// unreadable time fails the read naming it, never reads as the year 1.
    func instant(_ column: String, table: String) throws -> Date {
        guard let text = try read(column, as: String?.self), let date = Timestamp.date(text) else {
            throw StoreCorruption(column: "\(table).\(column)", reason: "not a time")
        }
        return date
    }
}

extension Row {
    /// The value in `column`, read as `Value`. GRDB's subscript stops the process when a value
    /// is missing or of another kind (a file edited outside VetNet can hold text where a number
    /// belongs: its tables do not enforce types); this read fails naming the column instead,
    /// and never with the row's other values, which may be medical data.
    func read<Value: DatabaseValueConvertible>(_ column: String, as _: Value.Type = Value.self) throws -> Value {
        try naming(column, Value.self) { try decode(Value.self, forColumn: column) }
    }

    /// The value in `column`, read as `Value` through SQLite's own conversion of its column.
    func read<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: String, as _: Value.Type = Value.self
    ) throws -> Value {
        try naming(column, Value.self) { try decode(Value.self, forColumn: column) }
    }

    /// The value of the column at `index`, read as `Value` (as ``read(_:as:)`` reads a named one).
    func read<Value: DatabaseValueConvertible>(at index: Int, as _: Value.Type = Value.self) throws -> Value {
        try naming(columnName(at: index), Value.self) { try decode(Value.self, atIndex: index) }
    }

    /// The value of the column at `index`, read through SQLite's own conversion of its column.
    func read<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        at index: Int, as _: Value.Type = Value.self
    ) throws -> Value {
        try naming(columnName(at: index), Value.self) { try decode(Value.self, atIndex: index) }
    }

    /// `decoded()`, its failure (which describes the whole row) replaced by one naming `column`.
    @inline(__always)
    private func naming<Value>(_ column: @autoclosure () -> String, _: Value.Type, _ decoded: () throws -> Value)
        throws -> Value
    {
        do { return try decoded() } catch {
            throw StoreCorruption(
                column: column(),
                reason: "missing, or not the kind of value the column holds (\(String(describing: Value.self)))")
        }
    }

    /// The name of the column at `index`, or its position when the row has no such column.
    private func columnName(at index: Int) -> String {
        let names = Array(columnNames)
        return names.indices.contains(index) ? names[index] : "column \(index)"
    }
}

/// The embedded store's row, read by the entity readers both stores share: ids are kept as
/// text, flags as integers, times as RFC 3339 text or milliseconds.
extension Row: StoredRow {
    public func textValue(_ column: String, at position: Int?) throws -> String? {
        try value(column, at: position)
    }
    public func integerValue(_ column: String, at position: Int?) throws -> Int64? {
        try value(column, at: position)
    }
    public func boolValue(_ column: String, at position: Int?) throws -> Bool? {
        try value(column, at: position)
    }
    public func bytesValue(_ column: String, at position: Int?) throws -> Data? {
        try value(column, at: position)
    }
    public func uuidValue(_ column: String, at position: Int?) throws -> UUID? {
        try textValue(column, at: position).map {
            guard let uuid = UUIDText.parse($0) else { throw StoreCorruption(column: column, reason: "not a UUID") }
            return uuid
        }
    }
    public func instantValue(_ column: String, at position: Int?) throws -> Date? {
        switch try value(column, at: position, as: DatabaseValue.self).storage {
        case .null: return nil
        case .int64(let milliseconds): return Timestamp.date(milliseconds: milliseconds)
        case .string(let text):
            guard let date = Timestamp.date(text) else { throw StoreCorruption(column: column, reason: "not a time") }
            return date
        default: throw StoreCorruption(column: column, reason: "not a time")
        }
    }

    /// The value of `column`: at `position` when the query's layout is known, else found by
    /// name; a column the row does not have is refused (GRDB would read it as NULL).
    private func value<Value: DatabaseValueConvertible>(
        _ column: String, at position: Int?, as _: Value.Type = Value.self
    ) throws -> Value {
        if let position, position < count { return try read(at: position) }
        guard position == nil, hasColumn(column) else {
            throw StoreCorruption(column: column, reason: "not in the row read")
        }
        return try read(column)
    }
}
