/// One record of a CSV file and the physical line it starts on.
public struct CSVRecord: Hashable, Sendable {
    /// The fields, unquoted and unescaped.
    public var fields: [String]
    /// 1-based line of the file where the record starts. Quoted fields may contain line
    /// breaks, so a record can span lines and this is not the same as the record's index.
    public var line: Int

    /// Creates a record.
    public init(fields: [String], line: Int) {
        self.fields = fields
        self.line = line
    }

    /// Whether every field is empty (a blank line or a line of commas), which imports skip.
    public var isBlank: Bool { fields.allSatisfy(\.isEmpty) }
}

/// Text that is not well-formed RFC 4180 CSV, with the line where the problem is.
public struct CSVError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: String, Hashable, Sendable {
        /// A quoted field is still open at the end of the text.
        case unterminatedQuote = "unterminated_quote"
        /// A `"` inside a field that did not start with one; it must be quoted and doubled.
        case quoteInUnquotedField = "quote_in_unquoted_field"
        /// Characters between a closing `"` and the next `,` or line break.
        case textAfterClosingQuote = "text_after_closing_quote"
    }

    /// What is wrong.
    public let kind: Kind
    /// 1-based line of the problem (for an unterminated quote, where the field opened).
    public let line: Int

    /// Creates an error.
    public init(kind: Kind, line: Int) {
        self.kind = kind
        self.line = line
    }

    public var description: String {
        switch kind {
        case .unterminatedQuote: return "line \(line): a quoted field is never closed"
        case .quoteInUnquotedField:
            return "line \(line): a field containing \" must be enclosed in double quotes, with the quote doubled"
        case .textAfterClosingQuote:
            return "line \(line): text after a closing quote; expected a comma or the end of the line"
        }
    }
}

/// An RFC 4180 CSV reader: comma-separated fields, optional double quotes around a field,
/// `""` for a quote inside a quoted field, commas and line breaks allowed inside quotes.
///
/// Beyond the RFC, as spreadsheets write it: LF and lone CR are accepted as line breaks as
/// well as CRLF, a leading UTF-8 byte-order mark is ignored, and a final line break does not
/// start an empty record. Malformed quoting is an error rather than guessed at, because a
/// guess shifts every later column of the row into the wrong field.
public enum CSVParser {
    /// Parses `text` into records, each with the line it starts on.
    public static func parse(_ text: String) throws(CSVError) -> [CSVRecord] {
        // Scalars, not Characters: Swift treats "\r\n" as one Character, which would hide it
        // from a comparison with "\n".
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }

        var records: [CSVRecord] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1
        var recordLine = 1
        var index = 0
        var recordHasContent = false

        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
        }
        func endRecord() {
            endField()
            records.append(CSVRecord(fields: fields, line: recordLine))
            fields = []
            recordHasContent = false
        }
        /// Consumes a line break at `index` (CRLF, LF or CR) and reports whether there was one.
        func consumeLineBreak() -> Bool {
            guard index < scalars.count else { return false }
            if scalars[index] == "\r" {
                index += index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
            } else if scalars[index] == "\n" {
                index += 1
            } else {
                return false
            }
            line += 1
            return true
        }

        while index < scalars.count {
            let scalar = scalars[index]
            recordHasContent = true
            if scalar == "\"" && field.isEmpty {
                // Quoted field: runs to the next quote that is not doubled.
                let openedOn = line
                index += 1
                var closed = false
                while index < scalars.count {
                    let inner = scalars[index]
                    if inner == "\"" {
                        if index + 1 < scalars.count && scalars[index + 1] == "\"" {
                            field.append("\"")
                            index += 2
                        } else {
                            index += 1
                            closed = true
                            break
                        }
                    } else if inner == "\r" || inner == "\n" {
                        // Keep the break as written so multi-line notes survive unchanged.
                        field.append(inner)
                        if inner == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { field.append("\n") }
                        _ = consumeLineBreak()
                    } else {
                        field.append(inner)
                        index += 1
                    }
                }
                if !closed { throw CSVError(kind: .unterminatedQuote, line: openedOn) }
                if index < scalars.count, scalars[index] != ",", scalars[index] != "\r", scalars[index] != "\n" {
                    throw CSVError(kind: .textAfterClosingQuote, line: line)
                }
                // An empty quoted field ("") leaves `field` empty; mark that the field ended.
                continue
            }
            if scalar == "\"" { throw CSVError(kind: .quoteInUnquotedField, line: line) }
            if scalar == "," {
                endField()
                index += 1
            } else if consumeLineBreak() {
                endRecord()
                recordLine = line
            } else {
                field.append(scalar)
                index += 1
            }
        }
        if recordHasContent { endRecord() }
        return records
    }
}
