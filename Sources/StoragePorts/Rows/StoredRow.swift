import Foundation
import PatientRecords
import SharedKernel

/// A row a store read back, read by column name. Each store reads its own kinds of column —
/// the embedded store keeps ids as text and flags as integers, PostgreSQL as `uuid` and
/// `boolean` — so that what a row must hold to be a patient, an appointment or an audit
/// entry is written once (``StoredColumns``) for both.
///
/// A value of another kind, or a column the row does not have, fails with a
/// ``StoreCorruption`` naming the column, never with the row's other values (which may be
/// medical data). NULL reads as `nil`.
public protocol StoredRow {
    /// The text in `column`, found at `position` when the row's layout is known.
    func textValue(_ column: String, at position: Int?) throws -> String?
    /// The whole number in `column`.
    func integerValue(_ column: String, at position: Int?) throws -> Int64?
    /// The identifier in `column`.
    func uuidValue(_ column: String, at position: Int?) throws -> UUID?
    /// The flag in `column`.
    func boolValue(_ column: String, at position: Int?) throws -> Bool?
    /// The instant in `column`, as the store keeps that column: milliseconds since 1970, or a
    /// time (RFC 3339 text in the embedded store, `timestamptz` in PostgreSQL).
    func instantValue(_ column: String, at position: Int?) throws -> Date?
}

/// Where a reader's columns stand in the rows it reads: the order of the select list every
/// store's query names them in. A row read through a layout is read by position, as fast as
/// the driver reads one (a booking reads dozens of appointments); by name it is found by a
/// search through the row's column names.
public struct ColumnLayout: Sendable {
    /// The columns, in their order.
    public let columns: [String]
    private let positions: [String: Int]

    /// The layout of a select list naming `columns` first, in this order.
    public init(_ columns: [String]) {
        self.columns = columns
        positions = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    }

    /// The position of `column`, `nil` when the layout does not name it.
    public func position(of column: String) -> Int? { positions[column] }

    /// The columns as a select list, each name after `prefix` (a table alias and its dot).
    public func selectList(prefix: String = "") -> String {
        columns.map { prefix + $0 }.joined(separator: ", ")
    }
}

/// One table's row as the entity readers read it: every failure names `table.column`, and a
/// NULL, an unknown word, a malformed time or JSON where the schema promises a value is
/// refused, never read as a default that would show a record as something it is not.
public struct StoredColumns<Row: StoredRow> {
    /// The row read.
    public let row: Row
    /// The table its columns belong to, for errors.
    public let table: String
    /// Where the columns stand in the row, when the query named them in a known order.
    public let layout: ColumnLayout?

    /// Reads `row` as a row of `table`, by position where `layout` names a column.
    public init(_ row: Row, table: String, layout: ColumnLayout? = nil) {
        self.row = row
        self.table = table
        self.layout = layout
    }

    /// The text in `column`, or `nil` for NULL.
    public func optionalText(_ column: String) throws -> String? {
        try naming(column) { try row.textValue(column, at: layout?.position(of: column)) }
    }
    /// The text in `column`; NULL is refused.
    public func text(_ column: String) throws -> String { try present(optionalText(column), column) }
    /// The whole number in `column`, or `nil` for NULL.
    public func optionalInteger(_ column: String) throws -> Int64? {
        try naming(column) { try row.integerValue(column, at: layout?.position(of: column)) }
    }
    /// The whole number in `column`; NULL is refused.
    public func integer(_ column: String) throws -> Int64 { try present(optionalInteger(column), column) }
    /// The whole number in `column` as an `Int`, or `nil` for NULL.
    public func optionalInt(_ column: String) throws -> Int? { try optionalInteger(column).map { Int(clamping: $0) } }
    /// The whole number in `column` as an `Int`; NULL is refused.
    public func int(_ column: String) throws -> Int { Int(clamping: try integer(column)) }
    /// The identifier in `column`, or `nil` for NULL.
    public func optionalUUID(_ column: String) throws -> UUID? {
        try naming(column) { try row.uuidValue(column, at: layout?.position(of: column)) }
    }
    /// The identifier in `column`; NULL is refused.
    public func uuid(_ column: String) throws -> UUID { try present(optionalUUID(column), column) }
    /// The flag in `column`; NULL is refused.
    public func bool(_ column: String) throws -> Bool {
        try present(try naming(column) { try row.boolValue(column, at: layout?.position(of: column)) }, column)
    }

    /// The word of the domain's vocabulary in `column`, or `nil` for NULL; a word the domain
    /// does not know is refused.
    public func optionalWord<Word: RawRepresentable>(_ column: String, as _: Word.Type = Word.self) throws -> Word?
    where Word.RawValue == String {
        try optionalText(column).map { try StoreCorruption.known(Word(rawValue: $0), column: name(column)) }
    }
    /// The word of the domain's vocabulary in `column`; NULL or an unknown word is refused.
    public func word<Word: RawRepresentable>(_ column: String, as _: Word.Type = Word.self) throws -> Word
    where Word.RawValue == String {
        try present(optionalWord(column), column)
    }

    /// The instant in `column`, or `nil` for NULL.
    public func optionalInstant(_ column: String) throws -> Date? {
        try naming(column) { try row.instantValue(column, at: layout?.position(of: column)) }
    }
    /// The instant in `column`; NULL is refused.
    public func instant(_ column: String) throws -> Date { try present(optionalInstant(column), column) }

    /// The calendar day in `column`, stored as `YYYY-MM-DD`, or `nil` for NULL.
    public func optionalDay(_ column: String) throws -> Date? {
        try optionalText(column).map {
            guard let day = RecordCalendar.date(fromISODay: $0) else {
                throw StoreCorruption(column: name(column), reason: "not a day (YYYY-MM-DD)")
            }
            return day
        }
    }

    /// The JSON in `column`, decoded as `Value`; NULL or text that does not decode is refused.
    public func decoded<Value: Decodable>(_ type: Value.Type, from column: String) throws -> Value {
        try StoreCorruption.decoded(type, from: try text(column), column: name(column))
    }

    /// `table.column`.
    public func name(_ column: String) -> String { "\(table).\(column)" }

    private func present<Value>(_ value: Value?, _ column: String) throws -> Value {
        guard let value else { throw StoreCorruption(column: name(column), reason: "missing") }
        return value
    }

    /// `read()`, its failure naming `table.column`.
    private func naming<Value>(_ column: String, _ read: () throws -> Value) throws -> Value {
        do { return try read() } catch let error as StoreCorruption {
            throw StoreCorruption(column: name(column), reason: error.reason)
        }
    }
}
