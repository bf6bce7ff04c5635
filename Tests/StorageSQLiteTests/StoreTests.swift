import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite
import StorageSupport
import Testing

@Suite("SQLite store")
struct StoreTests {
    @Test("a file store runs in WAL mode with synchronous=FULL and a private audit key")
    func durability() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-store-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try AuditKey.load(configured: nil, dataDirectory: directory)
        let store = try VetNetStore.open(
            directory: directory, auditKey: key, cipher: try RecordCipher(keyBytes: Array(repeating: 3, count: 32)))
        #expect(try store.synchronousLevel() == 2)
        let mode = try await store.writer.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("audit.key").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        // The same key is read back on the next start.
        let again = try AuditKey.load(configured: nil, dataDirectory: directory)
        try await store.createPractice(PracticeProfile(id: PracticeID(), name: "P", timeZone: "UTC", openingHours: []))
        try store.close()
        let reopened = try VetNetStore.open(
            directory: directory, auditKey: again, cipher: try RecordCipher(keyBytes: Array(repeating: 3, count: 32)))
        #expect(try await reopened.verifyAuditChain().isIntact)
        try reopened.close()
    }

    @Test("a stored word the domain does not know is refused naming its column, never read as a default")
    func unknownStoredWords() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let rex = try await fixture.store.createPatient(
            Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
        #expect(try await fixture.store.patient(scope: scope, id: rex.id).value.species == .dog)
        // A file edited outside VetNet (its CHECK constraints ignored): the species is no
        // longer one of the domain's words.
        try await fixture.store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE patient SET species = 'dragon' WHERE id = ?", arguments: [rex.id.description])
            try db.execute(
                sql: "UPDATE staff_user SET role = 'owner' WHERE id = ?", arguments: [fixture.adminB.id.description])
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        await expectCorruption("patient.species", "a patient of an unknown species was read") {
            try await fixture.store.patient(scope: scope, id: rex.id)
        }
        await expectCorruption("staff_user.role", "an account of an unknown role was read") {
            try await fixture.store.user(scope: fixture.scope(fixture.adminB), id: fixture.adminB.id)
        }
    }

    @Test("a value of another kind where a number or a word belongs is refused naming its column, never stops VetNet")
    func valuesOfAnotherKind() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let rex = try await fixture.store.createPatient(
            Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
        let tom = try await fixture.store.createPatient(
            Patient(name: "Tom", species: .cat, ownerID: owner.id), scope: scope)
        let kit = try await fixture.store.createPatient(
            Patient(name: "Kit", species: .cat, ownerID: owner.id), scope: scope)
        // A file edited outside VetNet: its tables do not enforce types, so a version can be a
        // word, a name a blob of bytes and a birth date any text at all.
        try await fixture.store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "UPDATE patient SET version = 'two' WHERE id = ?", arguments: [rex.id.description])
            try db.execute(sql: "UPDATE patient SET name = x'FF00' WHERE id = ?", arguments: [tom.id.description])
            try db.execute(
                sql: "UPDATE patient SET birth_date = 'last spring' WHERE id = ?", arguments: [kit.id.description])
        }
        await expectCorruption("patient.version", "a patient whose version is a word was read") {
            try await fixture.store.patient(scope: scope, id: rex.id)
        }
        await expectCorruption("patient.name", "a patient whose name is not text was read") {
            try await fixture.store.patient(scope: scope, id: tom.id)
        }
        // Not read as a patient of unknown age.
        await expectCorruption("patient.birth_date", "a patient whose birth date is no day was read") {
            try await fixture.store.patient(scope: scope, id: kit.id)
        }
        // The rest of the practice is still served.
        let other = try await fixture.store.createPatient(
            Patient(name: "Pip", species: .cat, ownerID: owner.id), scope: scope)
        #expect(try await fixture.store.patient(scope: scope, id: other.id).value.name == "Pip")
    }

    @Test("a JSON column or a time that does not read back is refused naming it, never read as empty or a default")
    func unreadableJSONColumns() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let rex = try await fixture.store.createPatient(
            Patient(name: "Rex", species: .dog, alerts: ["Bites"], ownerID: owner.id), scope: scope)
        #expect(try await fixture.store.patient(scope: scope, id: rex.id).value.alerts == ["Bites"])
        // A file edited outside VetNet: the alert list is no longer JSON, the roles that must use
        // a second factor name one the domain does not know, and an account's time is not a time.
        try await fixture.store.writer.writeWithoutTransaction { db in
            try db.execute(
                sql: "UPDATE staff_user SET created_at = 'yesterday' WHERE id = ?",
                arguments: [fixture.adminA.id.description])
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE patient SET alerts = 'Bites' WHERE id = ?", arguments: [rex.id.description])
            try db.execute(
                sql: #"UPDATE practice SET second_factor_roles = '["administrator","wizard"]' WHERE id = ?"#,
                arguments: [fixture.b.id.description])
            try db.execute(sql: "PRAGMA ignore_check_constraints = OFF")
        }
        await expectCorruption("patient.alerts", "a patient whose alerts do not read was shown with none") {
            try await fixture.store.patient(scope: scope, id: rex.id)
        }
        await expectCorruption(
            "staff_user.created_at", "an account whose creation time does not read was shown as made in the year 1"
        ) { try await fixture.store.user(scope: scope, id: fixture.adminA.id) }
        await expectCorruption("practice.second_factor_roles", "a practice naming an unknown role was read") {
            try await fixture.store.practice(id: fixture.b.id)
        }
    }

    @Test("another practice's user is not found, and lists never mix practices")
    func tenancy() async throws {
        let fixture = try await TwoPractices.make()
        await #expect(throws: DomainError.notFound(resource: "user")) {
            _ = try await fixture.store.user(scope: fixture.scope(fixture.adminA), id: fixture.adminB.id)
        }
        await #expect(throws: DomainError.notFound(resource: "user")) {
            _ = try await fixture.store.updateUser(
                scope: fixture.scope(fixture.adminA), id: fixture.adminB.id, expectedVersion: nil,
                role: .receptionist, disabled: nil)
        }
        let page = try await fixture.store.users(scope: fixture.scope(fixture.adminA), limit: 50, after: nil)
        #expect(page.items.map(\.email) == ["admin@alpha.example"])
        let audit = try await fixture.store.auditEntries(scope: fixture.scope(fixture.adminA), limit: 50, before: nil)
        #expect(audit.items.allSatisfy { $0.practiceID == fixture.a.id.description })
    }

    @Test("user lists page by cursor without repeats")
    func pagination() async throws {
        let fixture = try await TwoPractices.make()
        for index in 0..<7 {
            _ = try await fixture.store.createUser(
                scope: fixture.scope(fixture.adminA), email: "p\(index)@alpha.example",
                displayName: "Person \(index)", role: .technician, passwordHash: "x")
        }
        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try await fixture.store.users(scope: fixture.scope(fixture.adminA), limit: 3, after: cursor)
            seen += page.items.map(\.email)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(seen.count == 8)
        #expect(Set(seen).count == 8)
    }

    @Test("stale versions are refused and nothing changes")
    func optimisticConcurrency() async throws {
        let fixture = try await TwoPractices.make()
        let scope = fixture.scope(fixture.adminA)
        let tech = try await fixture.store.createUser(
            scope: scope, email: "t@alpha.example", displayName: "T", role: .technician, passwordHash: "x")
        let updated = try await fixture.store.updateUser(
            scope: scope, id: tech.id, expectedVersion: 1, role: .veterinarian, disabled: nil)
        #expect(updated.version == 2)
        await #expect(throws: DomainError.versionMismatch(current: 2)) {
            _ = try await fixture.store.updateUser(
                scope: scope, id: tech.id, expectedVersion: 1, role: .receptionist, disabled: nil)
        }
        #expect(try await fixture.store.user(scope: scope, id: tech.id).role == .veterinarian)
    }

    @Test("sessions end after 30 idle minutes, after 12 hours in any case, on logout and when the account is disabled")
    func sessionLifetimes() async throws {
        let fixture = try await TwoPractices.make()
        let policy = SessionPolicy()
        let store = fixture.store
        let tech = try await store.createUser(
            scope: fixture.scope(fixture.adminA), email: "s@alpha.example", displayName: "S",
            role: .technician, passwordHash: "x")
        _ = try await store.createSession(tokenHash: "idle", account: tech, policy: policy, requestID: nil)
        fixture.clock.advance(29 * 60)
        #expect(try await store.activeSession(tokenHash: "idle", policy: policy) != nil)
        fixture.clock.advance(29 * 60) // used 29 minutes ago: still alive
        #expect(try await store.activeSession(tokenHash: "idle", policy: policy) != nil)
        fixture.clock.advance(31 * 60)
        #expect(try await store.activeSession(tokenHash: "idle", policy: policy) == nil)

        _ = try await store.createSession(tokenHash: "busy", account: tech, policy: policy, requestID: nil)
        for _ in 0..<(12 * 3) { // used every 20 minutes for 12 hours
            #expect(try await store.activeSession(tokenHash: "busy", policy: policy) != nil)
            fixture.clock.advance(20 * 60)
        }
        #expect(try await store.activeSession(tokenHash: "busy", policy: policy) == nil)

        _ = try await store.createSession(tokenHash: "out", account: tech, policy: policy, requestID: nil)
        try await store.revokeSession(tokenHash: "out", scope: fixture.scope(tech))
        #expect(try await store.activeSession(tokenHash: "out", policy: policy) == nil)

        _ = try await store.createSession(tokenHash: "gone", account: tech, policy: policy, requestID: nil)
        _ = try await store.updateUser(
            scope: fixture.scope(fixture.adminA), id: tech.id, expectedVersion: nil, role: nil, disabled: true)
        #expect(try await store.activeSession(tokenHash: "gone", policy: policy) == nil)
    }

    @Test("medical record numbers are sequential per practice and owners of another practice are refused")
    func medicalRecordNumbers() async throws {
        let fixture = try await TwoPractices.make()
        let scopeA = fixture.scope(fixture.adminA)
        let scopeB = fixture.scope(fixture.adminB)
        let ownerA = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scopeA)
        let ownerB = try await fixture.store.createOwner(Owner(firstName: "Al", lastName: "Other"), scope: scopeB)
        let first = try await fixture.store.createPatient(
            Patient(name: "Rex", species: .dog, ownerID: ownerA.id), scope: scopeA)
        let second = try await fixture.store.createPatient(
            Patient(name: "Tom", species: .cat, ownerID: ownerA.id), scope: scopeA)
        let otherPractice = try await fixture.store.createPatient(
            Patient(name: "Kit", species: .cat, ownerID: ownerB.id), scope: scopeB)
        #expect(first.medicalRecordNumber == "P-000001")
        #expect(second.medicalRecordNumber == "P-000002")
        #expect(otherPractice.medicalRecordNumber == "P-000001")
        // Another practice's owner is not found, exactly like one that does not exist.
        await #expect(throws: DomainError.notFound(resource: "owner")) {
            _ = try await fixture.store.createPatient(
                Patient(name: "Sneaky", species: .dog, ownerID: ownerB.id), scope: scopeA)
        }
    }
}

/// Expects `read` to fail with a ``StoreCorruption`` naming `column`; `instead` says what a
/// user would have been shown had it succeeded.
private func expectCorruption(
    _ column: String, _ instead: Comment, sourceLocation: SourceLocation = #_sourceLocation,
    _ read: () async throws -> some Any
) async {
    do {
        _ = try await read()
        Issue.record(instead, sourceLocation: sourceLocation)
    } catch let corruption as StoreCorruption {
        #expect(corruption.column == column, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a StoreCorruption naming \(column), got \(error)", sourceLocation: sourceLocation)
    }
}
