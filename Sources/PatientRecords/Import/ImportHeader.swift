import Foundation
import SharedKernel

/// The header line of an import file, resolved to column positions.
struct ImportHeader {
    /// Position of each column present in the header.
    let positions: [PatientImportColumn: Int]
    /// Number of fields every row must have.
    let width: Int

    /// Resolves the header, refusing missing, unknown and repeated columns all at once.
    init(_ record: CSVRecord) throws(PatientImportError) {
        var positions: [PatientImportColumn: Int] = [:]
        var errors = FieldErrorCollector()
        for (index, raw) in record.fields.enumerated() {
            let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
            guard let column = PatientImportColumn(rawValue: name) else {
                errors.add("header", "unknown column '\(raw)' (position \(index + 1))")
                continue
            }
            if positions[column] != nil {
                errors.add("header", "column '\(name)' appears more than once")
            } else {
                positions[column] = index
            }
        }
        for column in PatientImportColumn.required where positions[column] == nil {
            errors.add("header", "missing column '\(column.rawValue)'")
        }
        if !errors.errors.isEmpty { throw .invalidHeader(errors.errors) }
        self.positions = positions
        self.width = record.fields.count
    }

    /// The trimmed cell of `column` in `fields`, empty when the column is absent.
    func cell(_ column: PatientImportColumn, in fields: [String]) -> String {
        guard let index = positions[column], index < fields.count else { return "" }
        return fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
