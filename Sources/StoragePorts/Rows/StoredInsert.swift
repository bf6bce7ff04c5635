import Foundation

/// A value a writer puts in one column, said as what it is; each store encodes it as it keeps
/// that kind of column (the mirror of ``StoredRow`` for writing).
public enum StoredValue: Sendable, Equatable {
    /// Text, or NULL.
    case text(String?)
    /// A whole number, or NULL.
    case integer(Int64?)
    /// An identifier: canonical lower-case text in the embedded store, `uuid` in PostgreSQL.
    case uuid(UUID?)
    /// Bytes (a sealed text), or NULL.
    case bytes(Data?)
    /// A calendar day, `YYYY-MM-DD`: text in the embedded store, `date` in PostgreSQL.
    case day(String?)
    /// A JSON document as text: text in the embedded store, `jsonb` in PostgreSQL.
    case json(String?)
    /// A flag: 0 or 1 in the embedded store, `boolean` in PostgreSQL.
    case flag(Bool?)
    /// An instant: RFC 3339 text in the embedded store's `<column>`, milliseconds since 1970
    /// in PostgreSQL's `<column>_ms` (as the readers alias it back).
    case instant(Date?)
    /// An instant kept as milliseconds since 1970 in both stores, in the column as named.
    case milliseconds(Date?)
    /// An instant: RFC 3339 text in the embedded store, `timestamptz` in PostgreSQL.
    case time(Date?)
}

/// One row to insert: its table, and its columns with their values in order. Built once in
/// pure code for both stores, so that which columns a record holds, and what of it is sealed,
/// is written in one place; each store only says how its dialect inserts it. Table and column
/// names go into the statement's text, so they are always the code's own constants; values
/// are always bound.
public struct StoredInsert: Sendable, Equatable {
    /// The table the row goes in.
    public let table: String
    /// The columns, in the order they are written.
    public private(set) var columns: [String]
    /// Each column's value, at the column's position.
    public private(set) var values: [StoredValue]
    /// The columns of the unique key a row already there would share with this one; empty for
    /// a plain insert, which a duplicate refuses.
    public private(set) var conflictKey: [String] = []
    /// The columns this row overwrites on a row already there with the same key.
    public private(set) var replacing: [String] = []

    /// The row of `table` holding `cells`, in order.
    public init(_ table: String, _ cells: KeyValuePairs<String, StoredValue>) {
        self.table = table
        self.columns = cells.map(\.key)
        self.values = cells.map(\.value)
    }

    /// The row with `column` set to `value` as well (a column one store keeps and the other
    /// does not, such as the embedded store's contact search tokens).
    public func setting(_ column: String, _ value: StoredValue) -> StoredInsert {
        var more = self
        more.columns.append(column)
        more.values.append(value)
        return more
    }

    /// Whether this row and `other` can go in one multi-row insert: the same table, columns
    /// and key (as rows of one description are).
    public func hasShape(of other: StoredInsert) -> Bool {
        table == other.table && columns == other.columns && conflictKey == other.conflictKey
            && replacing == other.replacing
    }

    /// The row written over the one already there with the same `key`, if any: its
    /// `columns` take this row's values (an upsert).
    public func upserting(on key: [String], replacing columns: [String]) -> StoredInsert {
        var row = self
        row.conflictKey = key
        row.replacing = columns
        return row
    }
}
