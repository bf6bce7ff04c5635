import Foundation
import PatientRecords
import SharedKernel

/// Reports how far a long import has come: rows done out of the total.
public typealias ImportProgressHandler = @Sendable (_ done: Int, _ total: Int) -> Void

/// What a CSV import stored.
public struct PatientImportResult: Sendable {
    /// Owners created.
    public let ownersCreated: Int
    /// Patients created.
    public let patientsCreated: Int
    /// The first and last medical record numbers assigned, when any patient was created.
    public let recordNumbers: (first: String, last: String)?
    /// Rows the store refused while skipping them, e.g. a microchip already recorded for
    /// another patient of the practice (the file alone cannot show that).
    public let refused: [ImportRowIssue]

    /// Creates the value from its parts.
    public init(
        ownersCreated: Int, patientsCreated: Int, recordNumbers: (first: String, last: String)?,
        refused: [ImportRowIssue]
    ) {
        self.ownersCreated = ownersCreated
        self.patientsCreated = patientsCreated
        self.recordNumbers = recordNumbers
        self.refused = refused
    }
}

extension ImportRowIssue {
    /// The issue of an import row the store refused: an invalid value (every field named) or a
    /// value another patient holds (a microchip). `nil` for any other failure, which is not
    /// the row's problem and ends the import.
    public init?(line: Int, refusal: any Error) {
        switch refusal {
        case let invalid as ValidationError: self.init(line: line, errors: invalid.errors)
        case let taken as UniquenessConflict:
            self.init(line: line, errors: [FieldError(field: taken.field, message: taken.message)])
        default: return nil
        }
    }
}
