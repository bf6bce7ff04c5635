import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite
import Testing

/// The store's housekeeping: ended sessions and old idempotency keys are deleted.
@Suite("Housekeeping")
struct HousekeepingTests {
    static func sessionHashes(_ store: VetNetStore) async throws -> Set<String> {
        Set(try await store.writer.read { db in try String.fetchAll(db, sql: "SELECT token_hash FROM session") })
    }

    @Test(
        """
        ended sessions (signed out, past the absolute expiry, idle too long) are deleted; live ones stay and still work
        """
    )
    func pruneSessions() async throws {
        let fixture = try await TwoPractices.make()
        let store = fixture.store
        let policy = SessionPolicy(idleTimeout: 30 * 60, absoluteTimeout: 60 * 60)
        _ = try await store.createSession(tokenHash: "idle", account: fixture.adminA, policy: policy, requestID: nil)
        _ = try await store.createSession(tokenHash: "aged", account: fixture.adminB, policy: policy, requestID: nil)
        for _ in 0..<3 { // used every 18 minutes: never idle, but an hour old at the end
            fixture.clock.advance(18 * 60)
            #expect(try await store.activeSession(tokenHash: "aged", policy: policy) != nil)
        }
        fixture.clock.advance(7 * 60)
        _ = try await store.createSession(tokenHash: "live", account: fixture.adminA, policy: policy, requestID: nil)
        _ = try await store.createSession(
            tokenHash: "signed-out", account: fixture.adminA, policy: policy, requestID: nil)
        try await store.revokeSession(tokenHash: "signed-out", scope: fixture.scope(fixture.adminA))
        #expect(try await Self.sessionHashes(store) == ["idle", "aged", "live", "signed-out"])

        #expect(try await store.pruneSessions(policy: policy) == 3)

        #expect(try await Self.sessionHashes(store) == ["live"])
        #expect(try await store.activeSession(tokenHash: "live", policy: policy) != nil)
        #expect(try await store.pruneSessions(policy: policy) == 0)
        #expect(try await store.verifyAuditChain().isIntact)
    }

    @Test("idempotency keys are kept 24 hours by the store's clock, then forgotten; younger ones still replay")
    func pruneIdempotencyKeys() async throws {
        let fixture = try await TwoPractices.make()
        let store = fixture.store
        let scope = fixture.scope(fixture.adminA)
        let first = IdempotencyKey(key: "first", fingerprint: "f")
        let second = IdempotencyKey(key: "second", fingerprint: "f")
        let created = try await store.createOwner(
            Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope, idempotencyKey: first
        ).0.value
        fixture.clock.advance(23 * 3600)
        let kept = try await store.createOwner(
            Owner(firstName: "Al", lastName: "Bloggs"), scope: scope, idempotencyKey: second
        ).0.value
        #expect(try await store.pruneIdempotencyKeys() == 0)
        fixture.clock.advance(2 * 3600)

        #expect(IdempotencyKey.retention == 24 * 3600)
        #expect(try await store.pruneIdempotencyKeys() == 1)

        let replay = try await store.createOwner(
            Owner(firstName: "Al", lastName: "Bloggs"), scope: scope, idempotencyKey: second)
        #expect(replay.replayed && replay.0.value.id == kept.id)
        let reused = try await store.createOwner(
            Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope, idempotencyKey: first)
        #expect(!reused.replayed && reused.0.value.id != created.id)
    }
}
