import Foundation
import SharedKernel

/// The owners and patients an import file would create, after every row was checked.
///
/// Producing a plan writes nothing; the caller stores it in one transaction.
///
/// ## File layout
///
/// UTF-8 CSV (RFC 4180: fields containing `,`, `"` or line breaks are enclosed in `"`, and a
/// `"` inside is doubled). Line 1 is a header naming the columns; their order is free, names
/// are case-insensitive. One row per **patient**; the owner's columns are repeated on each of
/// their patients' rows.
///
/// | column                 | required in header | cell                                                          |
/// |------------------------|--------------------|---------------------------------------------------------------|
/// | `owner_first_name`     | yes | required                                                                 |
/// | `owner_last_name`      | yes | required                                                                 |
/// | `owner_email`          | yes | optional; `name@example.com`                                             |
/// | `owner_phone`          | yes | optional; 6–15 digits, any punctuation (`+44 20 7946 0958`)              |
/// | `owner_address_line1`  | yes | optional; if line 1, city, postcode or country is given, all four are |
/// | `owner_address_line2`  | no  | optional                                                                 |
/// | `owner_city`           | yes | see line 1                                                               |
/// | `owner_postcode`       | yes | see line 1                                                               |
/// | `owner_country`        | yes | see line 1                                                               |
/// | `patient_name`         | yes | required                                                                 |
/// | `species`              | yes | required; `dog`, `cat`, `rabbit`, `ferret`, `bird`, `horse`, `reptile`, `other` |
/// | `breed`                | yes | optional                                                                 |
/// | `sex`                  | yes | `male_intact`, `male_neutered`, `female_intact`, `female_spayed`, `unknown`²  |
/// | `birth_date`           | yes | optional; `YYYY-MM-DD`, a real day, not in the future                    |
/// | `birth_date_estimated` | no  | optional; `true`/`false`, `yes`/`no`, `1`/`0` (empty = false)            |
/// | `colour`               | yes | optional                                                                 |
/// | `microchip`            | yes | optional; 15 digits (spaces ignored)                                     |
/// | `alerts`               | yes | optional; several separated by `;` (`bites;penicillin allergy`)          |
///
/// ² Optional: an empty `sex` cell is `unknown`.
///
/// Every cell is trimmed of surrounding white space; each owner needs an email or a phone.
/// Blank lines are skipped. Columns not listed here are refused, so a misspelt header cannot
/// silently drop data.
///
/// ## Owners
///
/// Rows belong to the same owner when their `owner_email` matches (ignoring case), or, without
/// an email, when the names and the phone digits match. The owner's details are taken from
/// their first row; a later row whose email matches but whose name differs is refused.
///
/// ## Errors
///
/// Every bad row is reported with the line it starts on (the header is line 1; a quoted line
/// break moves later rows down) and every bad cell by column name. Also refused: a patient
/// repeated for the same owner (same name and species), and a microchip on two rows.
public struct PatientImportPlan: Hashable, Sendable {
    /// Owners to create, in order of first appearance.
    public var owners: [Owner]
    /// Patients to create, in file order; each `ownerID` is one of ``owners``.
    public var patients: [Patient]
    /// The line each planned patient came from, for the import report.
    public var patientLines: [Identifier<Patient>: Int]
    /// Rows left out because they were invalid (only when skipping invalid rows).
    public var skippedRows: [ImportRowIssue]

    /// Creates a plan.
    public init(
        owners: [Owner] = [], patients: [Patient] = [], patientLines: [Identifier<Patient>: Int] = [:],
        skippedRows: [ImportRowIssue] = []
    ) {
        self.owners = owners
        self.patients = patients
        self.patientLines = patientLines
        self.skippedRows = skippedRows
    }

    // MARK: - Validation

    /// Parses and checks `csvText` against `now` (for birth dates).
    ///
    /// - Parameters:
    ///   - skipInvalidRows: when `false` (the default), any invalid row refuses the whole file
    ///     with ``PatientImportError/invalidRows(_:)`` listing every bad row; when `true`, the
    ///     plan holds the valid rows and ``skippedRows`` reports the others.
    ///   - ids: identifiers for the planned owners and patients.
    /// - Throws: ``PatientImportError``; malformed CSV and a bad header refuse the file even
    ///   when skipping rows, since no row can be read reliably.
    public static func validate(
        _ csvText: String, now: Date, skipInvalidRows: Bool = false, ids: IDGenerator = .random,
        calendar: Calendar = RecordCalendar.utc
    ) throws(PatientImportError) -> PatientImportPlan {
        let records: [CSVRecord]
        do {
            records = try CSVParser.parse(csvText)
        } catch {
            throw .malformedCSV(error)
        }
        guard let header = records.first else {
            throw .invalidHeader([
                FieldError(field: "header", message: "the file is empty; line 1 must name the columns")
            ])
        }
        let columns = try ImportHeader(header)
        let rows = records.dropFirst().filter { !$0.isBlank }
        guard !rows.isEmpty else { throw .noRows }

        var builder = ImportPlanBuilder(now: now, ids: ids, calendar: calendar)
        for record in rows { builder.add(record, columns: columns) }
        if !builder.issues.isEmpty && !skipInvalidRows { throw .invalidRows(builder.issues) }
        return PatientImportPlan(
            owners: builder.owners, patients: builder.patients, patientLines: builder.patientLines,
            skippedRows: builder.issues)
    }
}
