import Foundation
import SharedKernel
import Specialists

/// One column of a report.
public struct ReportColumn: Hashable, Codable, Sendable {
    /// Stable name (`noShowRate`, `revenue_GBP`), the CSV header.
    public let name: String
    /// Unit of its values (a ``MetricUnit`` raw value, or `date`, `instant`, `text`, `id`).
    public let unit: String

    /// Creates a column.
    public init(_ name: String, _ unit: String) {
        self.name = name
        self.unit = unit
    }
}

/// One value of a report.
public enum ReportCell: Hashable, Sendable {
    /// Text (names, messages, kinds).
    case text(String)
    /// A whole number.
    case integer(Int)
    /// A measured number.
    case number(Double)
    /// An exact decimal (money in major units).
    case decimal(Decimal)
    /// A local date.
    case date(LocalDate)
    /// An instant, written in the practice's zone.
    case instant(Date)
    /// No value (nothing to divide by, not applicable).
    case empty
}

/// A report as a table: what the API answers as JSON or CSV and the command line prints.
public struct ReportTable: Sendable {
    /// Which report.
    public let kind: ReportKind
    /// The columns.
    public let columns: [ReportColumn]
    /// The rows, each with one cell per column.
    public let rows: [[ReportCell]]
    /// The zone instants are written in.
    public let timeZone: TimeZone

    /// Creates a table.
    public init(kind: ReportKind, columns: [ReportColumn], rows: [[ReportCell]], timeZone: TimeZone) {
        self.kind = kind
        self.columns = columns
        self.rows = rows
        self.timeZone = timeZone
    }

    /// Each cell as text (`nil` for an empty one), formatted as in the CSV.
    public var textRows: [[String?]] {
        let format = CellFormat(timeZone: timeZone)
        return rows.map { $0.map { format.text($0) } }
    }

    /// RFC 4180 CSV: a header of column names, CRLF line ends, fields quoted when they hold a
    /// comma, quote or line break. A text cell that a spreadsheet would run as a formula
    /// (starting with `=`, `+`, `-`, `@`, tab or carriage return) is prefixed with `'`, so
    /// opening an exported report never executes what someone typed into a name.
    public func csv() -> String {
        let format = CellFormat(timeZone: timeZone)
        var out = columns.map { Self.field($0.name) }.joined(separator: ",") + "\r\n"
        out.reserveCapacity(rows.count * columns.count * 8)
        for row in rows {
            var first = true
            for cell in row {
                if !first { out += "," }
                first = false
                guard let text = format.text(cell) else { continue }
                if case .text = cell, let lead = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(lead) {
                    out += Self.field("'" + text)
                } else {
                    out += Self.field(text)
                }
            }
            out += "\r\n"
        }
        return out
    }

    /// `text` as a CSV field.
    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Locale-free cell formatting, the same on every machine.
struct CellFormat {
    let instants: Date.ISO8601FormatStyle

    init(timeZone: TimeZone) {
        instants = Date.ISO8601FormatStyle(timeZoneSeparator: .colon, timeZone: timeZone)
    }

    func text(_ cell: ReportCell) -> String? {
        switch cell {
        case .text(let text): return text
        case .integer(let value): return String(value)
        case .number(let value): return Self.number(value)
        case .decimal(let value): return "\(value)"
        case .date(let date): return date.description
        case .instant(let instant): return instants.format(instant)
        case .empty: return nil
        }
    }

    /// Up to four decimals, trailing zeros dropped: `0.8333`, `12`, `-3.5`.
    static func number(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        let scaled = (value * 10_000).rounded()
        guard abs(scaled) < 9e15 else { return String(format: "%.0f", value) }
        let whole = Int64(scaled) / 10_000
        let fraction = abs(Int64(scaled) % 10_000)
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        guard fraction != 0 else { return sign + String(whole) }
        var digits = String(fraction + 10_000).dropFirst()
        while digits.last == "0" { digits = digits.dropLast() }
        return sign + String(whole) + "." + digits
    }
}
