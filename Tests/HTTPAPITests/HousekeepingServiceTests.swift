import Foundation
import GRDB
import Logging
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite
import Synchronization
import Testing

@testable import HTTPAPI

@Suite("Housekeeping service")
struct HousekeepingServiceTests {
    /// A store on a clock the test moves, with an ended session, a live one and a day-old idempotency key.
    static func store() async throws -> VetNetStore {
        let time = MovableTime()
        let store = try VetNetStore.inMemory(clock: Clock { time.now })
        let practice = PracticeProfile(id: PracticeID(), name: "P", timeZone: "UTC", openingHours: [])
        try await store.createPractice(practice)
        let account = try await store.createUser(
            scope: .system(practice.id), email: "a@p.example", displayName: "A", role: .administrator, passwordHash: "x"
        )
        let policy = SessionPolicy()
        _ = try await store.createSession(tokenHash: "old", account: account, policy: policy, requestID: nil)
        _ = try await store.createOwner(
            Owner(firstName: "Jo", lastName: "Bloggs"), scope: .system(practice.id),
            idempotencyKey: IdempotencyKey(key: "k", fingerprint: "f"))
        time.advance(25 * 3600)
        _ = try await store.createSession(tokenHash: "new", account: account, policy: policy, requestID: nil)
        return store
    }

    static func counts(_ store: VetNetStore) async throws -> (sessions: Int, keys: Int) {
        try await store.writer.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM session") ?? -1,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM idempotency_key") ?? -1
            )
        }
    }

    @Test("one sweep removes ended sessions and idempotency keys older than 24 hours")
    func sweep() async throws {
        let store = try await Self.store()
        let service = HousekeepingService(
            store: store, policy: SessionPolicy(), interval: .seconds(3600), logger: Logger(label: "test"))
        #expect(try await service.sweep() == .init(sessions: 1, idempotencyKeys: 1))
        #expect(try await Self.counts(store) == (1, 0))
        #expect(try await service.sweep() == .init(sessions: 0, idempotencyKeys: 0))
    }

    @Test("the running service sweeps as soon as it starts")
    func sweepsOnStart() async throws {
        let store = try await Self.store()
        let service = HousekeepingService(
            store: store, policy: SessionPolicy(), interval: .seconds(3600), logger: Logger(label: "test"))
        let running = Task { try await service.run() }
        defer { running.cancel() }
        var swept = false
        for _ in 0..<100 where !swept {
            swept = try await Self.counts(store) == (1, 0)
            if !swept { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(swept)
    }
}

/// A time the test moves by hand.
final class MovableTime: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_795_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
