import Foundation
import SharedKernel
import StoragePorts
import Testing

/// Staff accounts beyond signing in — role changes, disabling, passwords, look-ups and
/// listings — held to every store adapter alike.
@Suite("Staff directory contract (every store adapter)")
struct StaffDirectoryContractTests {
    static let policy = SessionPolicy(idleTimeout: 600, absoluteTimeout: 3600)

    /// A practice, its administrator's scope and a receptionist signed in under `token`.
    static func signedInReceptionist(_ store: StoreUnderTest, token: String) async throws -> (AccessScope, StaffAccount)
    {
        let (profile, admin) = try await store.accounts.createPractice(
            AccountContractTests.practice("Staffed"),
            administrator: FirstAdministrator(email: "admin@staffed.example", displayName: "Admin", passwordHash: "h"),
            requestID: nil)
        let scope = AccessScope(practiceID: profile.id, actorID: admin.id, role: .administrator, requestID: nil)
        let desk = try await store.accounts.createUser(
            scope: scope, email: "Desk@Staffed.example", displayName: "Desk", role: .receptionist,
            passwordHash: "old")
        _ = try await store.accounts.createSession(tokenHash: token, account: desk, policy: policy, requestID: nil)
        return (scope, desk)
    }

    @Test(
        """
        a role change takes effect on the account's live session at once; disabling ends its sessions; a stale \
        version is refused
        """,
        arguments: Adapter.available)
    func roleAndDisable(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let token = String(repeating: "c1", count: 32)
            let (scope, desk) = try await Self.signedInReceptionist(store, token: token)
            #expect(
                try await store.accounts.activeSession(tokenHash: token, policy: Self.policy)?.account.role
                    == .receptionist)

            let promoted = try await store.staff.updateUser(
                scope: scope, id: desk.id, expectedVersion: desk.version, role: .technician, disabled: nil)
            #expect(promoted.role == .technician && promoted.version == desk.version + 1 && !promoted.disabled)
            // The session answers with the account as it is now: the old role grants nothing any more.
            #expect(
                try await store.accounts.activeSession(tokenHash: token, policy: Self.policy)?.account.role
                    == .technician)
            #expect(try await store.staff.user(scope: scope, id: desk.id) == promoted)

            await #expect(throws: DomainError.versionMismatch(current: promoted.version)) {
                _ = try await store.staff.updateUser(
                    scope: scope, id: desk.id, expectedVersion: desk.version, role: .administrator, disabled: nil)
            }
            #expect(try await store.staff.user(scope: scope, id: desk.id).role == .technician)

            let disabled = try await store.staff.updateUser(
                scope: scope, id: desk.id, expectedVersion: promoted.version, role: nil, disabled: true)
            #expect(disabled.disabled && disabled.role == .technician)
            #expect(try await store.accounts.activeSession(tokenHash: token, policy: Self.policy) == nil)
            #expect(try await !store.accounts.sessionIsActive(tokenHash: token, policy: Self.policy))
            // Enabling it again does not bring the ended session back.
            _ = try await store.staff.updateUser(
                scope: scope, id: desk.id, expectedVersion: nil, role: nil, disabled: false)
            #expect(try await store.accounts.activeSession(tokenHash: token, policy: Self.policy) == nil)

            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 50, before: nil, resourceType: ResourceKind.user.rawValue,
                resourceID: desk.id.description)
            #expect(
                audit.items.filter { $0.action == "user.update" }.map(\.detail) == [
                    "disabled=false", "disabled=true", "role=technician",
                ])
        }
    }

    @Test("setting a password stores the new hash and ends the account's sessions", arguments: Adapter.available)
    func setPassword(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let token = String(repeating: "d2", count: 32)
            let (scope, desk) = try await Self.signedInReceptionist(store, token: token)
            try await store.staff.setPassword(scope: scope, id: desk.id, passwordHash: "new")
            #expect(try await store.accounts.activeSession(tokenHash: token, policy: Self.policy) == nil)
            let stored = try await store.accounts.credentials(email: "desk@staffed.example")
            #expect(stored.map(\.passwordHash) == ["new"])
            // A stale version after the change: the password change moved it.
            #expect(try await store.staff.user(scope: scope, id: desk.id).version == desk.version + 1)
            await #expect(throws: DomainError.notFound(resource: "user")) {
                try await store.staff.setPassword(scope: scope, id: UserID(), passwordHash: "x")
            }
        }
    }

    @Test("an account is found by id or address in its own practice only", arguments: Adapter.available)
    func lookUps(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, desk) = try await Self.signedInReceptionist(store, token: String(repeating: "e3", count: 32))
            #expect(try await store.staff.user(scope: scope, email: "DESK@staffed.example")?.id == desk.id)
            #expect(try await store.staff.user(scope: scope, email: "nobody@staffed.example") == nil)
            let (other, _) = try await store.accounts.createPractice(
                AccountContractTests.practice("Elsewhere"),
                administrator: FirstAdministrator(
                    email: "admin@elsewhere.example", displayName: "Admin", passwordHash: "h"), requestID: nil)
            let outsider = AccessScope(practiceID: other.id, actorID: nil, role: .administrator, requestID: nil)
            await #expect(throws: DomainError.notFound(resource: "user")) {
                _ = try await store.staff.user(scope: outsider, id: desk.id)
            }
            #expect(try await store.staff.user(scope: outsider, email: "desk@staffed.example") == nil)
            await #expect(throws: DomainError.notFound(resource: "user")) {
                _ = try await store.staff.updateUser(
                    scope: outsider, id: desk.id, expectedVersion: nil, role: .administrator, disabled: nil)
            }
            #expect(try await store.staff.user(scope: scope, id: desk.id).role == .receptionist)
            let reads = try await store.audit.auditEntries(
                scope: scope, limit: 50, before: nil, resourceType: ResourceKind.user.rawValue,
                resourceID: desk.id.description)
            #expect(reads.items.contains { $0.action == "user.read" })
        }
    }

    @Test("the accounts are listed by name in pages that cover each once", arguments: Adapter.available)
    func paging(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, _) = try await Self.signedInReceptionist(store, token: String(repeating: "f4", count: 32))
            for name in ["Zoe", "amy", "Bob", "Carl"] {
                _ = try await store.accounts.createUser(
                    scope: scope, email: "\(name.lowercased())@staffed.example", displayName: name,
                    role: .veterinarian, passwordHash: "h")
            }
            var names: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await store.staff.users(scope: scope, limit: 2, after: cursor)
                #expect(page.items.count <= 2)
                names += page.items.map(\.displayName)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            // By code point, as both stores compare names: capitals first.
            #expect(names == ["Admin", "Bob", "Carl", "Desk", "Zoe", "amy"])
            #expect(pages == 3)
            #expect(try await store.staff.users(scope: scope, limit: 10, after: nil).nextCursor == nil)
            // A cursor this list did not give — a word, or an id of no account here — is refused.
            for stray in [UUID().uuidString, scope.practiceID.description] {
                await #expect(throws: PageCursor.namesNothing, "cursor \(stray)") {
                    try await store.staff.users(scope: scope, limit: 2, after: stray)
                }
            }
            await #expect(throws: ValidationError.unknownCursor) {
                try await store.staff.users(scope: scope, limit: 2, after: "Bob")
            }
        }
    }
}
