import Analytics
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import StorageSQLite
import StorageSupport
import Synchronization
import Testing
import Triage

@testable import HTTPAPI
@testable import PracticeServices

/// Reads a subscriber's items one at a time, failing instead of hanging when one is late.
final class LiveItemReader: @unchecked Sendable {
    // Only ever used from one test task at a time.
    private var iterator: AsyncStream<LiveItem>.AsyncIterator

    /// Reads `subscription` through a forwarding task, so a timed-out read here does not
    /// cancel the subscription itself.
    init(_ subscription: LiveSubscription) {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveItem.self)
        Task {
            for await batch in subscription { for item in batch { continuation.yield(item) } }
            continuation.finish()
        }
        iterator = stream.makeAsyncIterator()
    }

    /// The next item, or `nil` when the stream ended or nothing came within `seconds` (long
    /// enough by default for a loaded machine: every suite runs at once, and a commit on a
    /// store on disk waits for its flushes; an expected item normally comes in milliseconds).
    func next(within seconds: Double = 20) async -> LiveItem? {
        let box = IteratorBox(iterator)
        let item = await withTaskGroup(of: LiveItem??.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return .some(nil)
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? nil
        }
        iterator = box.iterator
        return item
    }

    /// The next `count` events, skipping heartbeats; stops early at the end of the stream.
    func events(_ count: Int) async -> [DomainEvent] {
        var events: [DomainEvent] = []
        while events.count < count, let item = await next() {
            if case .event(let frame) = item { events.append(frame.event) }
            if case .ended = item { break }
        }
        return events
    }

    private final class IteratorBox: @unchecked Sendable {
        var iterator: AsyncStream<LiveItem>.AsyncIterator
        init(_ iterator: AsyncStream<LiveItem>.AsyncIterator) { self.iterator = iterator }
        func next() async -> LiveItem?? { .some(await iterator.next()) }
    }
}

@Suite("Live practice: event log, stream and change feed")
struct LiveEventsTests {
    static func subscribe(
        _ fixture: AppFixture, role: Role = .veterinarian, practice: PracticeID? = nil, after: Int64? = nil,
        tokenHash: String = "test-session", kinds: Set<String>? = nil
    ) async throws -> LiveItemReader {
        let account = fixture.accountsA[role]!
        return LiveItemReader(
            try await fixture.services.live.subscribe(
                practiceID: practice ?? fixture.practiceA.id, role: role, userID: account.id,
                tokenHash: tokenHash, kinds: kinds, after: after))
    }

    @Test(
        """
        a booking made through the API reaches another device's stream with the next sequence; a refused booking \
        (409) logs nothing
        """
    )
    func bookingReachesStream() async throws {
        let fixture = try await ScheduleFixture.make()
        let head = try await fixture.app.store.eventHead(practiceID: fixture.app.practiceA.id)
        let vet = try await Self.subscribe(fixture.app)
        #expect(await vet.next() == .ready(headSequence: head))
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let json = fixture.bookingJSON(start: fixture.nineTomorrow)
            let id = try await client.call("/api/v1/appointments", .post, token: token, json: json) { response in
                #expect(response.status == .created)
                return try JSONDecoder().decode(LiveIDBody.self, from: Data(buffer: response.body)).id
            }
            let event = try #require(await vet.events(1).first)
            #expect(event.sequence == head + 1)
            #expect(event.kind == AppointmentEventKind.booked)
            #expect(event.resourceID == id)
            #expect(event.payload["patientID"] == fixture.patient.id.description)
            #expect(event.actorID == fixture.app.accountsA[.receptionist]!.id.description)

            try await client.call("/api/v1/appointments", .post, token: token, json: json) {
                #expect($0.status == .conflict)
            }
            #expect(try await fixture.app.store.eventHead(practiceID: fixture.app.practiceA.id) == head + 1)
            #expect(await vet.next(within: 1.5) == nil, "a refused booking must publish nothing")
        }
    }

    @Test(
        """
        disconnect, three changes, reconnect after the last id seen: exactly those three, in order — also on a \
        reopened store
        """
    )
    func resumeAfterRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vetnet-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = AuditKey(bytes: Array(repeating: 3, count: 32))
        let cipher = try RecordCipher(keyBytes: Array(repeating: 4, count: 32))
        let practice = PracticeProfile(
            id: PracticeID(), name: "Resume Vets", timeZone: "Europe/London", openingHours: [])
        var store = try VetNetStore.open(directory: directory, auditKey: key, cipher: cipher)
        try await store.createPractice(practice)
        let scope = AccessScope.system(practice.id)
        let owner = try await store.createOwner(Owner(firstName: "Ann", lastName: "Lee"), scope: scope)
        var hub = LiveEventHub(store: store)
        let first = LiveItemReader(
            try await hub.subscribe(practiceID: practice.id, role: .receptionist, userID: UserID(), tokenHash: "a"))
        _ = await first.next()
        _ = try await store.createPatient(Patient(name: "Bella", species: .cat, ownerID: owner.id), scope: scope)
        let lastSeen = try #require(await first.events(1).first).sequence
        // The device goes away; three changes happen meanwhile.
        var made: [String] = []
        for name in ["Coco", "Dino", "Echo"] {
            made.append(
                try await store.createPatient(Patient(name: name, species: .dog, ownerID: owner.id), scope: scope).id
                    .description)
        }
        let resumed = LiveItemReader(
            try await hub.subscribe(
                practiceID: practice.id, role: .receptionist, userID: UserID(), tokenHash: "a", after: lastSeen))
        _ = await resumed.next()
        let replayed = await resumed.events(3)
        #expect(replayed.map(\.resourceID) == made)
        #expect(replayed.map(\.sequence) == [lastSeen + 1, lastSeen + 2, lastSeen + 3])
        #expect(await resumed.next(within: 1.5) == nil, "nothing beyond the three")

        // The server restarts on the same store: the log is durable, so the same resume works.
        hub = LiveEventHub(store: store)
        try store.close()
        store = try VetNetStore.open(directory: directory, auditKey: key, cipher: cipher)
        hub = LiveEventHub(store: store)
        let afterRestart = LiveItemReader(
            try await hub.subscribe(
                practiceID: practice.id, role: .receptionist, userID: UserID(), tokenHash: "a", after: lastSeen))
        #expect(await afterRestart.next() == .ready(headSequence: lastSeen + 3))
        #expect(await afterRestart.events(3).map(\.resourceID) == made)
        // New changes continue the same sequence.
        _ = try await store.createPatient(Patient(name: "Fido", species: .dog, ownerID: owner.id), scope: scope)
        #expect(await afterRestart.events(1).first?.sequence == lastSeen + 4)
        try store.close()
    }

    @Test("a practice never sees another practice's events, on the stream or in the change feed")
    func practiceIsolation() async throws {
        let fixture = try await ScheduleFixture.make()
        let adminB = fixture.app.adminB
        let beta = LiveItemReader(
            try await fixture.app.services.live.subscribe(
                practiceID: fixture.app.practiceB.id, role: .administrator,
                userID: adminB.id, tokenHash: "b"))
        _ = await beta.next()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) {
                #expect($0.status == .created)
            }
            let tokenB = try await client.login("admin@beta.example")
            try await client.call("/api/v1/changes?after=0", token: tokenB) { response in
                let feed = try JSONDecoder().decode(LiveFeedBody.self, from: Data(buffer: response.body))
                #expect(feed.items.isEmpty)
                #expect(feed.headSequence == 0)
            }
            try await client.call("/api/v1/changes?after=0&limit=1000", token: token) { response in
                let feed = try JSONDecoder().decode(LiveFeedBody.self, from: Data(buffer: response.body))
                #expect(feed.items.contains { $0.kind == AppointmentEventKind.booked })
            }
        }
        #expect(await beta.next(within: 1.5) == nil)
    }

    @Test("signing out ends that session's stream over HTTP with a final session_ended frame")
    func signOutEndsStream() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let body = Task {
                try await client.call("/api/v1/events", token: token) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
                    return String(buffer: response.body)
                }
            }
            // Wait until the stream is registered, then sign out.
            for _ in 0..<100 where fixture.services.live.subscriberCount(practiceID: fixture.practiceA.id) == 0 {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await client.call("/api/v1/auth/logout", .post, token: token) { #expect($0.status == .noContent) }
            let text = try await body.value
            #expect(text.contains("event: ready\n"))
            #expect(
                text.hasSuffix("event: session_ended\ndata: {\"reason\":\"The session ended; sign in again.\"}\n\n"))
        }
    }

    @Test(
        "a resume point the log never reached, or one pruned away, ends the stream with reset; the feed says reset too")
    func resetOnUnknownPosition() async throws {
        let fixture = try await ScheduleFixture.make()
        let store = fixture.app.store
        let head = try await store.eventHead(practiceID: fixture.app.practiceA.id)
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let text = try await client.call(
                "/api/v1/events", token: token, headers: [HTTPField.Name("Last-Event-ID")!: "\(head + 50)"]
            ) {
                String(buffer: $0.body)
            }
            #expect(
                text.contains(
                    "event: reset\ndata: {\"headSequence\":\(head),\"reason\":\"The log never reached that position.\"}"
                ))
            // Everything so far is pruned: a client that last saw event 1 has missed some.
            #expect(try await store.pruneEvents(before: Date().addingTimeInterval(60)) == Int(head))
            try await client.call("/api/v1/changes?after=1", token: token) { response in
                let feed = try JSONDecoder().decode(LiveFeedBody.self, from: Data(buffer: response.body))
                #expect(feed.reset && feed.items.isEmpty && feed.nextAfter == head)
            }
            let pruned = try await client.call("/api/v1/events?after=1", token: token) { String(buffer: $0.body) }
            #expect(pruned.contains("event: reset\n"))
            // Continuing from the head is fine and sees the next change.
            try await client.call("/api/v1/changes?after=\(head)", token: token) { response in
                let feed = try JSONDecoder().decode(LiveFeedBody.self, from: Data(buffer: response.body))
                #expect(!feed.reset && feed.items.isEmpty && feed.headSequence == head)
            }
        }
    }

    @Test("the change feed pages through the log in order with hasMore and nextAfter")
    func changeFeedPages() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            var sequences: [Int64] = []
            var after: Int64 = 0
            var pages = 0
            while true {
                let feed = try await client.call("/api/v1/changes?after=\(after)&limit=2", token: token) {
                    try JSONDecoder().decode(LiveFeedBody.self, from: Data(buffer: $0.body))
                }
                sequences += feed.items.map(\.sequence)
                after = feed.nextAfter
                pages += 1
                if !feed.hasMore { break }
            }
            let head = try await fixture.app.store.eventHead(practiceID: fixture.app.practiceA.id)
            #expect(head >= 4)
            #expect(sequences == Array(1...head))
            #expect(pages == Int((head + 1) / 2))
            try await client.call("/api/v1/changes?limit=0", token: token) {
                #expect($0.status == .unprocessableContent)
            }
        }
    }

    @Test("a subscriber that stops reading is cut off with a reset instead of buffering without limit")
    func slowSubscriberIsCut() async throws {
        let fixture = try await AppFixture.make()
        var configuration = LiveEventHub.Configuration()
        configuration.subscriberBuffer = 4
        let hub = LiveEventHub(store: fixture.store, configuration: configuration)
        let scope = AccessScope.system(fixture.practiceA.id)
        let slow = try await hub.subscribe(
            practiceID: fixture.practiceA.id, role: .receptionist, userID: UserID(), tokenHash: "s")
        let owner = try await fixture.store.createOwner(Owner(firstName: "Sam", lastName: "Slow"), scope: scope)
        for index in 0..<12 {
            _ = try await fixture.store.createPatient(
                Patient(name: "Pet \(index)", species: .dog, ownerID: owner.id), scope: scope)
        }
        try await Task.sleep(for: .milliseconds(300))
        // Only now does the client read: what waited, then the end.
        var items: [LiveItem] = []
        for await batch in slow { items += batch }
        guard case .ended(.reset)? = items.last else {
            Issue.record("expected a final reset, got \(items)")
            return
        }
        #expect(items.count <= 4 + 2)
        #expect(hub.subscriberCount(practiceID: fixture.practiceA.id) == 0)
    }

    @Test("kinds filter: a board that asks for triage changes gets only those")
    func kindsFilter() async throws {
        let fixture = try await ScheduleFixture.make()
        let board = try await Self.subscribe(fixture.app, kinds: [TriageEventKind.queueChanged])
        _ = await board.next()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        _ = try await fixture.app.store.createOwner(Owner(firstName: "Not", lastName: "Shown"), scope: scope)
        try await fixture.app.test { client in
            let token = try await client.login("technician@alpha.example")
            let json =
                #"""
                {"patientId":"\#(fixture.patient.id)","case":{"species":"dog",\#
                "findings":["rapid_abdominal_distension"]}}
                """#
            try await client.call("/api/v1/triage/assessments", .post, token: token, json: json) {
                #expect($0.status == .created)
            }
        }
        let event = try #require(await board.events(1).first)
        #expect(event.kind == TriageEventKind.queueChanged)
        #expect(event.payload["colour"] == "red")
        #expect(event.payload["patientID"] == fixture.patient.id.description)
    }

    @Test("an idle stream gets heartbeats; at a heartbeat a session that has ended elsewhere ends the stream")
    func heartbeatChecksSession() async throws {
        let fixture = try await AppFixture.make()
        var configuration = LiveEventHub.Configuration()
        configuration.pollInterval = .milliseconds(50)
        configuration.heartbeatInterval = .milliseconds(150)
        let hub = LiveEventHub(store: fixture.store, configuration: configuration)
        let running = Task { await hub.run() }
        defer { running.cancel() }
        let subscription = try await hub.subscribe(
            practiceID: fixture.practiceA.id, role: .technician, userID: UserID(), tokenHash: "h")
        let alive = Mutex(true)
        var frames = ServerSentEventStream(items: subscription, sessionIsActive: { alive.withLock { $0 } })
            .makeAsyncIterator()
        let ready = String(decoding: try #require(try await frames.next()), as: UTF8.self)
        #expect(ready.hasPrefix("retry: 2000\nevent: ready\ndata: {\"headSequence\":"))
        // The kinds to listen for come with it: every context's, so the web app keeps no list.
        let data = try #require(ready.split(separator: "\n").first { $0.hasPrefix("data: ") }?.dropFirst(6))
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        let kinds = try #require(frame["kinds"] as? [String])
        for kind in AppointmentEventKind.all + TriageEventKind.all + RecordEventKind.all + [MetricsUpdate.kind] {
            #expect(kinds.contains(kind), "the ready frame lists \(kind)")
        }
        #expect(Set(kinds).count == kinds.count)
        #expect(String(decoding: try #require(try await frames.next()), as: UTF8.self) == ": heartbeat\n\n")
        // Revoked on another instance: this one learns it at the next heartbeat.
        alive.withLock { $0 = false }
        let last = String(decoding: try #require(try await frames.next()), as: UTF8.self)
        #expect(last.hasPrefix("event: session_ended\n"))
        #expect(try await frames.next() == nil)
    }
}

private struct LiveIDBody: Decodable { let id: String }

private struct LiveFeedBody: Decodable {
    struct Item: Decodable {
        let sequence: Int64
        let kind: String
        let resourceId: String?
    }
    let items: [Item]
    let headSequence: Int64
    let nextAfter: Int64
    let hasMore: Bool
    let reset: Bool
}
