import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite
import Testing

@Suite("CSV import into the store")
struct PatientImportStoreTests {
    static let header =
        "owner_first_name,owner_last_name,owner_email,owner_phone,owner_address_line1,owner_city,owner_postcode,"
        + "owner_country,"
        + "patient_name,species,breed,sex,birth_date,colour,microchip,alerts"

    /// Line 2: Jo with Rex (microchip …901); line 3: Jo with Tibbles; line 4: Ann with Bun.
    static let validRows = [
        """
        Jo,Bloggs,jo@example.com,+44 20 7946 0958,1 High St,Leeds,LS1 1AA,GB,Rex,dog,Collie,male_neutered,2020-05-01,\
        black,826012345678901,bites
        """,
        """
        Jo,Bloggs,jo@example.com,+44 20 7946 0958,1 High St,Leeds,LS1 1AA,GB,Tibbles,cat,,female_spayed,,\"tabby, \
        white\",,
        """,
        "Ann,Lee,,0113 496 0000,,,,,Bun,rabbit,Lionhead,unknown,2024-02-29,,,",
    ]

    static func csv(_ rows: [String]) -> String { ([header] + rows).joined(separator: "\n") }

    static func plan(_ rows: [String], skip: Bool = false, now: Date) throws -> PatientImportPlan {
        try PatientImportPlan.validate(csv(rows), now: now, skipInvalidRows: skip)
    }

    @Test("a bad row refuses the file: nothing is stored, and every bad row is named by line")
    func badRowImportsNothing() async throws {
        let fixture = try await TwoPractices.make()
        let rows = Self.validRows + ["Max,Power,,,,,,,Zed,dragon,,,,,,"]
        #expect(throws: PatientImportError.self) { _ = try Self.plan(rows, now: fixture.clock.clock.now()) }
        do {
            _ = try Self.plan(rows, now: fixture.clock.clock.now())
        } catch let PatientImportError.invalidRows(issues) {
            #expect(issues.map(\.line) == [5])
            #expect(Set(issues[0].errors.map(\.field)) == ["owner_email", "species"])
        }
        #expect(try await fixture.store.patientCount(scope: .system(fixture.a.id)) == 0)
        #expect(try await fixture.store.ownerCount(scope: .system(fixture.a.id)) == 0)
    }

    @Test("a row the store refuses rolls back the whole import, owners included")
    func storeRefusalRollsBackEverything() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(
            Owner(firstName: "Al", lastName: "Ready", email: "al@example.com"), scope: scope)
        try await fixture.store.createPatient(
            Patient(name: "Chip", species: .dog, microchip: "826012345678901", ownerID: owner.id), scope: scope)
        let plan = try Self.plan(Self.validRows, now: fixture.clock.clock.now())

        await #expect(
            throws: PatientImportError.invalidRows([
                ImportRowIssue(
                    line: 2,
                    errors: [
                        FieldError(
                            field: "microchip", message: "is already recorded for another patient of this practice")
                    ])
            ])
        ) {
            _ = try await fixture.store.importPatients(plan, scope: scope)
        }
        #expect(try await fixture.store.patientCount(scope: scope) == 1)
        #expect(try await fixture.store.ownerCount(scope: scope) == 1)
    }

    @Test("skipping imports the valid rows and reports the others; an owner is created only with a stored patient")
    func skipInvalidImportsTheRest() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(
            Owner(firstName: "Al", lastName: "Ready", email: "al@example.com"), scope: scope)
        try await fixture.store.createPatient(
            Patient(name: "Chip", species: .cat, microchip: "826099999999999", ownerID: owner.id), scope: scope)
        let rows =
            Self.validRows + [
                "Max,Power,,,,,,,Zed,dragon,,,,,,",
                "Kim,Duplicate,kim@example.com,,,,,,Spot,dog,,,,,826099999999999,",
            ]
        let plan = try Self.plan(rows, skip: true, now: fixture.clock.clock.now())
        #expect(plan.skippedRows.map(\.line) == [5])

        let result = try await fixture.store.importPatients(plan, scope: scope, skipRefused: true)
        #expect(result.patientsCreated == 3)
        #expect(result.ownersCreated == 2)
        #expect(result.refused.map(\.line) == [6])
        #expect(try await fixture.store.patientCount(scope: scope) == 4)
        #expect(try await fixture.store.ownerCount(scope: scope) == 3)
    }

    @Test("imported patients get consecutive record numbers after the existing ones, and are audited")
    func recordNumbersAndAudit() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(
            Owner(firstName: "Al", lastName: "Ready", email: "al@example.com"), scope: scope)
        try await fixture.store.createPatient(Patient(name: "First", species: .cat, ownerID: owner.id), scope: scope)

        let plan = try Self.plan(Self.validRows, now: fixture.clock.clock.now())
        let result = try await fixture.store.importPatients(plan, scope: scope)
        #expect(result.recordNumbers?.first == "P-000002")
        #expect(result.recordNumbers?.last == "P-000004")

        let page = try await fixture.store.searchPatients(scope: scope, query: PatientQuery(), limit: 10, after: nil)
        let numbers = Dictionary(
            uniqueKeysWithValues: page.items.map { ($0.patient.value.name, $0.patient.value.medicalRecordNumber) })
        #expect(numbers == ["First": "P-000001", "Rex": "P-000002", "Tibbles": "P-000003", "Bun": "P-000004"])

        let audit = try await fixture.store.auditEntries(scope: scope, limit: 100, before: nil).items.map(\.action)
        #expect(audit.filter { $0 == "patient.create" }.count == 4)
        #expect(audit.filter { $0 == "owner.create" }.count == 3)
        #expect(audit.first == "patient.search")
        #expect(audit.contains("patient.import"))
        #expect(try await fixture.store.verifyAuditChain().isIntact)
    }

    @Test("search finds imported patients by their name, their owner's name and phone")
    func searchFindsImported() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        _ = try await fixture.store.importPatients(
            try Self.plan(Self.validRows, now: fixture.clock.clock.now()), scope: scope)
        func names(_ text: String) async throws -> [String] {
            try await fixture.store.searchPatients(scope: scope, query: PatientQuery(text: text), limit: 10, after: nil)
                .items.map(\.patient.value.name)
        }
        #expect(try await names("tib") == ["Tibbles"])
        #expect(try await names("bloggs") == ["Rex", "Tibbles"])
        #expect(try await names("01134960000") == ["Bun"])
        #expect(try await names("P-000003") == ["Bun"])
        #expect(try await names("826012345678901") == ["Rex"])
        // The other practice sees none of them.
        let other = try await fixture.store.searchPatients(
            scope: fixture.scope(fixture.adminB), query: PatientQuery(text: "rex"), limit: 10, after: nil)
        #expect(other.items.isEmpty)
    }

    @Test("a bulk load numbers patients consecutively and indexes them for search")
    func bulkLoad() async throws {
        let fixture = try await TwoPractices.make()
        let scope = AccessScope.system(fixture.a.id)
        let owners = (0..<3).map {
            Owner(
                firstName: "Owner\($0)", lastName: "Family",
                phones: [PhoneNumber(label: "main", number: "0113 496 000\($0)")])
        }
        let patients = (0..<6).map { Patient(name: "Pet\($0)", species: .dog, ownerID: owners[$0 % 3].id) }
        let numbers = try await fixture.store.bulkLoad(owners: owners, patients: patients, scope: scope)
        #expect(numbers?.first == "P-000001")
        #expect(numbers?.last == "P-000006")
        let found = try await fixture.store.searchPatients(
            scope: scope, query: PatientQuery(text: "owner1 fam"), limit: 10, after: nil)
        #expect(found.items.map(\.patient.value.name) == ["Pet1", "Pet4"])
        let next = try await fixture.store.createPatient(
            Patient(name: "Later", species: .cat, ownerID: owners[0].id), scope: scope)
        #expect(next.medicalRecordNumber == "P-000007")
    }
}
