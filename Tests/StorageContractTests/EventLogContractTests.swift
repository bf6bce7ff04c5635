import Foundation
import SharedKernel
import StoragePorts
import Synchronization
import Testing

/// The event log's promises (what the live stream and the change feed stand on), held to
/// every adapter alike.
@Suite("Event log contract (every store adapter)")
struct EventLogContractTests {
    static func event(_ practice: PracticeID, _ kind: String, at time: Date, id: String) -> DomainEvent {
        DomainEvent(
            practiceID: practice, kind: kind, occurredAt: time, resourceType: .appointment, resourceID: id,
            payload: ["status": "booked"])
    }

    @Test(
        "numbers are per practice, gapless and in order; pages stop at the head; the actor is the scope's",
        arguments: Adapter.available)
    func numberingAndPages(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (a, _) = try await store.accounts.createPractice(
                AccountContractTests.practice("Events A"),
                administrator: FirstAdministrator(email: "e@example.com", displayName: "E", passwordHash: "h"),
                requestID: nil)
            let (b, _) = try await store.accounts.createPractice(
                AccountContractTests.practice("Events B"),
                administrator: FirstAdministrator(email: "f@example.com", displayName: "F", passwordHash: "h"),
                requestID: nil)
            let now = store.clock.clock.now()
            let actor = UserID()
            try await store.events.recordEvents(
                (0..<5).map { Self.event(a.id, "appointment.booked", at: now, id: "a\($0)") },
                scope: AccessScope(practiceID: a.id, actorID: actor, role: .receptionist, requestID: nil))
            try await store.events.recordEvents(
                [Self.event(b.id, "appointment.booked", at: now, id: "b0")], scope: .system(b.id))
            #expect(try await store.events.eventHead(practiceID: a.id) == 5)
            #expect(try await store.events.eventHead(practiceID: PracticeID()) == 0)
            #expect(try await store.events.eventHeads() == [a.id: 5, b.id: 1])

            let page = try await store.events.events(practiceID: a.id, after: 1, limit: 3)
            #expect(page.events.map(\.sequence) == [2, 3, 4] && page.hasMore && page.headSequence == 5)
            #expect(page.events.map(\.resourceID) == ["a1", "a2", "a3"])
            #expect(page.events.allSatisfy { $0.actorID == actor.description && $0.payload == ["status": "booked"] })
            let other = try await store.events.events(practiceID: b.id, after: 0, limit: 10)
            #expect(other.events.map(\.resourceID) == ["b0"] && !other.hasMore)
            #expect(try await store.events.events(practiceID: a.id, after: 9, limit: 10).mustReset(after: 9))
        }
    }

    @Test(
        "pruning deletes old events and moves the mark, so resuming below it asks for a reload",
        arguments: Adapter.available)
    func pruning(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (a, _) = try await store.accounts.createPractice(
                AccountContractTests.practice("Prune"),
                administrator: FirstAdministrator(email: "g@example.com", displayName: "G", passwordHash: "h"),
                requestID: nil)
            let start = store.clock.clock.now()
            try await store.events.recordEvents(
                [Self.event(a.id, "x.old", at: start, id: "1"), Self.event(a.id, "x.old", at: start, id: "2")],
                scope: nil)
            try await store.events.recordEvents(
                [Self.event(a.id, "x.new", at: start.addingTimeInterval(3600), id: "3")], scope: nil)
            #expect(try await store.events.pruneEvents(before: start.addingTimeInterval(60)) == 2)
            let page = try await store.events.events(practiceID: a.id, after: 0, limit: 10)
            #expect(
                page.events.map(\.kind) == ["x.new"] && page.prunedThrough == 2 && page.mustReset(after: 1)
                    && !page.mustReset(after: 2))
            // Numbers are never reused after pruning.
            try await store.events.recordEvents(
                [Self.event(a.id, "x.next", at: start.addingTimeInterval(7200), id: "4")], scope: nil)
            #expect(try await store.events.eventHead(practiceID: a.id) == 4)
        }
    }

    @Test("a commit that appended events signals its practice to observers", arguments: Adapter.available)
    func commitSignal(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (a, _) = try await store.accounts.createPractice(
                AccountContractTests.practice("Signal"),
                administrator: FirstAdministrator(email: "s@example.com", displayName: "S", passwordHash: "h"),
                requestID: nil)
            let woken = Mutex<[PracticeID]>([])
            let token = store.events.eventCommits.observe { id in woken.withLock { $0.append(id) } }
            defer { store.events.eventCommits.removeObserver(token) }
            // PostgreSQL's listener connects when the store starts running, alongside the first
            // writes; on a loaded machine a commit can come before it listens, so commits go on
            // (each one signals once it does) until one is heard or 20 seconds have passed.
            let deadline = ContinuousClock.now + .seconds(20)
            var sent = 0
            while !woken.withLock({ $0.contains(a.id) }) && ContinuousClock.now < deadline {
                sent += 1
                try await store.events.recordEvents(
                    [Self.event(a.id, "appointment.booked", at: store.clock.clock.now(), id: "\(sent)")], scope: nil)
                try await waitUntil(seconds: 1) { woken.withLock { $0.contains(a.id) } }
            }
            #expect(woken.withLock { $0.contains(a.id) })
        }
    }
}

/// Polls `condition` every 10 ms for up to `seconds`.
func waitUntil(seconds: Double, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
}
