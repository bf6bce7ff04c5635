import Foundation
import PatientRecords
import SharedKernel
import StoragePorts
import Synchronization
import Testing

/// A generated population (`vetnet seed --scale`) loads the same way into every store: the same
/// record numbers, searchable at once, one audit entry, and a refusal that writes nothing.
@Suite("Population loading contract (every store adapter)")
struct PopulationLoaderContractTests {
    @Test(
        """
        a practice with no staff is created once per name, and its loaded patients are numbered, searchable and audited
        """,
        arguments: Adapter.available)
    func loadsAPopulation(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let profile = PracticeProfile(
                id: PracticeID(), name: "Scale Group", timeZone: "Europe/London", openingHours: [])
            try await store.population.createPractice(profile, requestID: "test")
            await #expect(throws: UniquenessConflict.self) {
                try await store.population.createPractice(
                    PracticeProfile(id: PracticeID(), name: "Scale Group", timeZone: "Europe/London", openingHours: []),
                    requestID: "test")
            }
            let scope = AccessScope.system(profile.id)
            let owners = (0..<3).map {
                Owner(
                    firstName: "Owner\($0)", lastName: ["Fairweather", "Quill", "Ashdown"][$0],
                    email: "o\($0)@x.example")
            }
            let patients = (0..<5).map {
                Patient(
                    name: ["Biscuit", "Pepper", "Mabel", "Otto", "Juniper"][$0], species: $0 % 2 == 0 ? .dog : .cat,
                    ownerID: owners[$0 % 3].id, coOwnerID: $0 == 4 ? owners[0].id : nil)
            }
            let reported = LoadProgressLog()
            let numbers = try await store.population.bulkLoad(
                owners: owners, patients: patients, scope: scope, progress: { done, total in reported.add(done, total) }
            )
            #expect(numbers?.first == "P-000001" && numbers?.last == "P-000005")
            #expect(reported.last.map { $0 == (8, 8) } == true)

            // Searchable at once, by an owner's name (the co-owner's too) and by record number.
            let byOwner = try await store.records.searchPatients(
                scope: scope, query: PatientQuery(text: "fairweather"), limit: 10, after: nil)
            #expect(Set(byOwner.items.map(\.patient.value.name)) == ["Biscuit", "Otto", "Juniper"])
            let byNumber = try await store.records.searchPatients(
                scope: scope, query: PatientQuery(text: "P-000003"), limit: 10, after: nil)
            #expect(byNumber.items.map(\.patient.value.name) == ["Mabel"])
            // The next patient registered one by one continues the numbering.
            let next = try await store.records.createPatient(
                Patient(name: "Rolo", species: .rabbit, ownerID: owners[1].id), scope: scope)
            #expect(next.medicalRecordNumber == "P-000006")

            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 20, before: nil, resourceType: ResourceKind.practice.rawValue, resourceID: nil)
            #expect(audit.items.filter { $0.action == "practice.bulk_load" }.map(\.detail) == ["owners=3 patients=5"])
            #expect(audit.items.contains { $0.action == "practice.create" })
        }
    }

    @Test(
        "a loaded owner and patients read back as single creates write them, every field and an archive date",
        arguments: Adapter.available)
    func loadsEveryField(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = try await Self.emptyPractice("Full Group", in: store)
            let owner = Owner(
                firstName: "Ada", lastName: "Vance", email: "ada@x.example",
                phones: [PhoneNumber(label: "mobile", number: "07700 900123")],
                address: PostalAddress(
                    line1: "1 High St", line2: "Flat 2", city: "Leeds", postcode: "LS1 1AA", country: "GB"),
                communication: CommunicationPreferences(preferredChannel: .sms, reminders: true, marketing: false),
                notes: "Calls after five")
            let coOwner = Owner(firstName: "Ben", lastName: "Vance")
            let full = Patient(
                name: "Pip", species: .cat, breed: "Siamese", sex: .femaleSpayed, birthDate: store.day(-900),
                birthDateEstimated: true, colour: "Seal point", microchip: "941000024680135", alerts: ["Bites"],
                ownerID: owner.id, coOwnerID: coOwner.id)
            let bare = Patient(name: "Rex", species: .dog, ownerID: coOwner.id)
            let archived = Patient(name: "Old Tom", species: .cat, status: .archived, ownerID: owner.id)
            let written = [full, bare, archived]
            _ = try await store.population.bulkLoad(
                owners: [owner, coOwner], patients: written, scope: scope, progress: nil)

            #expect(try await store.records.owner(scope: scope, id: owner.id).value == owner)
            #expect(try await store.records.owner(scope: scope, id: coOwner.id).value == coOwner)
            for (index, patient) in written.enumerated() {
                var expected = patient
                expected.medicalRecordNumber = "P-00000\(index + 1)"
                #expect(try await store.records.patient(scope: scope, id: patient.id).value == expected)
            }
            // The archived patient's retention runs from the load, as if archived then.
            #expect(try await store.medicalRecords.purgeArchivedPatients(scope: scope, retentionYears: 7).patients == 0)
            store.clock.advance(8 * 366 * 86_400)
            #expect(try await store.medicalRecords.purgeArchivedPatients(scope: scope, retentionYears: 7).patients == 1)
        }
    }

    @Test("a patient naming an owner that is not being loaded refuses the whole load", arguments: Adapter.available)
    func refusesAStrayOwner(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = try await Self.emptyPractice("Stray Group", in: store)
            let owner = Owner(firstName: "Ada", lastName: "Vance")
            await #expect(throws: ValidationError.self) {
                try await store.population.bulkLoad(
                    owners: [owner],
                    patients: [
                        Patient(name: "Kept", species: .dog, ownerID: owner.id),
                        Patient(name: "Stray", species: .cat, ownerID: Identifier<Owner>()),
                    ],
                    scope: scope, progress: nil)
            }
            let all = try await store.records.searchPatients(scope: scope, query: PatientQuery(), limit: 10, after: nil)
            #expect(all.items.isEmpty)
            await #expect(throws: DomainError.notFound(resource: "owner")) {
                try await store.records.owner(scope: scope, id: owner.id)
            }
        }
    }
}

extension PopulationLoaderContractTests {
    /// A new practice of `name` with no staff, as `vetnet seed --scale` creates one; its scope.
    static func emptyPractice(_ name: String, in store: StoreUnderTest) async throws -> AccessScope {
        let profile = PracticeProfile(id: PracticeID(), name: name, timeZone: "Europe/London", openingHours: [])
        try await store.population.createPractice(profile, requestID: nil)
        return AccessScope.system(profile.id)
    }
}

/// The progress a load reported, last call kept.
private final class LoadProgressLog: Sendable {
    private let calls = Mutex<[(Int, Int)]>([])
    func add(_ done: Int, _ total: Int) { calls.withLock { $0.append((done, total)) } }
    var last: (Int, Int)? { calls.withLock { $0.last } }
}
