import Foundation
import Logging
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import Testing

/// Owners, patients and the patient search, held to every adapter alike.
@Suite("Patient directory contract (every store adapter)")
struct PatientDirectoryContractTests {
    // MARK: - Creating and reading

    @Test("owners and patients are created, numbered in order and read back as written", arguments: Adapter.available)
    func createAndRead(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let practice = try await Self.practice(store, "Riverside")
            let scope = AccessScope.system(practice)
            let owner = Owner(
                firstName: "Ada", lastName: "Lovelace", email: "ada@example.com",
                phones: [PhoneNumber(label: "mobile", number: "07700 900123")],
                address: PostalAddress(line1: "1 High St", city: "Leeds", postcode: "LS1 1AA", country: "GB"),
                communication: CommunicationPreferences(preferredChannel: .sms, reminders: false),
                notes: "prefers mornings")
            let (storedOwner, ownerReplayed) = try await store.records.createOwner(
                owner, scope: scope, idempotencyKey: nil)
            #expect(storedOwner.value == owner && storedOwner.version == 1 && !ownerReplayed)
            #expect(try await store.records.owner(scope: scope, id: owner.id).value == owner)

            let birth = try #require(RecordCalendar.date(fromISODay: "2020-05-17"))
            let rex = Patient(
                name: "Rex", species: .dog, breed: "Collie", sex: .maleNeutered, birthDate: birth,
                birthDateEstimated: true,
                colour: "black", microchip: "985112000000001", alerts: ["bites"], ownerID: owner.id)
            let (first, _) = try await store.records.createPatient(rex, scope: scope, idempotencyKey: nil)
            let second = try await store.records.createPatient(
                Patient(name: "Tom", species: .cat, ownerID: owner.id), scope: scope)
            #expect(first.value.medicalRecordNumber == "P-000001" && second.medicalRecordNumber == "P-000002")
            var expected = rex
            expected.medicalRecordNumber = "P-000001"
            let read = try await store.records.patient(scope: scope, id: rex.id)
            #expect(read.value == expected && read.version == 1)

            // Refusals change nothing and leave the counter where it was.
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                try await store.records.patient(scope: scope, id: Identifier<Patient>())
            }
            await #expect(throws: DomainError.notFound(resource: "owner")) {
                try await store.records.createPatient(
                    Patient(name: "Stray", species: .cat, ownerID: Identifier<Owner>()), scope: scope)
            }
            await #expect(throws: UniquenessConflict.patientMicrochip) {
                try await store.records.createPatient(
                    Patient(name: "Copy", species: .dog, microchip: "985112000000001", ownerID: owner.id),
                    scope: scope)
            }
            // Given another patient's microchip by a change: the same refusal, and nothing changes.
            let other = try await store.records.createPatient(
                Patient(name: "Other", species: .cat, microchip: "985112000000002", ownerID: owner.id), scope: scope)
            var copied = other
            copied.microchip = "985112000000001"
            await #expect(throws: UniquenessConflict.patientMicrochip) {
                try await store.records.updatePatient(copied, scope: scope, expectedVersion: nil)
            }
            #expect(try await store.records.patient(scope: scope, id: other.id).value.microchip == "985112000000002")
            await #expect(throws: ValidationError.self) {
                try await store.records.createPatient(
                    Patient(name: " ", species: .dog, ownerID: owner.id), scope: scope)
            }
            let third = try await store.records.createPatient(
                Patient(name: "Bun", species: .rabbit, ownerID: owner.id), scope: scope)
            #expect(third.medicalRecordNumber == "P-000004")
        }
    }

    @Test(
        "a create repeated with its idempotency key answers with the first result; another request under it is refused",
        arguments: Adapter.available)
    func idempotentCreates(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            let owner = Owner(firstName: "Ada", lastName: "Lovelace")
            let key = IdempotencyKey(key: "k-owner", fingerprint: "f1")
            _ = try await store.records.createOwner(owner, scope: scope, idempotencyKey: key)
            let (again, replayed) = try await store.records.createOwner(
                Owner(firstName: "Ada", lastName: "Lovelace"), scope: scope, idempotencyKey: key)
            #expect(replayed && again.value.id == owner.id)
            await #expect(throws: DomainError.self) {
                try await store.records.createOwner(
                    Owner(firstName: "Bo", lastName: "Peep"), scope: scope,
                    idempotencyKey: IdempotencyKey(key: "k-owner", fingerprint: "f2"))
            }
            let patient = Patient(name: "Rex", species: .dog, ownerID: owner.id)
            let patientKey = IdempotencyKey(key: "k-patient", fingerprint: "p1")
            _ = try await store.records.createPatient(patient, scope: scope, idempotencyKey: patientKey)
            let (replay, wasReplay) = try await store.records.createPatient(
                Patient(name: "Rex", species: .dog, ownerID: owner.id),
                scope: scope, idempotencyKey: patientKey)
            #expect(wasReplay && replay.value.id == patient.id && replay.value.medicalRecordNumber == "P-000001")
            #expect(
                try await store.records.searchPatients(scope: scope, query: PatientQuery(), limit: 10, after: nil).items
                    .count == 1)
        }
    }

    @Test(
        "an update keeps the record number, checks the version and is found by its new name",
        arguments: Adapter.available)
    func update(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            let owner = try await store.records.createOwner(Owner(firstName: "Ada", lastName: "Lovelace"), scope: scope)
            var patient = try await store.records.createPatient(
                Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
            patient.name = "Rexford"
            patient.medicalRecordNumber = "P-999999"
            let updated = try await store.records.updatePatient(patient, scope: scope, expectedVersion: 1)
            #expect(updated.version == 2 && updated.value.medicalRecordNumber == "P-000001")
            await #expect(throws: DomainError.versionMismatch(current: 2)) {
                try await store.records.updatePatient(patient, scope: scope, expectedVersion: 1)
            }
            #expect(try await Self.names(store, scope, "rexf") == ["Rexford"])
            #expect(
                try await store.records.patient(scope: scope, id: patient.id).value.medicalRecordNumber == "P-000001")
        }
    }

    // MARK: - Isolation

    @Test("another practice's owners and patients are never found, listed or linked", arguments: Adapter.available)
    func practiceIsolation(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let a = AccessScope.system(try await Self.practice(store, "North"))
            let b = AccessScope.system(try await Self.practice(store, "South"))
            let ownerA = try await store.records.createOwner(Owner(firstName: "Ada", lastName: "Lovelace"), scope: a)
            let ownerB = try await store.records.createOwner(Owner(firstName: "Ada", lastName: "Lovelace"), scope: b)
            let rexB = try await store.records.createPatient(
                Patient(name: "Rex", species: .dog, microchip: "985112000000009", ownerID: ownerB.id),
                scope: b)
            // Numbers and microchips are per practice.
            let rexA = try await store.records.createPatient(
                Patient(name: "Rex", species: .dog, microchip: "985112000000009", ownerID: ownerA.id),
                scope: a)
            #expect(rexA.medicalRecordNumber == "P-000001" && rexB.medicalRecordNumber == "P-000001")

            await #expect(throws: DomainError.notFound(resource: "patient")) {
                try await store.records.patient(scope: a, id: rexB.id)
            }
            await #expect(throws: DomainError.notFound(resource: "owner")) {
                try await store.records.owner(scope: a, id: ownerB.id)
            }
            await #expect(throws: DomainError.notFound(resource: "owner")) {
                try await store.records.createPatient(Patient(name: "Tom", species: .cat, ownerID: ownerB.id), scope: a)
            }
            for text in ["rex", "lovelace", "985112000000009", "P-000001", nil] {
                let page = try await store.records.searchPatients(
                    scope: a, query: PatientQuery(text: text), limit: 50, after: nil)
                #expect(page.items.map(\.patient.value.id) == [rexA.id], "search \(text ?? "(all)")")
            }
            // B's patient id is no cursor in A, nor is a word: refused naming the cursor, never
            // answered with an empty page that would read as the end of A's list.
            for cursor in [rexB.id.description, UUID().uuidString] {
                await #expect(throws: PageCursor.namesNothing, "cursor \(cursor)") {
                    try await store.records.searchPatients(scope: a, query: PatientQuery(), limit: 50, after: cursor)
                }
            }
            await #expect(throws: ValidationError.unknownCursor) {
                try await store.records.searchPatients(scope: a, query: PatientQuery(), limit: 50, after: "rex")
            }
            // An id in capitals is the same id.
            let capitals = try await store.records.searchPatients(
                scope: a, query: PatientQuery(), limit: 50, after: rexA.id.description.uppercased())
            #expect(capitals.items.isEmpty && capitals.nextCursor == nil)
        }
    }

    @Test(
        """
        PostgreSQL: row-level security hides another practice's owners and patients even unfiltered; the schema \
        refuses a cross-practice owner
        """,
        .enabled(
            if: Adapter.available.contains(.postgres),
            "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
    func postgresRowLevelSecurity() async throws {
        try await withStore(.postgres) { store in
            let postgres = try #require(store.postgres).owner
            let a = AccessScope.system(try await Self.practice(store, "North"))
            let b = AccessScope.system(try await Self.practice(store, "South"))
            try await Self.seed(store, a)
            let ownerB = try await store.records.createOwner(Owner(firstName: "Bo", lastName: "Peep"), scope: b)
            let logger = Logger(label: "test")
            func count(_ table: String, actingFor setting: String) async throws -> Int {
                try await postgres.client.withTransaction(logger: logger) { connection in
                    try await connection.query(
                        "SELECT set_config('vetnet.practice_id', \(setting), true)", logger: logger)
                    for try await value in try await connection.query(
                        PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger
                    )
                    .decode(Int64.self) { return Int(value) }
                    return -1
                }
            }
            #expect(try await count("patient", actingFor: b.practiceID.description) == 0)
            #expect(try await count("owner", actingFor: b.practiceID.description) == 1)
            #expect(try await count("patient", actingFor: a.practiceID.description) == 4)
            #expect(try await count("practice_counter", actingFor: b.practiceID.description) == 0)
            #expect(try await count("patient_word", actingFor: b.practiceID.description) == 0)
            #expect(try await count("patient_word", actingFor: a.practiceID.description) > 20)
            #expect(try await count("patient", actingFor: "installation") == 4)
            // Even written by hand for the whole installation, a patient cannot name another practice's owner.
            await #expect(throws: (any Error).self) {
                try await postgres.client.withTransaction(logger: logger) { connection in
                    try await connection.query(
                        "SELECT set_config('vetnet.practice_id', 'installation', true)", logger: logger)
                    try await connection.query(
                        """
                        INSERT INTO patient (id, practice_id, mrn, name, species, sex, status, alerts, owner_id, \
                        created_at, updated_at)
                        VALUES (\(UUID()), \(a.practiceID.rawValue), 'P-999999', 'Stray', 'cat', 'unknown', 'active', \
                        '[]', \(ownerB.id.rawValue),
                                now(), now())
                        """, logger: logger)
                }
            }
        }
    }

    // MARK: - Search

    @Test("search finds prefixes of patient and owner names, folding case and accents", arguments: Adapter.available)
    func searchNames(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            try await Self.seed(store, scope)
            #expect(try await Self.names(store, scope, "bis") == ["Biscuit"])
            #expect(try await Self.names(store, scope, "BISCUIT") == ["Biscuit"])
            #expect(try await Self.names(store, scope, "zoe") == ["Zoë"])
            #expect(try await Self.names(store, scope, "ZO") == ["Zoë"])
            #expect(try await Self.names(store, scope, "zoë") == ["Zoë"])
            #expect(try await Self.names(store, scope, "smi") == ["Biscuit", "Pepper"])
            #expect(try await Self.names(store, scope, "Smith") == ["Biscuit", "Pepper"])
            #expect(try await Self.names(store, scope, "müll") == ["Zoë"])
            #expect(try await Self.names(store, scope, "mull") == ["Zoë"])
            #expect(try await Self.names(store, scope, "jo smi") == ["Biscuit"])
            // The co-owner's name finds the patient too.
            #expect(try await Self.names(store, scope, "okafor") == ["Pepper"])
            #expect(try await Self.names(store, scope, "brien") == ["Duke"])
            #expect(try await Self.names(store, scope, "o'brien") == ["Duke"])
            #expect(try await Self.names(store, scope, "xavier").isEmpty)
            // A prefix matches the start of a word, not its middle.
            #expect(try await Self.names(store, scope, "cuit").isEmpty)
        }
    }

    @Test("search finds phone digits, record numbers and microchips", arguments: Adapter.available)
    func searchNumbers(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            try await Self.seed(store, scope)
            #expect(try await Self.names(store, scope, "07700900123") == ["Biscuit"])
            #expect(try await Self.names(store, scope, "0770090") == ["Biscuit"])
            #expect(try await Self.names(store, scope, "07700 900123") == ["Biscuit"])
            #expect(try await Self.names(store, scope, "900123") == ["Biscuit"])
            #expect(try await Self.names(store, scope, "+44 113") == ["Duke"])
            #expect(try await Self.names(store, scope, "44113496") == ["Duke"])
            // The co-owner's phone digits are searched too.
            #expect(try await Self.names(store, scope, "0161") == ["Pepper"])
            #expect(try await Self.names(store, scope, "P-000002") == ["Pepper"])
            #expect(try await Self.names(store, scope, "p000002") == ["Pepper"])
            #expect(try await Self.names(store, scope, "000003") == ["Zoë"])
            #expect(try await Self.names(store, scope, "985112000000042") == ["Duke"])
            #expect(try await Self.names(store, scope, "98511200000004") == ["Duke"])
            #expect(try await Self.names(store, scope, "985112").count == 2)
            // An owner's email address finds their patients, in any case.
            let byEmail = try await Self.names(store, scope, "J.Mueller@post.example")
            let byName = try await Self.names(store, scope, "Müller")
            #expect(!byEmail.isEmpty && byEmail == byName)
        }
    }

    @Test("operators and punctuation in the text are matched as literal words", arguments: Adapter.available)
    func searchLiteralText(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            try await Self.seed(store, scope)
            // "OR" is a word to match, not a disjunction: all three words must begin some word.
            #expect(try await Self.names(store, scope, "biscuit OR pepper").isEmpty)
            #expect(try await Self.names(store, scope, "\"b OR smi\"") == [])
            #expect(try await Self.names(store, scope, "liam O brien") == ["Duke"])
            #expect(try await Self.names(store, scope, "duke AND").isEmpty)
            for text in ["*", "'", "\"", "***", "&", "|", "!", ":*", "()", "🐶", "-", "'':*|"] {
                let page = try await store.records.searchPatients(
                    scope: scope, query: PatientQuery(text: text), limit: 10, after: nil)
                #expect(page.items.isEmpty && page.nextCursor == nil, "text \(text)")
            }
            for text in [
                "bis*", "-bis", "bis'", "'bis'", "(bis)", "bis:*", "bis & !zzz", "bis|zzz", "NEAR(bis)", "bis\\",
            ] {
                #expect(
                    try await Self.names(store, scope, text)
                        == (text.contains("zzz") || text.hasPrefix("NEAR") ? [] : ["Biscuit"]),
                    "text \(text)")
            }
            // Blank text lists everyone.
            #expect(try await Self.names(store, scope, "   ").count == 4)
        }
    }

    @Test("species and status filter the results", arguments: Adapter.available)
    func searchFilters(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            try await Self.seed(store, scope)
            #expect(try await Self.names(store, scope, nil, species: .cat) == ["Pepper", "Zoë"])
            #expect(try await Self.names(store, scope, "smi", species: .cat) == ["Pepper"])
            #expect(try await Self.names(store, scope, nil, status: .deceased) == ["Duke"])
            #expect(try await Self.names(store, scope, nil, species: .dog, status: .active) == ["Biscuit"])
            #expect(try await Self.names(store, scope, "duke", status: .active).isEmpty)
        }
    }

    @Test("pages follow one another by name then id, without duplicates or gaps", arguments: Adapter.available)
    func paging(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            let owner = try await store.records.createOwner(Owner(firstName: "Ada", lastName: "Lovelace"), scope: scope)
            var created: [Patient] = []
            // Repeated names, so the id decides the order within a name.
            for index in 0..<23 {
                let name = ["Milo", "Bella", "Max", "Ángel", "bella", "Zed"][index % 6]
                created.append(
                    try await store.records.createPatient(
                        Patient(name: name, species: index % 2 == 0 ? .dog : .cat, ownerID: owner.id),
                        scope: scope))
            }
            // Code point order, as stored: capitals before lower case, accented letters last.
            let expected = created.sorted {
                ($0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars))
                    || ($0.name == $1.name && $0.id.description < $1.id.description)
            }.map(\.id)
            for (text, limit) in [(nil, 4), ("lovelace", 5), (nil, 23), (nil, 1)] as [(String?, Int)] {
                var seen: [Identifier<Patient>] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let page = try await store.records.searchPatients(
                        scope: scope, query: PatientQuery(text: text), limit: limit, after: cursor)
                    #expect(page.items.count <= limit)
                    seen += page.items.map(\.patient.value.id)
                    #expect(page.items.allSatisfy { $0.ownerName == "Ada Lovelace" })
                    cursor = page.nextCursor
                    pages += 1
                } while cursor != nil && pages < 30
                #expect(seen == expected, "text \(text ?? "(all)") limit \(limit)")
            }
            let none = try await store.records.searchPatients(scope: scope, query: PatientQuery(), limit: 0, after: nil)
            #expect(none.items.isEmpty && none.nextCursor == nil)
            let negative = try await store.records.searchPatients(
                scope: scope, query: PatientQuery(), limit: -3, after: nil)
            #expect(negative.items.isEmpty)
            let all = try await store.records.searchPatients(
                scope: scope, query: PatientQuery(), limit: .max, after: nil)
            #expect(all.items.count == 23 && all.nextCursor == nil)
            await #expect(throws: ValidationError.unknownCursor) {
                try await store.records.searchPatients(
                    scope: scope, query: PatientQuery(), limit: 5, after: "not-an-id")
            }
        }
    }

    @Test("creates, reads and searches are audited in the practice's trail", arguments: Adapter.available)
    func audited(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let scope = AccessScope.system(try await Self.practice(store, "Riverside"))
            try await Self.seed(store, scope)
            let rex = try await store.records.searchPatients(
                scope: scope, query: PatientQuery(text: "bis"), limit: 5, after: nil)
            _ = try await store.records.patient(scope: scope, id: try #require(rex.items.first).patient.value.id)
            _ = try await store.records.searchPatients(
                scope: scope, query: PatientQuery(text: "***"), limit: 5, after: nil)
            let entries = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: nil, resourceID: nil
            ).items
            let actions = entries.map(\.action)
            #expect(actions.filter { $0 == "owner.create" }.count == 5)
            #expect(actions.filter { $0 == "patient.create" }.count == 4)
            try #require(entries.count >= 3)
            #expect(Array(actions.prefix(3)) == ["patient.search", "patient.read", "patient.search"])
            #expect(entries[0].detail == "results=0" && entries[2].detail == "results=1")
            // The query text is never logged: it may hold a name.
            #expect(!entries.contains { ($0.detail ?? "").localizedCaseInsensitiveContains("bis") })
            #expect(try await store.audit.verifyAuditChain().isIntact)
            // Creations reach the event log with the change.
            #expect(try await store.events.eventHead(practiceID: scope.practiceID) >= 9)
        }
    }

    @Test(
        "both stores answer the same searches with the same pages",
        .enabled(
            if: Adapter.available.contains(.postgres),
            "PostgreSQL is not available here (VETNET_TEST_DATABASE_URL unset)"))
    func storesAgree() async throws {
        var answers: [Adapter: [[String]]] = [:]
        for adapter in Adapter.available {
            try await withStore(adapter) { store in
                let scope = AccessScope.system(
                    try await Self.practice(
                        store, "Riverside", id: PracticeID(UUID(uuidString: "5a1e0000-0000-4000-8000-000000000001")!)))
                try await Self.seed(store, scope, fixedIDs: true)
                var pages: [[String]] = []
                for text in Self.agreementQueries {
                    var cursor: String?
                    repeat {
                        let page = try await store.records.searchPatients(
                            scope: scope, query: PatientQuery(text: text), limit: 2, after: cursor)
                        pages.append(
                            page.items.map {
                                "\($0.patient.value.name)|\($0.ownerName)|\($0.patient.value.medicalRecordNumber ?? "")"
                            }
                                + [page.nextCursor ?? "-"])
                        cursor = page.nextCursor
                    } while cursor != nil
                }
                answers[adapter] = pages
            }
        }
        #expect(answers[.sqlite] == answers[.postgres])
    }

    static let agreementQueries: [String?] = [
        nil, "", "b", "bi", "SMI", "zoe", "Zoë", "ZO", "müller", "o'brien", "OR", "a OR b", "*", "'", "\"smi", "0770",
        "+44", "P-0000",
        "000004", "9851", "jo smi", "pep oka", "dog", "x", "🐶 smi",
    ]

    // MARK: - Fixtures

    /// Creates a practice (owners and patients reference it).
    static func practice(_ store: StoreUnderTest, _ name: String, id: PracticeID = PracticeID()) async throws
        -> PracticeID
    {
        let profile = PracticeProfile(id: id, name: name, timeZone: "Europe/London", openingHours: [])
        _ = try await store.accounts.createPractice(
            profile,
            administrator: FirstAdministrator(
                email: "admin@\(name.lowercased()).example.com", displayName: "Admin", passwordHash: "h"),
            requestID: nil)
        return id
    }

    /// Four patients: Biscuit (dog, Jo Smith), Pepper (cat, Sam Smith with co-owner Ngozi Okafor),
    /// Zoë (cat, Jürgen Müller), Duke (dog, deceased, Liam O'Brien).
    static func seed(_ store: StoreUnderTest, _ scope: AccessScope, fixedIDs: Bool = false) async throws {
        var serial = 0
        func id<T>() -> Identifier<T> {
            serial += 1
            return fixedIDs
                ? Identifier(UUID(uuidString: "00000000-0000-4000-8000-\(String(format: "%012ld", serial))")!)
                : Identifier()
        }
        let jo = Owner(
            id: id(), firstName: "Jo", lastName: "Smith", phones: [PhoneNumber(label: "mobile", number: "07700 900123")]
        )
        let sam = Owner(id: id(), firstName: "Sam", lastName: "Smith")
        let ngozi = Owner(
            id: id(), firstName: "Ngozi", lastName: "Okafor",
            phones: [PhoneNumber(label: "home", number: "0161 496 0000")])
        let jurgen = Owner(id: id(), firstName: "Jürgen", lastName: "Müller", email: "j.mueller@post.example")
        let liam = Owner(
            id: id(), firstName: "Liam", lastName: "O'Brien",
            phones: [PhoneNumber(label: "work", number: "+44 113 496 0999")])
        for owner in [jo, sam, ngozi, jurgen, liam] { try await store.records.createOwner(owner, scope: scope) }
        let patients = [
            Patient(id: id(), name: "Biscuit", species: .dog, microchip: "985112000000007", ownerID: jo.id),
            Patient(id: id(), name: "Pepper", species: .cat, ownerID: sam.id, coOwnerID: ngozi.id),
            Patient(id: id(), name: "Zoë", species: .cat, ownerID: jurgen.id),
            Patient(
                id: id(), name: "Duke", species: .dog, microchip: "985112000000042", status: .deceased, ownerID: liam.id
            ),
        ]
        for patient in patients { try await store.records.createPatient(patient, scope: scope) }
    }

    /// The names of the first page (up to 50) of a search.
    static func names(
        _ store: StoreUnderTest, _ scope: AccessScope, _ text: String?, species: Species? = nil,
        status: Patient.Status? = nil
    ) async throws -> [String] {
        try await store.records.searchPatients(
            scope: scope, query: PatientQuery(text: text, species: species, status: status), limit: 50, after: nil
        )
        .items.map(\.patient.value.name)
    }
}
