import Foundation
import SharedKernel
import StorageSQLite
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { current = Mutex(start) }
    var clock: Clock { Clock(now: { self.current.withLock { $0 } }) }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// Two practices with one administrator each, in a fresh in-memory store.
struct TwoPractices {
    let store: VetNetStore
    let clock: ManualClock
    let a: PracticeProfile
    let b: PracticeProfile
    let adminA: StaffAccount
    let adminB: StaffAccount

    static func make() async throws -> TwoPractices {
        let clock = ManualClock()
        let store = try VetNetStore.inMemory(clock: clock.clock)
        let a = PracticeProfile(id: PracticeID(), name: "Alpha Vets", timeZone: "Europe/London", openingHours: [])
        let b = PracticeProfile(id: PracticeID(), name: "Beta Vets", timeZone: "America/New_York", openingHours: [])
        try await store.createPractice(a)
        try await store.createPractice(b)
        let adminA = try await store.createUser(
            scope: .system(a.id), email: "admin@alpha.example", displayName: "Ada Alpha",
            role: .administrator, passwordHash: "x")
        let adminB = try await store.createUser(
            scope: .system(b.id), email: "admin@beta.example", displayName: "Bea Beta",
            role: .administrator, passwordHash: "x")
        return TwoPractices(store: store, clock: clock, a: a, b: b, adminA: adminA, adminB: adminB)
    }

    func scope(_ account: StaffAccount) -> AccessScope {
        AccessScope(practiceID: account.practiceID, actorID: account.id, role: account.role, requestID: "test")
    }
}
