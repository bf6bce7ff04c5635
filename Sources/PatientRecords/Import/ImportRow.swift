import Foundation
import SharedKernel

/// One data row turned into an owner and a patient, or the list of what is wrong with it.
struct ImportRow {
    let owner: Owner
    let patient: Patient

    /// A row read from the file: importable, or refused with its issue.
    enum Outcome {
        case valid(ImportRow)
        case invalid(ImportRowIssue)
    }

    /// Reads and checks one row; the patient's `ownerID` is the new owner's until the builder
    /// matches the owner with an earlier row.
    static func read(
        _ record: CSVRecord, header: ImportHeader, now: Date, ids: IDGenerator,
        calendar: Calendar
    ) -> Outcome {
        var errors = FieldErrorCollector()
        guard record.fields.count == header.width else {
            errors.add("row", "has \(record.fields.count) fields; the header has \(header.width)")
            return .invalid(ImportRowIssue(line: record.line, errors: errors.errors))
        }
        func cell(_ column: PatientImportColumn) -> String { header.cell(column, in: record.fields) }
        func optional(_ column: PatientImportColumn) -> String? { cell(column).isEmpty ? nil : cell(column) }
        func fail(_ column: PatientImportColumn, _ message: String) { errors.add(column.rawValue, message) }

        // MARK: Owner
        let email = optional(.ownerEmail)
        let phone = optional(.ownerPhone)
        if email == nil && phone == nil { fail(.ownerEmail, "an email or a phone number is required for each owner") }
        let owner = Owner(
            id: Identifier(ids.next()), firstName: cell(.ownerFirstName), lastName: cell(.ownerLastName), email: email,
            phones: phone.map { [PhoneNumber(label: "main", number: $0)] } ?? [], address: address(cell, fail: fail))

        // MARK: Patient
        let species = Species(rawValue: cell(.species).lowercased())
        if cell(.species).isEmpty {
            fail(.species, "is required")
        } else if species == nil {
            fail(
                .species,
                "'\(cell(.species))' is not one of \(Species.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let sexText = cell(.sex).lowercased().replacingOccurrences(of: " ", with: "_").replacingOccurrences(
            of: "-", with: "_")
        let sex = sexText.isEmpty ? .unknown : Patient.Sex(rawValue: sexText)
        if sex == nil {
            fail(.sex, "'\(cell(.sex))' is not one of \(Patient.Sex.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var birthDate: Date?
        if let text = optional(.birthDate) {
            birthDate = RecordCalendar.date(fromISODay: text, calendar: calendar)
            if birthDate == nil { fail(.birthDate, "'\(text)' is not a date in the form YYYY-MM-DD") }
        }
        let estimated = flag(cell(.birthDateEstimated))
        if estimated == nil { fail(.birthDateEstimated, "'\(cell(.birthDateEstimated))' must be true or false") }
        let microchip = optional(.microchip).map { $0.filter { !$0.isWhitespace } }
        if let microchip, microchip.uppercased().contains("E+") {
            // Spreadsheets turn long digit strings into numbers and then into scientific
            // notation, which loses digits for good; say so rather than "must be 15 digits".
            fail(
                .microchip,
                "'\(microchip)' was turned into a number by a spreadsheet; format the column as text and export again")
        }
        let alerts = cell(.alerts).split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        let patient = Patient(
            id: Identifier(ids.next()), name: cell(.patientName), species: species ?? .other, breed: optional(.breed),
            sex: sex ?? .unknown, birthDate: birthDate, birthDateEstimated: estimated ?? false,
            colour: optional(.colour),
            microchip: microchip, alerts: alerts, ownerID: owner.id)

        // The domain types' own rules, reported under the column names; a column already
        // reported above keeps its more specific message.
        let reported = Set(errors.errors.map(\.field))
        do { try owner.validate() } catch {
            for fieldError in error.errors {
                let column = PatientImportColumn.forOwnerField(fieldError.field)?.rawValue ?? fieldError.field
                if !reported.contains(column) { errors.add(column, fieldError.message) }
            }
        }
        do { try patient.validate(now: now) } catch {
            for fieldError in error.errors {
                let column = PatientImportColumn.forPatientField(fieldError.field)?.rawValue ?? fieldError.field
                if !reported.contains(column) { errors.add(column, fieldError.message) }
            }
        }
        if !errors.errors.isEmpty {
            return .invalid(ImportRowIssue(line: record.line, errors: inLayoutOrder(errors.errors)))
        }
        return .valid(ImportRow(owner: owner, patient: patient))
    }

    /// Errors in the documented column order, so a report reads left to right like the file.
    private static func inLayoutOrder(_ errors: [FieldError]) -> [FieldError] {
        let order = Dictionary(
            uniqueKeysWithValues: PatientImportColumn.allCases.enumerated().map { ($1.rawValue, $0) })
        return errors.enumerated().sorted { lhs, rhs in
            let left = order[lhs.element.field] ?? Int.max
            let right = order[rhs.element.field] ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }

    // MARK: - Cells

    /// The address when any of its cells is filled; all of line 1, city, postcode and country
    /// are then required, because a partial address cannot be posted to.
    private static func address(_ cell: (PatientImportColumn) -> String, fail: (PatientImportColumn, String) -> Void)
        -> PostalAddress?
    {
        let parts: [PatientImportColumn] = [.ownerAddressLine1, .ownerCity, .ownerPostcode, .ownerCountry]
        guard parts.contains(where: { !cell($0).isEmpty }) || !cell(.ownerAddressLine2).isEmpty else { return nil }
        for column in parts where cell(column).isEmpty { fail(column, "is required when an address is given") }
        let line2 = cell(.ownerAddressLine2)
        return PostalAddress(
            line1: cell(.ownerAddressLine1), line2: line2.isEmpty ? nil : line2, city: cell(.ownerCity),
            postcode: cell(.ownerPostcode), country: cell(.ownerCountry))
    }

    /// A yes/no cell; empty is no, anything unrecognised is `nil`.
    private static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "", "false", "no", "n", "0": return false
        case "true", "yes", "y", "1": return true
        default: return nil
        }
    }
}
