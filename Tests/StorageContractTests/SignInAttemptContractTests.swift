import Foundation
import SharedKernel
import StoragePorts
import Testing

/// The sign-in throttle's counts, held to every adapter alike.
@Suite("Sign-in attempt contract (every store adapter)")
struct SignInAttemptContractTests {
    static let limits = SignInLimits(window: 60, accountLimit: 3, addressLimit: 5)
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    @Test(
        "an account's attempts count until its limit; the next waits for the oldest to leave the window",
        arguments: Adapter.available)
    func accountLimit(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let ledger = try #require(store.signInAttempts)
            for second in 0..<3 {
                let refusal = try await ledger.reserveSignInAttempt(
                    UUID(), accountKey: "account:a", addressKey: "address:\(second)",
                    limits: Self.limits, now: Self.start.addingTimeInterval(Double(second)))
                #expect(refusal == nil)
            }
            let refused = try await ledger.reserveSignInAttempt(
                UUID(), accountKey: "account:a", addressKey: "address:9", limits: Self.limits,
                now: Self.start.addingTimeInterval(10))
            #expect(refused == SignInRefusal(key: "account:a", retryAfterSeconds: 50))
            // Once the first attempt is past the window, there is room for one more.
            #expect(
                try await ledger.reserveSignInAttempt(
                    UUID(), accountKey: "account:a", addressKey: "address:9", limits: Self.limits,
                    now: Self.start.addingTimeInterval(60.5)) == nil)
        }
    }

    @Test(
        "an address is limited across accounts; a success clears the account's failures but not pending attempts",
        arguments: Adapter.available)
    func addressLimitAndSuccess(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let ledger = try #require(store.signInAttempts)
            for index in 0..<5 {
                #expect(
                    try await ledger.reserveSignInAttempt(
                        UUID(), accountKey: "account:\(index)", addressKey: "address:office",
                        limits: Self.limits, now: Self.start) == nil)
            }
            let refused = try await ledger.reserveSignInAttempt(
                UUID(), accountKey: "account:new", addressKey: "address:office",
                limits: Self.limits, now: Self.start)
            #expect(refused?.key == "address:office")

            let limits = SignInLimits(window: 60, accountLimit: 4, addressLimit: 50)
            func reserve(_ ticket: UUID = UUID()) async throws -> Bool {
                try await ledger.reserveSignInAttempt(
                    ticket, accountKey: "account:b", addressKey: "address:b", limits: limits, now: Self.start) == nil
            }
            let failed1 = UUID()
            let failed2 = UUID()
            let pending = UUID()
            let success = UUID()
            for ticket in [failed1, failed2] {
                #expect(try await reserve(ticket))
                try await ledger.settleSignInAttempt(ticket, accountKey: "account:b", outcome: .failed)
            }
            #expect(try await reserve(pending))
            #expect(try await reserve(success))
            #expect(try await reserve() == false)
            // The success forgets the two failures and itself; the attempt still being checked stays.
            try await ledger.settleSignInAttempt(success, accountKey: "account:b", outcome: .succeeded)
            for _ in 0..<3 { #expect(try await reserve()) }
            #expect(try await reserve() == false)
            // An attempt that could not be checked gives its place back.
            try await ledger.settleSignInAttempt(pending, accountKey: "account:b", outcome: .abandoned)
            #expect(try await reserve())
            #expect(try await ledger.pruneSignInAttempts(before: Self.start.addingTimeInterval(1)) > 0)
        }
    }

    @Test("30 reservations at once against a limit of 3: exactly 3 are counted", arguments: Adapter.available)
    func concurrentReservations(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let ledger = try #require(store.signInAttempts)
            let reserved = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await ledger.reserveSignInAttempt(
                            UUID(), accountKey: "account:race", addressKey: "address:\(index)",
                            limits: Self.limits, now: Self.start) == nil
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(reserved == 3)
        }
    }
}
