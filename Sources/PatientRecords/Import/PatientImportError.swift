import SharedKernel

/// The problems found on one data row of an import file.
public struct ImportRowIssue: Codable, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line where the row starts (the header is line 1; quoted line breaks count).
    public let line: Int
    /// Every bad field of the row, named by column (`owner_email`, `birth_date`); `row` for a
    /// problem with the row as a whole, such as a wrong number of fields.
    public let errors: [FieldError]

    /// Creates an issue.
    public init(line: Int, errors: [FieldError]) {
        self.line = line
        self.errors = errors
    }

    public var description: String { "line \(line): " + errors.map(\.description).joined(separator: "; ") }
}

/// Why an import file was refused as a whole.
public enum PatientImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is not well-formed CSV; nothing after the error can be trusted.
    case malformedCSV(CSVError)
    /// The header (line 1) is missing required columns, or names unknown or repeated ones.
    case invalidHeader([FieldError])
    /// The file has a header but no data rows.
    case noRows
    /// One or more rows are invalid (only thrown when invalid rows are not being skipped);
    /// every bad row is listed, in file order.
    case invalidRows([ImportRowIssue])

    public var description: String {
        switch self {
        case .malformedCSV(let error): return "The file is not valid CSV: \(error)"
        case .invalidHeader(let errors):
            return "The header is not valid: " + errors.map(\.description).joined(separator: "; ")
        case .noRows: return "The file has no data rows."
        case .invalidRows(let issues):
            return "\(issues.count) invalid row(s): " + issues.map(\.description).joined(separator: " | ")
        }
    }
}
