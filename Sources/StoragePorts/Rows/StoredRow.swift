import Foundation
import PatientRecords
import SharedKernel

/// A row a store read back, read by column name, or by position where the reader knows its
/// select list (``StoredColumn``). Each store reads its own kinds of column —
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
    /// The bytes in `column`.
    func bytesValue(_ column: String, at position: Int?) throws -> Data?
    /// The instant in `column`, as the store keeps that column: milliseconds since 1970, or a
    /// time (RFC 3339 text in the embedded store, `timestamptz` in PostgreSQL).
    func instantValue(_ column: String, at position: Int?) throws -> Date?
}

/// A column a reader reads: its name, and where a query that names its reader's columns in a
/// known order puts it. A column with a position is read there, as fast as the driver reads
/// one (a booking reads dozens of appointments); one without is looked up by name in the row.
public struct StoredColumn: Sendable, ExpressibleByStringLiteral {
    /// The column's name.
    public let name: String
    /// Its position in the rows of the reader's select list, if they have one.
    public let position: Int?

    /// The column `name` at `position` of its reader's select list.
    public init(_ name: String, at position: Int) {
        self.name = name
        self.position = position
    }

    /// The column `name`, found by name.
    public init(stringLiteral name: String) {
        self.name = name
        position = nil
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

    /// Reads `row` as a row of `table`.
    public init(_ row: Row, table: String) {
        self.row = row
        self.table = table
    }

    /// The text in `column`, or `nil` for NULL.
    public func optionalText(_ column: StoredColumn) throws -> String? {
        try naming(column) { try row.textValue(column.name, at: column.position) }
    }
    /// The text in `column`; NULL is refused.
    public func text(_ column: StoredColumn) throws -> String { try present(optionalText(column), column) }
    /// The whole number in `column`, or `nil` for NULL.
    public func optionalInteger(_ column: StoredColumn) throws -> Int64? {
        try naming(column) { try row.integerValue(column.name, at: column.position) }
    }
    /// The whole number in `column`; NULL is refused.
    public func integer(_ column: StoredColumn) throws -> Int64 { try present(optionalInteger(column), column) }
    /// The whole number in `column` as an `Int`, or `nil` for NULL.
    public func optionalInt(_ column: StoredColumn) throws -> Int? {
        try optionalInteger(column).map { Int(clamping: $0) }
    }
    /// The whole number in `column` as an `Int`; NULL is refused.
    public func int(_ column: StoredColumn) throws -> Int { Int(clamping: try integer(column)) }
    /// The identifier in `column`, or `nil` for NULL.
    public func optionalUUID(_ column: StoredColumn) throws -> UUID? {
        try naming(column) { try row.uuidValue(column.name, at: column.position) }
    }
    /// The identifier in `column`; NULL is refused.
    public func uuid(_ column: StoredColumn) throws -> UUID { try present(optionalUUID(column), column) }
    /// The flag in `column`; NULL is refused.
    public func bool(_ column: StoredColumn) throws -> Bool {
        try present(try naming(column) { try row.boolValue(column.name, at: column.position) }, column)
    }

    /// The bytes in `column`; NULL is refused.
    public func bytes(_ column: StoredColumn) throws -> Data {
        try present(try naming(column) { try row.bytesValue(column.name, at: column.position) }, column)
    }

    /// The word of the domain's vocabulary in `column`, or `nil` for NULL; a word the domain
    /// does not know is refused.
    public func optionalWord<Word: RawRepresentable>(_ column: StoredColumn, as _: Word.Type = Word.self) throws
        -> Word?
    where Word.RawValue == String {
        try optionalText(column).map { try StoreCorruption.known(Word(rawValue: $0), column: name(column)) }
    }
    /// The word of the domain's vocabulary in `column`; NULL or an unknown word is refused.
    public func word<Word: RawRepresentable>(_ column: StoredColumn, as _: Word.Type = Word.self) throws -> Word
    where Word.RawValue == String {
        try present(optionalWord(column), column)
    }

    /// The instant in `column`, or `nil` for NULL.
    public func optionalInstant(_ column: StoredColumn) throws -> Date? {
        try naming(column) { try row.instantValue(column.name, at: column.position) }
    }
    /// The instant in `column`; NULL is refused.
    public func instant(_ column: StoredColumn) throws -> Date { try present(optionalInstant(column), column) }

    /// The calendar day in `column`, stored as `YYYY-MM-DD`, or `nil` for NULL.
    public func optionalDay(_ column: StoredColumn) throws -> Date? {
        try optionalText(column).map {
            guard let day = RecordCalendar.date(fromISODay: $0) else {
                throw StoreCorruption(column: name(column), reason: "not a day (YYYY-MM-DD)")
            }
            return day
        }
    }

    /// The JSON in `column`, decoded as `Value`; NULL or text that does not decode is refused.
    public func decoded<Value: Decodable>(_ type: Value.Type, from column: StoredColumn) throws -> Value {
        try StoreCorruption.decoded(type, from: try text(column), column: name(column))
    }

    /// `table.column`.
    public func name(_ column: StoredColumn) -> String { "\(table).\(column.name)" }

    private func present<Value>(_ value: Value?, _ column: StoredColumn) throws -> Value {
        guard let value else { throw StoreCorruption(column: name(column), reason: "missing") }
        return value
    }

    /// `read()`, its failure naming `table.column`.
    private func naming<Value>(_ column: StoredColumn, _ read: () throws -> Value) throws -> Value {
        do { return try read() } catch let error as StoreCorruption {
            throw StoreCorruption(column: name(column), reason: error.reason)
        }
    }
}
