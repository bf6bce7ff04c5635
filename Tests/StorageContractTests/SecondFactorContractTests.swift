import Foundation
import SharedKernel
import StoragePorts
import Testing

/// What two-factor sign-in relies on, held to every adapter alike: a secret kept sealed and
/// read back whole, a code's time step and a recovery code spent once, a set-up confirmed
/// only for the secret issued last, and nothing of one practice reachable from another.
@Suite("Second factor contract (every store adapter)")
struct SecondFactorContractTests {
    @Test(
        """
        a secret is confirmed once for the secret issued last; steps and recovery codes are spent once; a reset \
        removes it and ends the sessions
        """,
        arguments: Adapter.available)
    func lifecycle(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (practice, admin) = try await store.accounts.createPractice(
                AccountContractTests.practice("Factor North"),
                administrator: FirstAdministrator(email: "lead@north.example", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let (other, _) = try await store.accounts.createPractice(
                AccountContractTests.practice("Factor South"),
                administrator: FirstAdministrator(email: "lead@south.example", displayName: "Lead", passwordHash: "h"),
                requestID: nil)
            let factors = store.secondFactors
            let scope = AccessScope(practiceID: practice.id, actorID: admin.id, role: .administrator, requestID: "t")
            let policy = SessionPolicy()
            // Session tokens are stored as SHA-256 hex.
            let kept = String(repeating: "a", count: 64)
            let older = String(repeating: "b", count: 64)
            #expect(try await factors.secondFactor(userID: admin.id, practiceID: practice.id) == nil)

            let first = Array(repeating: UInt8(1), count: 20)
            let second = Array(repeating: UInt8(2), count: 20)
            try await factors.startSecondFactor(secret: first, scope: scope)
            try await factors.startSecondFactor(secret: second, scope: scope)
            let pending = try #require(try await factors.secondFactor(userID: admin.id, practiceID: practice.id))
            #expect(pending.secret == nil && pending.pendingSecret == second)
            // The same user id under another practice finds nothing.
            #expect(try await factors.secondFactor(userID: admin.id, practiceID: other.id) == nil)

            try await store.accounts.createSession(
                tokenHash: kept, account: admin, assurance: SessionAssurance(mustEnrolSecondFactor: true),
                policy: policy, requestID: nil, detail: nil)
            try await store.accounts.createSession(
                tokenHash: older, account: admin, policy: policy, requestID: nil)
            #expect(
                try await store.accounts.activeSession(tokenHash: kept, policy: policy)?.assurance
                    == SessionAssurance(secondFactor: false, mustEnrolSecondFactor: true))
            // A superseded secret does not confirm; the one issued last does.
            #expect(
                try await factors.confirmSecondFactor(
                    secret: first, step: 100, recoveryCodeHashes: ["a"], tokenHash: kept, scope: scope) == false)
            #expect(
                try await factors.confirmSecondFactor(
                    secret: second, step: 100, recoveryCodeHashes: ["r1", "r2"], tokenHash: kept, scope: scope))
            let enrolled = try #require(try await factors.secondFactor(userID: admin.id, practiceID: practice.id))
            #expect(enrolled.secret == second && enrolled.pendingSecret == nil)
            #expect(enrolled.lastStep == 100 && enrolled.recoveryCodesLeft == 2 && enrolled.enrolledAt != nil)
            // The confirming session is proven; the other one has ended.
            #expect(
                try await store.accounts.activeSession(tokenHash: kept, policy: policy)?.assurance
                    == SessionAssurance(secondFactor: true, mustEnrolSecondFactor: false))
            #expect(try await store.accounts.activeSession(tokenHash: older, policy: policy) == nil)

            #expect(try await factors.spendSecondFactorStep(100, userID: admin.id, practiceID: practice.id) == false)
            #expect(try await factors.spendSecondFactorStep(101, userID: admin.id, practiceID: practice.id))
            #expect(try await factors.spendSecondFactorStep(101, userID: admin.id, practiceID: practice.id) == false)
            #expect(try await factors.spendSecondFactorStep(102, userID: admin.id, practiceID: other.id) == false)
            #expect(try await factors.spendRecoveryCode(hash: "r1", userID: admin.id, practiceID: other.id) == false)
            #expect(try await factors.spendRecoveryCode(hash: "r1", userID: admin.id, practiceID: practice.id))
            #expect(try await factors.spendRecoveryCode(hash: "r1", userID: admin.id, practiceID: practice.id) == false)
            #expect(try await factors.secondFactor(userID: admin.id, practiceID: practice.id)?.recoveryCodesLeft == 1)

            // Another practice's administrator cannot reset it.
            await #expect(throws: DomainError.self) {
                try await factors.resetSecondFactor(userID: admin.id, scope: .system(other.id))
            }
            try await factors.resetSecondFactor(userID: admin.id, scope: scope)
            #expect(try await factors.secondFactor(userID: admin.id, practiceID: practice.id) == nil)
            #expect(try await store.accounts.activeSession(tokenHash: kept, policy: policy) == nil)
            let actions = try await store.audit.auditEntries(
                scope: .system(practice.id), limit: 100, before: nil, resourceType: ResourceKind.user.rawValue,
                resourceID: nil
            ).items.map(\.action)
            #expect(actions.filter { $0 == AuditAction.authSecondFactorStart.name }.count == 2)
            #expect(actions.contains(AuditAction.authSecondFactorEnrol.name))
            #expect(actions.contains(AuditAction.authSecondFactorReset.name))
        }
    }
}
