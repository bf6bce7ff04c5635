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

extension PostgresConnection {
    /// Every row `query` answers, each made into a value by `make` (the row read as the
    /// ``StoredRow`` the entity readers take).
    func rows<Value>(
        _ query: PostgresQuery, logger: Logger, _ make: (PostgresRandomAccessRow) throws -> Value
    ) async throws -> [Value] {
        var values: [Value] = []
        for try await row in try await self.query(query, logger: logger) {
            values.append(try make(row.makeRandomAccess()))
        }
        return values
    }

    /// The first row `query` answers made into a value by `make`, or `nil` when there is none.
    /// The rest are read to the end: the connection serves the transaction's next statement.
    func firstRow<Value>(
        _ query: PostgresQuery, logger: Logger, _ make: (PostgresRandomAccessRow) throws -> Value
    ) async throws -> Value? {
        var first: Value?
        for try await row in try await self.query(query, logger: logger) where first == nil {
            first = try make(row.makeRandomAccess())
        }
        return first
    }
}
