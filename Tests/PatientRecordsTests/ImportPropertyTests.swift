import Foundation
import PatientRecords
import PropertyBased
import SharedKernel
import Testing

// MARK: - Generators

/// Characters that matter to CSV (quotes, separators, every kind of line break, a byte-order
/// mark) mixed with ordinary and multi-scalar text.
private let csvAlphabet: [String] = [
    "a", "1", " ", ",", ",", "\"", "\"", "\r", "\n", "\r\n", "\u{FEFF}", "é", "e\u{301}", "🐕‍🦺", ";", "\t",
]

/// Number of physical lines in `text` as the parser counts them (CRLF, LF and lone CR each end one).
private func lineCount(_ text: String) -> Int {
    let scalars = Array(text.unicodeScalars)
    var lines = 1
    var index = 0
    while index < scalars.count {
        if scalars[index] == "\r" {
            lines += 1
            index += index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
        } else {
            if scalars[index] == "\n" { lines += 1 }
            index += 1
        }
    }
    return lines
}

/// `cell` as a CSV field: quoted (quotes doubled) when it must be, and sometimes when it need not be.
private func csvField(_ cell: String, alwaysQuote: Bool) -> String {
    let needsQuotes = cell.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
    guard needsQuotes || alwaysQuote else { return cell }
    return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

/// Cell values for each import column: valid ones, and the edge cases a spreadsheet or a
/// careless export produces (impossible dates, numbers in scientific notation, huge lengths).
private func cellValues(for column: PatientImportColumn) -> [String] {
    let long = String(repeating: "x", count: 2_500)
    let shared = ["", " ", long, "\"quoted\"", "a,b", "line\nbreak", "1e308", "-1"]
    switch column {
    case .ownerFirstName, .ownerLastName: return shared + ["Jo", "Zoë", "Bloggs", "🐕", "O'Brien"]
    case .ownerEmail:
        return shared + ["jo@example.com", "JO@EXAMPLE.COM", "sam@example.org", "@", "a@b", long + "@example.com"]
    case .ownerPhone:
        return shared + [
            "+44 20 7946 0958", "020 7946 0958", "123", "٠٢٠٧٩٤٦٠٩٥٨", String(repeating: "9", count: 2_500),
        ]
    case .ownerAddressLine1, .ownerAddressLine2, .ownerCity, .ownerPostcode, .ownerCountry:
        return shared + ["1 High St", "Leeds", "LS1 1AA", "GB", "", ""]
    case .patientName: return shared + ["Rex", "Tibbles", "Rex ", "REX", "Bella"]
    case .species: return Species.allCases.map(\.rawValue) + ["DOG", " Cat ", "dragon", "", "1e308"]
    case .breed, .colour: return shared + ["Collie", "tabby, white"]
    case .sex: return Patient.Sex.allCases.map(\.rawValue) + ["male intact", "Female-Spayed", "x", ""]
    case .birthDate:
        return [
            "", "2020-05-01", "2024-02-29", "2023-02-29", "9999-99-99", "9999-12-31", "0000-01-01", "0000-00-00",
            "0001-01-01",
            "-001-01-01", "2026-03-16", "2026-03-15", "1970-01-01", "2020-5-1", "２０２０-05-01", "1e308", "99999-01-01",
            long,
        ]
    case .birthDateEstimated: return ["", "true", "yes", "Y", "0", "no", "maybe", "1e308"]
    case .microchip:
        return [
            "", "", "826012345678901", "826 012 345 678 901", "8.26012E+14", "1e308", "12345", "８２６０１２３４５６７８９０１", long,
        ]
    case .alerts: return ["", "bites", "bites;penicillin allergy", ";;;", long]
    }
}

/// An import file: a header (columns shuffled, optional ones sometimes left out) and rows of
/// cells drawn from ``cellValues(for:)``, with random line breaks, blank lines and, now and
/// then, a row with a field too many or too few.
private struct ImportFile: Sendable, CustomStringConvertible {
    var text: String
    var description: String { text.count > 2_000 ? String(text.prefix(2_000)) + "…" : text }
}

private func importFile(using rng: inout some RandomNumberGenerator) -> ImportFile {
    var columns = PatientImportColumn.allCases.filter { !$0.isOptionalInHeader || Bool.random(using: &rng) }
    columns.shuffle(using: &rng)
    let breaks = ["\r\n", "\n", "\r"]
    let newline = breaks.randomElement(using: &rng)!
    // Header names are case-insensitive.
    var lines = [
        columns.map { Bool.random(using: &rng) ? $0.rawValue.uppercased() : $0.rawValue }.joined(separator: ",")
    ]
    for _ in 0..<Int.random(in: 0...12, using: &rng) {
        if Int.random(in: 0...9, using: &rng) == 0 {
            lines.append(Bool.random(using: &rng) ? "" : ",,,")
            continue
        }
        var cells = columns.map { cellValues(for: $0).randomElement(using: &rng)! }
        switch Int.random(in: 0...14, using: &rng) {
        case 0: cells.append("extra")
        case 1: cells.removeLast()
        default: break
        }
        lines.append(
            cells.map { csvField($0, alwaysQuote: Int.random(in: 0...4, using: &rng) == 0) }.joined(separator: ","))
    }
    let trailing = Bool.random(using: &rng) ? newline : ""
    return ImportFile(text: lines.joined(separator: newline) + trailing)
}

private let importFiles = Generator<ImportFile, Shrink.None<ImportFile>> { rng in importFile(using: &rng) }

/// The names an import error may give a field: a documented column, the header, or the row.
private let reportableFields = Set(PatientImportColumn.allCases.map(\.rawValue) + ["row", "header"])

// MARK: - Properties

@Suite("CSV import properties: any text gets a plan or line-numbered errors, never a crash")
struct ImportPropertyTests {
    @Test("random CSV-ish text parses into records on real lines, or fails with a line inside the text")
    func randomCSVText() async {
        let texts = Gen<String?>.element(of: csvAlphabet).map { $0 ?? "" }.array(of: 0...120).map { $0.joined() }
        await propertyCheck(count: 500, input: texts) { text in
            let lines = lineCount(text)
            do throws(CSVError) {
                let records = try CSVParser.parse(text)
                #expect(records.map(\.line) == records.map(\.line).sorted(), "record lines go down the file")
                #expect(records.allSatisfy { (1...lines).contains($0.line) && !$0.fields.isEmpty })
            } catch {
                #expect((1...lines).contains(error.line), "line \(error.line) of \(lines): \(error)")
                #expect(!error.description.isEmpty)
            }
        }
    }

    @Test("any table written as CSV (quotes, commas, CR, LF, BOM-free unicode) reads back unchanged")
    func roundTrip() async {
        let cell = Gen<String?>.element(of: csvAlphabet.filter { $0 != "\u{FEFF}" }).map { $0 ?? "" }.array(of: 0...8)
            .map { $0.joined() }
        let table = cell.array(of: 1...5).array(of: 1...6)
        await propertyCheck(count: 300, input: table, Gen<String?>.element(of: ["\r\n", "\n", "\r"]), Gen.bool) {
            rows, newline, trailing in
            // A row of one empty field would be a blank line; quoting it keeps it a record.
            let text =
                rows.map { $0.map { csvField($0, alwaysQuote: $0.isEmpty) }.joined(separator: ",") }
                .joined(separator: newline ?? "\n") + (trailing ? newline ?? "\n" : "")
            do throws(CSVError) {
                let records = try CSVParser.parse(text)
                #expect(records.map(\.fields) == rows, "\(text.debugDescription)")
                #expect(records.first?.line == 1)
            } catch {
                Issue.record("well-formed CSV refused: \(error) for \(text.debugDescription)")
            }
        }
    }

    @Test("random import files give a plan or errors naming documented columns on data lines")
    func randomImportFiles() async {
        await propertyCheck(count: 200, input: importFiles, Gen.bool) { file, skipInvalidRows in
            let records = (try? CSVParser.parse(file.text)) ?? []
            let dataLines = Set(records.dropFirst().filter { !$0.isBlank }.map(\.line))
            do throws(PatientImportError) {
                let plan = try PatientImportPlan.validate(file.text, now: Fixture.now, skipInvalidRows: skipInvalidRows)
                #expect(
                    plan.patients.count + plan.skippedRows.count == dataLines.count,
                    "every data row is planned or reported")
                #expect(skipInvalidRows || plan.skippedRows.isEmpty)
                for issue in plan.skippedRows { expectReportable(issue, dataLines: dataLines) }
                let ownerIDs = Set(plan.owners.map(\.id))
                for patient in plan.patients {
                    #expect(ownerIDs.contains(patient.ownerID))
                    #expect(plan.patientLines[patient.id].map(dataLines.contains) == true)
                    #expect(throws: Never.self) { try patient.validate(now: Fixture.now) }
                    if let birth = patient.birthDate { #expect(birth <= Fixture.now) }
                }
                for owner in plan.owners { #expect(throws: Never.self) { try owner.validate() } }
            } catch {
                switch error {
                case .malformedCSV(let csvError):
                    #expect((1...lineCount(file.text)).contains(csvError.line))
                case .invalidHeader(let errors):
                    #expect(!errors.isEmpty && errors.allSatisfy { $0.field == "header" && !$0.message.isEmpty })
                case .noRows:
                    #expect(dataLines.isEmpty)
                case .invalidRows(let issues):
                    #expect(!skipInvalidRows && !issues.isEmpty)
                    for issue in issues { expectReportable(issue, dataLines: dataLines) }
                }
            }
        }
    }

    @Test("random header lines are refused naming the header, or accepted when every required column is there")
    func randomHeaders() async {
        let names =
            PatientImportColumn.allCases.map(\.rawValue) + [
                "", "Species ", "owner email", "name", "\"species\"", "ＳＰＥＣＩＥＳ",
            ]
        let headers = Gen<String?>.element(of: names).map { $0 ?? "" }.array(of: 0...25)
        await propertyCheck(count: 300, input: headers) { header in
            let text =
                header.map { csvField($0, alwaysQuote: false) }.joined(separator: ",") + "\n"
                + header.map { _ in "" }.joined(separator: ",") + "x\n"
            do throws(PatientImportError) {
                _ = try PatientImportPlan.validate(text, now: Fixture.now, skipInvalidRows: true)
            } catch {
                switch error {
                case .invalidHeader(let errors):
                    #expect(errors.allSatisfy { $0.field == "header" && !$0.message.isEmpty })
                case .noRows, .invalidRows, .malformedCSV:
                    Issue.record("unexpected \(error) for \(text.debugDescription)")
                }
            }
        }
    }
}

/// An issue is on a data line and names only documented columns (or the row), each with a reason.
private func expectReportable(
    _ issue: ImportRowIssue, dataLines: Set<Int>, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        dataLines.contains(issue.line), "issue on line \(issue.line), data lines \(dataLines.sorted())",
        sourceLocation: sourceLocation)
    #expect(!issue.errors.isEmpty, sourceLocation: sourceLocation)
    for error in issue.errors {
        #expect(
            reportableFields.contains(error.field), "unknown field name \(error.field)", sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
    }
}
