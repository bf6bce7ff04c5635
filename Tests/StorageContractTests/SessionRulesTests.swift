import Foundation
import SharedKernel
import StoragePorts
import Testing

/// The session and sign-in throttle rules both stores ask, without a store.
@Suite("Session and sign-in rules: one home for both stores")
struct SessionRulesTests {
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("a session's idle timer is refreshed only after 15 s; it ends idle from now or at its absolute expiry")
    func sessionCheck() {
        let check = SessionCheck(now: now, policy: SessionPolicy(idleTimeout: 30 * 60, absoluteTimeout: 12 * 3_600))
        let nowMs = Timestamp.milliseconds(now)
        #expect(check.nowMilliseconds == nowMs && check.idleMilliseconds == 1_800_000)
        #expect(!check.refreshes(lastSeen: nowMs - 15_000))
        #expect(check.refreshes(lastSeen: nowMs - 15_001))
        // Idle expiry first, then the absolute one when it comes sooner.
        #expect(check.expiry(absolute: nowMs + 3_600_000) == now.addingTimeInterval(30 * 60))
        #expect(check.expiry(absolute: nowMs + 60_000) == now.addingTimeInterval(60))
    }

    @Test("an attempt is refused when a key is at its limit, naming the key with the longer wait; never below it")
    func signInRefusal() {
        let limits = SignInLimits(window: 15 * 60, accountLimit: 3, addressLimit: 5)
        let nowMs = Timestamp.milliseconds(now)
        #expect(limits.windowStart(now: now) == nowMs - 900_000)
        let freshAccount = SignInTally(key: "account", count: 2, oldestMilliseconds: nowMs - 60_000)
        let busyAddress = SignInTally(key: "address", count: 5, oldestMilliseconds: nowMs - 600_000)
        #expect(
            limits.refusal(
                account: freshAccount, address: SignInTally(key: "address", count: 0, oldestMilliseconds: nil), now: now
            ) == nil)
        #expect(
            limits.refusal(account: freshAccount, address: busyAddress, now: now)
                == SignInRefusal(key: "address", retryAfterSeconds: 300))
        // Both at their limits: the account's oldest attempt is newer, so its wait is longer.
        let busyAccount = SignInTally(key: "account", count: 3, oldestMilliseconds: nowMs - 60_000)
        #expect(
            limits.refusal(account: busyAccount, address: busyAddress, now: now)
                == SignInRefusal(key: "account", retryAfterSeconds: 840))
    }

    @Test("a patient's tables are emptied children first; the ones with ids leave out rankings, board and arrivals")
    func patientTables() throws {
        let tables = PatientRecordTables.childrenFirst(board: "triage_queue")
        let position = { (table: String) in try #require(tables.firstIndex(of: table)) }
        #expect(try position("visit") < position("appointment"))
        #expect(try position("note_addendum") < position("clinical_note"))
        #expect(try position("triage_queue") < position("triage_assessment"))
        #expect(try position("appointment") < position("triage_assessment"))
        let withIDs = PatientRecordTables.withIDs(board: "triage_queue")
        #expect(!withIDs.contains("intake_ranking") && !withIDs.contains("triage_queue"))
        #expect(withIDs.contains("appointment") && withIDs.contains("document"))
    }
}
