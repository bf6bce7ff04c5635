import Foundation
import SharedKernel
import StoragePorts
import Testing

/// What sign-in and sessions rely on, held to every adapter alike.
@Suite("Account and session contract (every store adapter)")
struct AccountContractTests {
    static func practice(_ name: String) -> PracticeProfile {
        PracticeProfile(id: PracticeID(), name: name, timeZone: "Europe/London", openingHours: [])
    }

    static let hash = String(repeating: "ab", count: 32)

    @Test(
        "a practice and its first administrator are created together; the address finds the account",
        arguments: Adapter.available)
    func createPracticeAndCredentials(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (profile, admin) = try await store.accounts.createPractice(
                Self.practice("Riverside"),
                administrator: FirstAdministrator(email: "Ada@Example.com", displayName: "Ada", passwordHash: "h1"),
                requestID: "r1")
            #expect(admin.email == "ada@example.com" && admin.role == .administrator && admin.practiceID == profile.id)
            #expect(try await store.accounts.practice(id: profile.id)?.name == "Riverside")
            #expect(try await store.accounts.practice(id: PracticeID()) == nil)
            let found = try await store.accounts.credentials(email: "ADA@example.com")
            #expect(found.map(\.account.id) == [admin.id] && found.first?.passwordHash == "h1")
            #expect(try await store.accounts.credentials(email: "nobody@example.com").isEmpty)
        }
    }

    @Test(
        "one address in two practices gives two accounts; a practice name is taken once", arguments: Adapter.available)
    func sameAddressTwoPractices(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let person = FirstAdministrator(email: "sam@example.com", displayName: "Sam", passwordHash: "h")
            _ = try await store.accounts.createPractice(Self.practice("North"), administrator: person, requestID: nil)
            _ = try await store.accounts.createPractice(Self.practice("South"), administrator: person, requestID: nil)
            #expect(try await store.accounts.credentials(email: "sam@example.com").count == 2)
            await #expect(throws: UniquenessConflict.self) {
                _ = try await store.accounts.createPractice(
                    Self.practice("North"), administrator: person, requestID: nil)
            }
        }
    }

    @Test(
        "a staff account's address is unique within its practice only; the creation is audited",
        arguments: Adapter.available)
    func createUser(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (north, admin) = try await store.accounts.createPractice(
                Self.practice("Users North"),
                administrator: FirstAdministrator(email: "lead@example.com", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let (south, _) = try await store.accounts.createPractice(
                Self.practice("Users South"),
                administrator: FirstAdministrator(email: "boss@example.com", displayName: "Boss", passwordHash: "h"),
                requestID: nil)
            let scope = AccessScope(practiceID: north.id, actorID: admin.id, role: .administrator, requestID: "u1")
            let nurse = try await store.accounts.createUser(
                scope: scope, email: "Nurse@Example.com", displayName: "Nurse", role: .technician, passwordHash: "n")
            #expect(nurse.email == "nurse@example.com" && nurse.practiceID == north.id && nurse.role == .technician)
            await #expect(throws: UniquenessConflict.self) {
                _ = try await store.accounts.createUser(
                    scope: scope, email: "nurse@example.com", displayName: "Again", role: .receptionist,
                    passwordHash: "x")
            }
            _ = try await store.accounts.createUser(
                scope: .system(south.id), email: "nurse@example.com", displayName: "Other", role: .receptionist,
                passwordHash: "y")
            #expect(try await store.accounts.credentials(email: "nurse@example.com").count == 2)
            await #expect(throws: (any Error).self) {
                _ = try await store.accounts.createUser(
                    scope: scope, email: "not an address", displayName: "X", role: .receptionist, passwordHash: "z")
            }
            let created = try await store.audit.auditEntries(
                scope: scope, limit: 5, before: nil, resourceType: ResourceKind.user.rawValue, resourceID: nil
            ).items
            // Newest first: the nurse, then the administrator made with the practice, each with its role.
            #expect(created.map(\.action) == ["user.create", "user.create"])
            #expect(created.map(\.resourceID) == [nurse.id.description, admin.id.description])
            #expect(created.map(\.detail) == ["role=technician", "role=administrator first administrator"])
        }
    }

    @Test(
        "a session lives until sign-out, idle expiry or its absolute age; checking it is not activity",
        arguments: Adapter.available)
    func sessionLifecycle(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (_, admin) = try await store.accounts.createPractice(
                Self.practice("Lifecycle"),
                administrator: FirstAdministrator(email: "a@example.com", displayName: "A", passwordHash: "h"),
                requestID: nil)
            let policy = SessionPolicy(idleTimeout: 60, absoluteTimeout: 300)
            let idle = try await store.accounts.createSession(
                tokenHash: Self.hash, account: admin, policy: policy, requestID: "r")
            #expect(idle == store.clock.clock.now().addingTimeInterval(60))
            #expect(
                try await store.accounts.activeSession(tokenHash: Self.hash, policy: policy)?.account.id == admin.id)
            // 50 s of questions that are not activity, then 20 s more: idle past the minute.
            store.clock.advance(50)
            #expect(try await store.accounts.sessionIsActive(tokenHash: Self.hash, policy: policy))
            store.clock.advance(20)
            #expect(try await store.accounts.sessionIsActive(tokenHash: Self.hash, policy: policy) == false)
            #expect(try await store.accounts.activeSession(tokenHash: Self.hash, policy: policy) == nil)

            // Kept alive by use (every 40 s), a session still ends at its absolute age of 300 s.
            let other = String(repeating: "cd", count: 32)
            _ = try await store.accounts.createSession(tokenHash: other, account: admin, policy: policy, requestID: nil)
            for _ in 0..<8 {
                store.clock.advance(40)
                _ = try await store.accounts.activeSession(tokenHash: other, policy: policy)
            }
            #expect(try await store.accounts.activeSession(tokenHash: other, policy: policy) == nil)
            #expect(try await store.accounts.pruneSessions(policy: policy) == 2)
        }
    }

    @Test("sign-out revokes at once and is audited in the practice", arguments: Adapter.available)
    func signOut(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (profile, admin) = try await store.accounts.createPractice(
                Self.practice("SignOut"),
                administrator: FirstAdministrator(email: "b@example.com", displayName: "B", passwordHash: "h"),
                requestID: nil)
            let policy = SessionPolicy()
            _ = try await store.accounts.createSession(
                tokenHash: Self.hash, account: admin, policy: policy, requestID: nil)
            let scope = AccessScope(practiceID: profile.id, actorID: admin.id, role: .administrator, requestID: "out")
            try await store.accounts.revokeSession(tokenHash: Self.hash, scope: scope)
            #expect(try await store.accounts.activeSession(tokenHash: Self.hash, policy: policy) == nil)
            let actions = try await store.audit.auditEntries(
                scope: scope, limit: 10, before: nil, resourceType: nil, resourceID: nil
            ).items.map(\.action)
            #expect(actions == ["auth.logout", "auth.login", "user.create", "practice.create"])
        }
    }
}
