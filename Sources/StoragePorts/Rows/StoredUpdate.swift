import Foundation

/// A change to one stored row: the columns it sets, and the key that names the row (always
/// with its practice, so a change never reaches another practice's row). Built once in pure
/// code for both stores, as ``StoredInsert`` is (names from the code, values bound); each store
/// says how its dialect runs it.
public struct StoredUpdate: Sendable, Equatable {
    /// The table the row is in.
    public let table: String
    /// The columns set, in order.
    public private(set) var columns: [String]
    /// Each set column's value, at the column's position.
    public private(set) var values: [StoredValue]
    /// The columns that name the row.
    public let keyColumns: [String]
    /// Each key column's value.
    public let keyValues: [StoredValue]
    /// Whether the row's `version` moves on by one (a row under optimistic concurrency).
    public let bumpsVersion: Bool

    /// The change to the row of `table` named by `key`, setting `cells` in order.
    public init(
        _ table: String, setting cells: KeyValuePairs<String, StoredValue>, key: KeyValuePairs<String, StoredValue>,
        bumpsVersion: Bool = false
    ) {
        self.table = table
        self.columns = cells.map(\.key)
        self.values = cells.map(\.value)
        self.keyColumns = key.map(\.key)
        self.keyValues = key.map(\.value)
        self.bumpsVersion = bumpsVersion
    }

    /// The change without `column`: the row keeps the value it has.
    public func keeping(_ column: String) -> StoredUpdate {
        var kept = self
        if let index = columns.firstIndex(of: column) {
            kept.columns.remove(at: index)
            kept.values.remove(at: index)
        }
        return kept
    }

    /// The change also setting `column` to `value` (a column one store keeps and the other
    /// does not, such as the embedded store's contact search tokens).
    public func setting(_ column: String, _ value: StoredValue) -> StoredUpdate {
        var more = self
        more.columns.append(column)
        more.values.append(value)
        return more
    }
}
