import Foundation
import SharedKernel
import StoragePorts
import Testing

/// What passkey sign-in relies on, held to every adapter alike: a key read back whole, one
/// credential id in the whole installation, a challenge answered once (even by two racing
/// sign-ins), the account's first passkey ending its other sessions, and nothing of one
/// practice reachable from another.
@Suite("Passkey contract (every store adapter)")
struct PasskeyContractTests {
    static func passkey(_ user: UserID, _ practice: PracticeID, credential: UInt8, name: String = "iPad")
        -> StoredPasskey
    {
        // Made one minute apart, in the order of their credential bytes.
        StoredPasskey(
            id: UUID(), userID: user, practiceID: practice, credentialID: Data(repeating: credential, count: 16),
            publicKey: Data([4]) + Data(repeating: credential, count: 64), relyingParty: "vet.example",
            origin: "https://vet.example", name: name, signCount: 3,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(credential) * 60),
            lastUsedAt: nil)
    }

    @Test(
        """
        a passkey is kept whole and found only in its practice; a credential id once; a challenge answered once; \
        removal is the owner's
        """,
        arguments: Adapter.available)
    func lifecycle(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (practice, admin) = try await store.accounts.createPractice(
                AccountContractTests.practice("Passkey North"),
                administrator: FirstAdministrator(email: "lead@north.example", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let (other, otherAdmin) = try await store.accounts.createPractice(
                AccountContractTests.practice("Passkey South"),
                administrator: FirstAdministrator(email: "lead@south.example", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let scope = AccessScope(practiceID: practice.id, actorID: admin.id, role: .administrator, requestID: "t")
            let otherScope = AccessScope(
                practiceID: other.id, actorID: otherAdmin.id, role: .administrator, requestID: "t")
            let policy = SessionPolicy()
            let kept = String(repeating: "c", count: 64)
            let older = String(repeating: "d", count: 64)
            try await store.accounts.createSession(
                tokenHash: kept, account: admin, assurance: SessionAssurance(mustEnrolSecondFactor: true),
                policy: policy, requestID: nil, detail: nil)
            try await store.accounts.createSession(tokenHash: older, account: admin, policy: policy, requestID: nil)

            let first = Self.passkey(admin.id, practice.id, credential: 1)
            try await store.passkeys.addPasskey(first, firstFactor: true, tokenHash: kept, scope: scope)
            #expect(try await store.passkeys.passkeys(userID: admin.id, practiceID: practice.id) == [first])
            #expect(try await store.passkeys.passkeys(userID: admin.id, practiceID: other.id).isEmpty)
            // The first second factor proves this session and ends the other.
            #expect(
                try await store.accounts.activeSession(tokenHash: kept, policy: policy)?.assurance
                    == SessionAssurance(secondFactor: true))
            #expect(try await store.accounts.activeSession(tokenHash: older, policy: policy) == nil)

            // One credential id in the whole installation, whichever practice tries it again.
            await #expect(throws: DomainError.self) {
                try await store.passkeys.addPasskey(
                    Self.passkey(otherAdmin.id, other.id, credential: 1), firstFactor: false, tokenHash: kept,
                    scope: otherScope)
            }
            let second = Self.passkey(admin.id, practice.id, credential: 2, name: "Phone")
            try await store.passkeys.addPasskey(second, firstFactor: false, tokenHash: kept, scope: scope)
            #expect(
                try await store.passkeys.passkeys(userID: admin.id, practiceID: practice.id).map(\.name) == [
                    "iPad", "Phone",
                ])

            // A challenge is answered once; a stale counter (a race) changes nothing.
            let at = Date(timeIntervalSince1970: 1_800_000_100)
            let spend = { (challenge: String, expected: Int64, count: Int64) in
                try await store.passkeys.spendPasskeyChallenge(
                    challenge, passkeyID: first.id, userID: admin.id, practiceID: practice.id,
                    expectedSignCount: expected, signCount: count, at: at)
            }
            #expect(try await spend("challenge-1", 3, 4))
            #expect(try await spend("challenge-1", 4, 5) == false)
            #expect(try await spend("challenge-2", 3, 6) == false)
            #expect(try await spend("challenge-2", 4, 5))
            let used = try #require(try await store.passkeys.passkeys(userID: admin.id, practiceID: practice.id).first)
            #expect(used.signCount == 5 && used.lastUsedAt == at)
            // Another practice cannot spend it.
            #expect(
                try await store.passkeys.spendPasskeyChallenge(
                    "challenge-3", passkeyID: first.id, userID: admin.id, practiceID: other.id, expectedSignCount: 5,
                    signCount: 6, at: at) == false)

            // Only its owner removes it; another practice's administrator finds nothing.
            await #expect(throws: DomainError.notFound(resource: "passkey")) {
                try await store.passkeys.removePasskey(id: second.id, scope: otherScope)
            }
            try await store.passkeys.removePasskey(id: second.id, scope: scope)
            #expect(try await store.passkeys.passkeys(userID: admin.id, practiceID: practice.id) == [used])

            // A reset of the second factor (a lost device) removes the passkeys too.
            try await store.secondFactors.resetSecondFactor(userID: admin.id, scope: scope)
            #expect(try await store.passkeys.passkeys(userID: admin.id, practiceID: practice.id).isEmpty)
            let actions = try await store.audit.auditEntries(
                scope: scope, limit: 20, before: nil, resourceType: nil, resourceID: nil
            ).items.map(\.action)
            #expect(actions.filter { $0 == AuditAction.authPasskeyAdd.name }.count == 2)
            #expect(actions.contains(AuditAction.authPasskeyRemove.name))
        }
    }
}
