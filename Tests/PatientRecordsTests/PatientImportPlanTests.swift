import Foundation
import PatientRecords
import SharedKernel
import Synchronization
import Testing

@Suite("Owners and patients CSV import")
struct PatientImportPlanTests {
    static let header =
        "owner_first_name,owner_last_name,owner_email,owner_phone,owner_address_line1,owner_city,owner_postcode,"
        + "owner_country,"
        + "patient_name,species,breed,sex,birth_date,colour,microchip,alerts"

    /// A valid row with selected cells replaced.
    static func row(
        first: String = "Jo", last: String = "Bloggs", email: String = "jo@example.com",
        phone: String = "+44 20 7946 0958",
        line1: String = "1 High St", city: String = "Leeds", postcode: String = "LS1 1AA", country: String = "GB",
        name: String = "Rex", species: String = "dog", breed: String = "Collie", sex: String = "male_neutered",
        birth: String = "2020-05-01", colour: String = "black", chip: String = "", alerts: String = ""
    ) -> String {
        [
            first, last, email, phone, line1, city, postcode, country, name, species, breed, sex, birth, colour, chip,
            alerts,
        ].joined(separator: ",")
    }

    static func file(_ rows: String...) -> String { ([header] + rows).joined(separator: "\r\n") + "\r\n" }

    static func issues(_ text: String) -> [ImportRowIssue] {
        do {
            _ = try PatientImportPlan.validate(text, now: Fixture.now)
            return []
        } catch {
            guard case .invalidRows(let issues) = error else { return [] }
            return issues
        }
    }

    @Test("a valid file plans owners and patients with every column read")
    func valid() throws {
        let text = Self.file(
            Self.row(chip: "826012345678901", alerts: "bites; penicillin allergy;"),
            Self.row(
                name: "Tibbles", species: "Cat", breed: "", sex: "female spayed", birth: "", colour: "\"tabby, white\"")
        )
        let plan = try PatientImportPlan.validate(text, now: Fixture.now)
        #expect(plan.owners.count == 1)
        let owner = try #require(plan.owners.first)
        #expect(owner.fullName == "Jo Bloggs")
        #expect(owner.phones.map(\.number) == ["+44 20 7946 0958"])
        #expect(owner.address == PostalAddress(line1: "1 High St", city: "Leeds", postcode: "LS1 1AA", country: "GB"))
        #expect(plan.patients.map(\.name) == ["Rex", "Tibbles"])
        #expect(plan.patients.allSatisfy { $0.ownerID == owner.id })
        #expect(plan.patients[0].alerts == ["bites", "penicillin allergy"])
        #expect(plan.patients[0].birthDate == Fixture.day("2020-05-01"))
        #expect(plan.patients[0].microchip == "826012345678901")
        #expect(plan.patients[1].species == .cat && plan.patients[1].sex == .femaleSpayed)
        #expect(plan.patients[1].breed == nil && plan.patients[1].birthDate == nil)
        #expect(plan.patients[1].colour == "tabby, white")
        #expect(plan.patientLines[plan.patients[1].id] == 3)
        #expect(plan.skippedRows.isEmpty)
    }

    @Test("owners are merged by email ignoring case, or by name and phone digits without an email")
    func ownerDeduplication() throws {
        let text = Self.file(
            Self.row(email: "Jo@Example.com", name: "Rex"),
            Self.row(email: "jo@example.COM", phone: "", name: "Fido"),
            Self.row(first: "Ann", last: "Lee", email: "", phone: "0113 496 0000", name: "Bun", species: "rabbit"),
            Self.row(first: "ann", last: "LEE", email: "", phone: "(0113) 4960000", name: "Hop", species: "rabbit"),
            Self.row(first: "Jo", last: "Bloggs", email: "", phone: "020 7946 0958", name: "Kit", species: "cat"),
            Self.row(first: "Ann", last: "Lee", email: "", phone: "0113 496 9999", name: "Spot")
        )
        let plan = try PatientImportPlan.validate(text, now: Fixture.now)
        #expect(plan.owners.map(\.fullName) == ["Jo Bloggs", "Ann Lee", "Jo Bloggs", "Ann Lee"])
        let ownerOf = Dictionary(uniqueKeysWithValues: plan.patients.map { ($0.name, $0.ownerID) })
        #expect(ownerOf["Rex"] == ownerOf["Fido"])
        #expect(ownerOf["Bun"] == ownerOf["Hop"])
        #expect(ownerOf["Kit"] != ownerOf["Rex"], "a different phone (no +44) is a different key")
        #expect(ownerOf["Spot"] != ownerOf["Bun"])
    }

    @Test(
        "every bad row is reported with its line and the columns at fault",
        arguments: [
            (row(first: ""), ["owner_first_name"]),
            (row(email: "jo@", phone: ""), ["owner_email"]),
            (row(email: "", phone: ""), ["owner_email"]),
            (row(phone: "12"), ["owner_phone"]),
            (row(city: "", postcode: ""), ["owner_city", "owner_postcode"]),
            (row(name: ""), ["patient_name"]),
            (row(species: "dragon"), ["species"]),
            (row(species: ""), ["species"]),
            (row(sex: "m"), ["sex"]),
            (row(birth: "2026-03-16"), ["birth_date"]),
            (row(birth: "2023-02-29"), ["birth_date"]),
            (row(birth: "01/05/2020"), ["birth_date"]),
            (row(chip: "12345"), ["microchip"]),
            (row(chip: "8.26012E+14"), ["microchip"]),
            (row(first: "", species: "dragon", birth: "tomorrow"), ["owner_first_name", "species", "birth_date"]),
            ("Jo,Bloggs,jo@example.com", ["row"]),
        ])
    func badRow(row: String, fields: [String]) {
        let issues = Self.issues(Self.file(Self.row(name: "Ok"), row))
        #expect(issues.map(\.line) == [3])
        #expect(issues.first?.errors.map(\.field) == fields)
    }

    @Test("line numbers count the header and line breaks inside quoted cells")
    func lineNumbersAfterQuotedNewlines() {
        let text = Self.file(
            Self.row(alerts: "\"bites;\nneeds muzzle\""), // line 2–3
            Self.row(name: "Bad", species: "unicorn"), // line 4
            "", // line 5, blank: skipped
            Self.row(name: "Fido", alerts: "\"a\r\nb\r\nc\""), // lines 6–8
            Self.row(name: "Worse", birth: "2999-01-01") // line 9
        )
        let issues = Self.issues(text)
        #expect(issues.map(\.line) == [4, 9])
        #expect(issues.map { $0.errors.map(\.field) } == [["species"], ["birth_date"]])
    }

    @Test("repeated patients, shared microchips and conflicting owner names are refused")
    func collisions() {
        let text = Self.file(
            Self.row(name: "Rex", chip: "826012345678901"),
            Self.row(name: "rex"), // same owner, name and species
            Self.row(name: "Max", chip: "826 012 345 678 901"), // same chip once spaces go
            Self.row(first: "Joanna", name: "Bella") // same email, other name
        )
        let issues = Self.issues(text)
        #expect(issues.map(\.line) == [3, 4, 5])
        #expect(issues.map { $0.errors.map(\.field) } == [["patient_name"], ["microchip"], ["owner_email"]])
    }

    @Test("skipping invalid rows plans the valid ones and reports the rest")
    func skipInvalid() throws {
        let text = Self.file(Self.row(name: "Rex"), Self.row(name: "", species: "dog"), Self.row(name: "Fido"))
        let plan = try PatientImportPlan.validate(text, now: Fixture.now, skipInvalidRows: true)
        #expect(plan.patients.map(\.name) == ["Rex", "Fido"])
        #expect(plan.skippedRows.map(\.line) == [3])
        #expect(plan.patientLines[plan.patients[1].id] == 4)
    }

    @Test("header columns may come in any order and case; optional columns may be added")
    func headerOrder() throws {
        let text =
            "SPECIES,patient_name,owner_last_name,owner_first_name,owner_email,owner_phone,owner_address_line1,"
            + "owner_city,"
            + "owner_postcode,owner_country,breed,sex,birth_date,colour,microchip,alerts,birth_date_estimated,"
            + "owner_address_line2\n"
            + "cat,Mog,Smith,Al,al@example.com,,,,,,,,2019-01-01,,,,yes,\n"
        let plan = try PatientImportPlan.validate(text, now: Fixture.now)
        #expect(plan.patients.first?.name == "Mog")
        #expect(plan.patients.first?.birthDateEstimated == true)
        #expect(plan.owners.first?.fullName == "Al Smith")
        #expect(plan.owners.first?.address == nil)
    }

    @Test("a bad header is refused naming every problem, even when skipping rows")
    func badHeader() {
        let text = Self.header.replacingOccurrences(of: "owner_email,", with: "") + ",owner_emial,species\nx"
        #expect(
            throws: PatientImportError.invalidHeader([
                FieldError(field: "header", message: "unknown column 'owner_emial' (position 16)"),
                FieldError(field: "header", message: "column 'species' appears more than once"),
                FieldError(field: "header", message: "missing column 'owner_email'"),
            ])
        ) { try PatientImportPlan.validate(text, now: Fixture.now, skipInvalidRows: true) }
    }

    @Test("empty files, header-only files and malformed CSV are refused as a whole")
    func wholeFile() {
        #expect(throws: PatientImportError.self) { try PatientImportPlan.validate("", now: Fixture.now) }
        #expect(throws: PatientImportError.noRows) {
            try PatientImportPlan.validate(Self.header + "\r\n\r\n", now: Fixture.now)
        }
        #expect(throws: PatientImportError.malformedCSV(CSVError(kind: .unterminatedQuote, line: 3))) {
            try PatientImportPlan.validate(
                Self.file(Self.row(), "Jo,\"Bloggs"), now: Fixture.now, skipInvalidRows: true)
        }
    }

    @Test("the example in docs/import-format.md imports as described")
    func documentedExample() throws {
        let text = """
            owner_first_name,owner_last_name,owner_email,owner_phone,owner_address_line1,owner_city,owner_postcode,\
            owner_country,patient_name,species,breed,sex,birth_date,colour,microchip,alerts
            Jo,Bloggs,jo@example.com,+44 20 7946 0958,1 High St,Leeds,LS1 1AA,GB,Rex,dog,Collie,male_neutered,\
            2020-05-01,black,826012345678901,bites;needs muzzle
            Jo,Bloggs,jo@example.com,+44 20 7946 0958,1 High St,Leeds,LS1 1AA,GB,Tibbles,cat,,female_spayed,,"tabby, \
            white",,
            Ann,Lee,,0113 496 0000,,,,,Bun,rabbit,Lionhead,unknown,2024-02-29,,,
            """
        let plan = try PatientImportPlan.validate(text, now: Fixture.now)
        #expect(plan.owners.map(\.fullName) == ["Jo Bloggs", "Ann Lee"])
        #expect(plan.patients.map(\.name) == ["Rex", "Tibbles", "Bun"])
        #expect(plan.patients[0].alerts == ["bites", "needs muzzle"])
    }

    @Test("identifiers come from the injected generator, so a plan is reproducible")
    func deterministicIDs() throws {
        func generator() -> IDGenerator {
            let counter = Counter()
            return IDGenerator { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", counter.next()))! }
        }
        let text = Self.file(Self.row(name: "Rex"), Self.row(name: "Fido"))
        let first = try PatientImportPlan.validate(text, now: Fixture.now, ids: generator())
        let second = try PatientImportPlan.validate(text, now: Fixture.now, ids: generator())
        #expect(first == second)
    }

    @Test("the documented required columns are exactly the layout's header")
    func documentedLayout() {
        #expect(PatientImportColumn.required.map(\.rawValue).joined(separator: ",") == Self.header)
    }
}

/// A thread-safe counter for deterministic identifiers in tests.
private final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
