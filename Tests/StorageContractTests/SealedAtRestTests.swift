import Foundation
import GRDB
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import StorageSQLite
import Testing
import Triage

/// What a stolen disk gives away: every medical-record field and every owner's contact detail
/// is written through the ports with a value found nowhere else, and the store's files are then
/// read byte by byte. None of those values may be there, while an owner's name (kept in clear
/// for lists and sorting) must be — proof that the right files were read. The record reads back
/// whole and reception still finds the client by phone number and email address.
@Suite("Sealed at rest: the store's files hold no medical-record text or contact detail")
struct SealedAtRestTests {
    /// The values written into sealed fields, by field, and the clear value that must be found.
    struct Canaries {
        let tag =
            String(UUID().uuidString.filter(\.isLetter).lowercased().prefix(6))
            + String(Int.random(in: 100_000...999_999))
        /// Ten digits no other test writes.
        let phoneDigits = "7" + String(Int.random(in: 100_000_000...999_999_999))

        func value(_ field: String) -> String { "canary\(field)\(tag)" }
        var control: String { "Clearname\(tag)" }
        /// Every value of a sealed field, by what it is.
        var sealed: [String: String] {
            var values: [String: String] = [:]
            for field in [
                "email", "street", "notes", "problem", "substance", "reaction", "drug", "frequency", "vaccine",
                "batch", "complaint", "diagnosis", "plan", "casecomplaint", "override", "correction",
            ] {
                values[field] = value(field)
            }
            values["phone"] = phoneDigits
            return values
        }
    }

    /// Writes a value into every sealed field of `store`'s first practice, checks it reads back,
    /// and checks the search still finds the owner by phone and email. Returns the practice.
    @discardableResult
    static func writeEverySealedField(_ store: StoreUnderTest, _ canaries: Canaries) async throws -> PracticeID {
        let fixture = try await SchedulingFixture.make(store, name: "Canary")
        let scope = fixture.scope
        let records = store.medicalRecords
        let owner = try await store.records.createOwner(
            Owner(
                firstName: "Jo", lastName: canaries.control, email: "\(canaries.value("email"))@example.com",
                phones: [PhoneNumber(label: "mobile", number: canaries.phoneDigits)],
                address: PostalAddress(
                    line1: "1 \(canaries.value("street"))", city: "Leeds", postcode: "LS1 1AA", country: "GB"),
                notes: canaries.value("notes")), scope: scope)
        let (patient, _) = try await store.records.createPatient(
            Patient(name: "Pip", species: .cat, birthDate: store.day(-900), ownerID: owner.id), scope: scope,
            idempotencyKey: nil)
        let patientID = patient.value.id
        let problem = Problem(patientID: patientID, name: canaries.value("problem"), onsetDate: store.day(-3))
        let entries: [RecordEntry] = [
            .problem(problem),
            .allergy(
                Allergy(
                    patientID: patientID, substance: canaries.value("substance"), reaction: canaries.value("reaction"),
                    severity: .moderate)),
            .medication(
                Medication(
                    patientID: patientID, drug: canaries.value("drug"), concentrationMgPerML: 5, doseMgPerKg: 1,
                    route: .oral, frequency: canaries.value("frequency"), startDate: store.day(-1))),
            .vaccination(
                Vaccination(
                    patientID: patientID, vaccine: canaries.value("vaccine"), administeredDate: store.day(-2),
                    batchNumber: canaries.value("batch"), nextDueDate: store.day(300))),
        ]
        for entry in entries { try await records.addRecordEntry(entry, patientID: patientID, scope: scope) }
        _ = try await records.correctRecordEntry(
            .enteredInError(reason: canaries.value("correction")), entryKind: .problem, entryID: problem.id.rawValue,
            patientID: patientID, scope: scope, idempotencyKey: nil)

        // A visit to the fixture's patient, at an appointment they came to.
        let visitPatient = Identifier<Patient>(fixture.patient)
        let appointment = try await MedicalRecordContractTests.arrivedAppointment(fixture, at: fixture.morning).value
        let visit = Visit(
            patientID: visitPatient, appointmentID: appointment.id.rawValue, occurredAt: store.clock.clock.now(),
            chiefComplaint: canaries.value("complaint"),
            diagnoses: [Diagnosis(name: canaries.value("diagnosis"))],
            treatmentPlan: TreatmentPlan(approaches: [.medical], summary: canaries.value("plan")),
            recordedBy: MedicalRecordContractTests.author)
        _ = try await records.addVisit(visit, otherErrors: [], scope: scope, idempotencyKey: nil)

        // A triage assessment whose case names a complaint, and a vet's override with a reason.
        let engine = TriageEngine(clock: store.clock.clock)
        let now = store.clock.clock.now()
        let red = engine.evaluate(TriageCase(species: .cat, findings: [.seizingNow]), arrival: now)
        let (assessed, _) = try await store.triage.recordAssessment(
            scope: scope, patientID: patientID.rawValue,
            caseJSON: Data(#"{"complaint":"\#(canaries.value("casecomplaint"))"}"#.utf8), result: red, arrival: now)
        let vet = AccessScope(practiceID: scope.practiceID, actorID: UserID(), role: .veterinarian, requestID: nil)
        _ = try await store.triage.overrideAssessment(
            scope: vet, assessmentID: assessed.id,
            request: OverrideRequest(level: .orange, reason: canaries.value("override"), confirmLoweringRed: true))

        // Everything opens again for the people allowed to read it.
        let record = try await records.medicalRecord(scope: scope, patientID: patientID).0
        #expect(record.allergies.first?.reaction == canaries.value("reaction"))
        #expect(record.medications.first?.drug == canaries.value("drug"))
        #expect(record.vaccinations.first?.batchNumber == canaries.value("batch"))
        #expect(record.problems.isEmpty, "the problem was corrected as entered in error")
        let visits = try await records.visits(scope: scope, patientID: visitPatient)
        #expect(visits.first?.visit.chiefComplaint == canaries.value("complaint"))
        #expect(try await store.records.owner(scope: scope, id: owner.id).value == owner)
        let board = try await store.triage.activeQueue(scope: scope)
        #expect(
            board.first { $0.entry.patientID == patientID.rawValue }?.entry.override?.reason
                == canaries.value("override"))

        // Reception finds the client by the start of a number or an address, not by a word of a sealed field.
        func found(_ text: String) async throws -> [Identifier<Patient>] {
            try await store.records.searchPatients(scope: scope, query: PatientQuery(text: text), limit: 10, after: nil)
                .items.map(\.patient.value.id)
        }
        #expect(try await found(String(canaries.phoneDigits.prefix(6))) == [patientID])
        #expect(try await found("\(canaries.value("email"))@exam") == [patientID])
        #expect(try await found(canaries.control) == [patientID])
        #expect(try await found(canaries.value("notes")).isEmpty)
        return scope.practiceID
    }

    /// The sealed values found in the regular files under `directory` (and, as proof the scan
    /// reads what the store writes, whether the clear control value is there).
    static func scan(_ directory: URL, for canaries: Canaries) throws -> (leaked: [String], controlFound: Bool) {
        var files: [URL] = []
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true { files.append(url) }
        }
        return scan(files, for: canaries)
    }

    /// The sealed values found in `files`, and whether the control value is there. A file gone
    /// meanwhile is skipped. The files run to hundreds of megabytes, so each is searched for the
    /// tag every value but the phone number carries, and for the number, before value by value.
    static func scan(_ files: [URL], for canaries: Canaries) -> (leaked: [String], controlFound: Bool) {
        var leaked = Set<String>()
        var controlFound = false
        for url in files {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            data.withUnsafeBytes { bytes in
                guard holds(bytes, canaries.tag) || holds(bytes, canaries.phoneDigits) else { return }
                if holds(bytes, canaries.control) { controlFound = true }
                for (field, value) in canaries.sealed where holds(bytes, value) { leaked.insert(field) }
            }
        }
        return (leaked.sorted(), controlFound)
    }

    /// Whether `bytes` holds `text`'s UTF-8: `memchr` to each candidate first byte, `memcmp` there.
    static func holds(_ bytes: UnsafeRawBufferPointer, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard let base = bytes.baseAddress, let first = needle.first, needle.count <= bytes.count else {
            return needle.isEmpty
        }
        let last = bytes.count - needle.count
        var offset = 0
        while offset <= last {
            guard let hit = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
            let at = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + at, needle, needle.count) == 0 { return true }
            offset = at + 1
        }
        return false
    }

    /// What one test's PostgreSQL database has written to disk: its own directory under `base`,
    /// and the write-ahead log from the segment current when it was marked on. Other tests'
    /// databases share the server (together over a gigabyte) and hold none of this test's values.
    struct PostgresFootprint {
        let database: URL
        let wal: URL
        let firstSegment: String

        /// Marks where `store`'s database and the write-ahead log stand now.
        static func mark(_ store: StoreUnderTest) async throws -> PostgresFootprint {
            let owner = try #require(store.postgres?.owner)
            let (oid, segment) = try await asInstallation(owner) { connection in
                let rows = try await connection.query(
                    """
                    SELECT oid::text, pg_walfile_name(pg_current_wal_lsn()) FROM pg_database \
                    WHERE datname = current_database()
                    """, logger: Logger(label: "vetnet.contract.sql"))
                for try await row in rows.decode((String, String).self) { return row }
                throw PostgresFailure(detail: "the test database is not in pg_database")
            }
            let data = try postgresDataDirectory()
            return PostgresFootprint(
                database: data.appendingPathComponent("base").appendingPathComponent(oid),
                wal: data.appendingPathComponent("pg_wal"), firstSegment: segment)
        }

        /// The files to read: the database's, and each log segment from the marked one on.
        func files() throws -> [URL] {
            let database = try FileManager.default.contentsOfDirectory(at: database, includingPropertiesForKeys: nil)
            let segments = try FileManager.default.contentsOfDirectory(at: wal, includingPropertiesForKeys: nil)
                .filter { $0.lastPathComponent.count == 24 && $0.lastPathComponent >= firstSegment }
            return database + segments
        }

        /// These files scanned on a thread of their own: the read is long, and would hold one of
        /// the few threads the other tests run on.
        func scan(for canaries: Canaries) async throws -> (leaked: [String], controlFound: Bool) {
            let files = try files()
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: SealedAtRestTests.scan(files, for: canaries))
                }
            }
        }
    }

    @Test("the embedded store's database files hold none of the sealed values")
    func embeddedStoreFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-canary-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        let store = try VetNetStore.open(
            directory: directory, auditKey: testAuditKey, cipher: testCipher, clock: clock.clock)
        let canaries = Canaries()
        try await Self.writeEverySealedField(StoreUnderTest.embedded(store, clock: clock), canaries)
        let (leaked, controlFound) = try Self.scan(directory, for: canaries)
        #expect(controlFound, "the owner's name, kept in clear, is in the files read")
        #expect(leaked.isEmpty, "found in the database files: \(leaked)")
        try store.close()
        // Closed (the write-ahead log folded into the database file), still nothing.
        let (closedLeaks, _) = try Self.scan(directory, for: canaries)
        #expect(closedLeaks.isEmpty, "found in the closed database: \(closedLeaks)")
    }

    /// The test server's data directory (`scripts/postgres-test-server` names it).
    static func postgresDataDirectory() throws -> URL {
        try #require(
            ProcessInfo.processInfo.environment["VETNET_PG_DIR"].map {
                URL(fileURLWithPath: $0).appendingPathComponent("data")
            }, "VETNET_PG_DIR names the test server's directory (scripts/postgres-test-server)")
    }

    @Test(
        "PostgreSQL's data directory holds none of the sealed values",
        .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
    func postgresFiles() async throws {
        let canaries = Canaries()
        try await withStore(.postgres) { store in
            let footprint = try await PostgresFootprint.mark(store)
            try await Self.writeEverySealedField(store, canaries)
            // Committed rows are in the write-ahead log files from the commit on.
            let (leaked, controlFound) = try await footprint.scan(for: canaries)
            #expect(controlFound, "the owner's name, kept in clear, is in the files read")
            #expect(leaked.isEmpty, "found in PostgreSQL's files: \(leaked)")
        }
    }

    @Test(
        "a practice moved to PostgreSQL and back stays sealed in each store's files",
        .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
    func movedPracticeStaysSealed() async throws {
        let canaries = Canaries()
        let directories = (0..<2).map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-canary-\(UUID())")
        }
        defer { for directory in directories { try? FileManager.default.removeItem(at: directory) } }
        let clock = TestClock()
        let origin = try VetNetStore.open(
            directory: directories[0], auditKey: testAuditKey, cipher: testCipher, clock: clock.clock)
        let originStore = StoreUnderTest.embedded(origin, clock: clock)
        let practiceID = try await Self.writeEverySealedField(originStore, canaries)
        let exported = try PracticeExport.decode(
            try await originStore.transfer.exportPractice(scope: .system(practiceID), documentContent: true).jsonData())
        try origin.close()
        try await withStore(.postgres) { postgres in
            let footprint = try await PostgresFootprint.mark(postgres)
            _ = try await postgres.transfer.restorePractice(exported, requestID: "move", progress: nil)
            let (leaked, controlFound) = try await footprint.scan(for: canaries)
            #expect(controlFound && leaked.isEmpty, "found in PostgreSQL's files after the move: \(leaked)")
            let back = try PracticeExport.decode(
                try await postgres.transfer.exportPractice(scope: .system(practiceID), documentContent: true)
                    .jsonData())
            let returned = try VetNetStore.open(
                directory: directories[1], auditKey: testAuditKey, cipher: testCipher, clock: clock.clock)
            _ = try await StoreUnderTest.embedded(returned, clock: clock).transfer.restorePractice(
                back, requestID: "move-back", progress: nil)
            try returned.close()
            let (leakedBack, controlBack) = try Self.scan(directories[1], for: canaries)
            #expect(
                controlBack && leakedBack.isEmpty, "found in the embedded store's files after the move: \(leakedBack)")
        }
    }

    /// Values as a version before sealing wrote them: plain text in the sealed columns.
    struct LegacyValues {
        let tag = String(Int.random(in: 100_000_000...999_999_999))
        var problem: String { "legacyproblem\(tag)" }
        var drug: String { "legacydrug\(tag)" }
        var reason: String { "legacyreason\(tag)" }
        var email: String { "legacy\(tag)@example.com" }
        var phone: String { "6\(tag)" }
        var phonesJSON: String { #"[{"label":"home","number":"\#(phone)"}]"# }
        var all: [String] { [problem, drug, reason, email, phone] }
    }

    /// Checks what a store that sealed legacy values reads back and finds.
    static func expectLegacyValuesSealed(
        _ store: StoreUnderTest, _ practiceID: PracticeID, _ legacy: LegacyValues
    ) async throws {
        let scope = AccessScope.system(practiceID)
        let pip = try #require(
            try await store.records.searchPatients(scope: scope, query: PatientQuery(text: "Pip"), limit: 5, after: nil)
                .items.first?.patient.value)
        let owner = try await store.records.owner(scope: scope, id: pip.ownerID).value
        #expect(owner.email == legacy.email && owner.phones.map(\.number) == [legacy.phone])
        let found = try await store.records.searchPatients(
            scope: scope, query: PatientQuery(text: String(legacy.phone.prefix(7))), limit: 5, after: nil)
        #expect(found.items.map(\.patient.value.id) == [pip.id], "the sealed number is found by its first digits")
        let record = try await store.medicalRecords.medicalRecord(scope: scope, patientID: pip.id).0
        #expect(record.medications.map(\.drug) == [legacy.drug])
    }

    @Test("values the embedded store kept in plain text before are sealed when it opens, and leave its files")
    func embeddedLegacyValuesSealed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-canary-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = TestClock()
        var store = try VetNetStore.open(
            directory: directory, auditKey: testAuditKey, cipher: testCipher, clock: clock.clock)
        let practiceID = try await Self.writeEverySealedField(StoreUnderTest.embedded(store, clock: clock), Canaries())
        try store.close()
        // As an earlier version left them.
        let legacy = LegacyValues()
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("vetnet.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE problem SET name = ?", arguments: [legacy.problem])
            try db.execute(sql: "UPDATE medication SET drug = ?", arguments: [legacy.drug])
            try db.execute(sql: "UPDATE triage_override SET reason = ?", arguments: [legacy.reason])
            try db.execute(
                sql: "UPDATE owner SET email = ?, phones = ?, contact_tokens = '' WHERE last_name LIKE 'Clearname%'",
                arguments: [legacy.email, legacy.phonesJSON])
        }
        try queue.close()
        store = try VetNetStore.open(
            directory: directory, auditKey: testAuditKey, cipher: testCipher, clock: clock.clock)
        #expect(try store.sealLegacyValues() == 0, "the opening sealed everything")
        try await Self.expectLegacyValuesSealed(StoreUnderTest.embedded(store, clock: clock), practiceID, legacy)
        try store.close()
        var leaked: [String] = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            leaked += legacy.all.filter { data.range(of: Data($0.utf8)) != nil }.map {
                "\(url.lastPathComponent): \($0)"
            }
        }
        #expect(leaked.isEmpty, "plain text left in the files: \(leaked)")
    }

    @Test(
        "values kept in plain text on PostgreSQL before are sealed by the sealing pass, once",
        .enabled(if: PostgresTestServer.url != nil, "VETNET_TEST_DATABASE_URL names no PostgreSQL server"))
    func postgresLegacyValuesSealed() async throws {
        try await withStore(.postgres) { store in
            let practiceID = try await Self.writeEverySealedField(store, Canaries())
            let (postgres, _, owner) = try #require(store.postgres)
            let legacy = LegacyValues()
            try await asInstallation(owner) { connection in
                let logger = Logger(label: "vetnet.contract.sql")
                try await connection.query("UPDATE problem SET name = \(legacy.problem)", logger: logger)
                try await connection.query("UPDATE medication SET drug = \(legacy.drug)", logger: logger)
                try await connection.query("UPDATE triage_override SET reason = \(legacy.reason)", logger: logger)
                try await connection.query(
                    """
                    UPDATE owner SET email = \(legacy.email), phones = \(legacy.phonesJSON) WHERE last_name LIKE \
                    'Clearname%'
                    """,
                    logger: logger)
            }
            // The schema's owner runs the pass (`vetnet migrate`); a runtime role sees no practice to seal.
            #expect(try await postgres.sealLegacyValues() == (postgres === owner ? 4 : 0))
            #expect(try await owner.sealLegacyValues() == (postgres === owner ? 0 : 4))
            #expect(try await owner.sealLegacyValues() == 0)
            let plain = try await countRows(
                owner,
                """
                SELECT (SELECT count(*) FROM problem WHERE name NOT LIKE 'sealed:v1:%')
                     + (SELECT count(*) FROM medication WHERE drug NOT LIKE 'sealed:v1:%')
                     + (SELECT count(*) FROM triage_override WHERE reason NOT LIKE 'sealed:v1:%')
                     + (SELECT count(*) FROM owner WHERE phones NOT LIKE 'sealed:v1:%')
                """)
            #expect(plain == 0)
            try await Self.expectLegacyValuesSealed(store, practiceID, legacy)
        }
    }
}

extension StoreUnderTest {
    /// A file-backed embedded store under the contract tests' ports.
    static func embedded(_ store: VetNetStore, clock: TestClock) -> StoreUnderTest {
        StoreUnderTest(
            adapter: .sqlite, accounts: store, audit: store, events: store, signInAttempts: store, records: store,
            scheduling: store, practiceSettings: store, staff: store, analytics: store, maintenance: store,
            population: store, secondFactors: store, sharedDevices: store, passkeys: store, clock: clock,
            postgres: nil, sqlite: store)
    }
}
