import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StorageSQLite
import Testing
import Triage

@testable import HTTPAPI
@testable import PracticeServices

/// `metrics.updated` on the live stream: announced when the figures' records change, at most
/// once per practice per interval, gathering what came in between, and only to the roles that
/// may read analytics.
@Suite("metrics.updated")
struct MetricsUpdateTests {
    static func appointmentEvent(_ practice: PracticeID, kind: String = AppointmentEventKind.booked, start: String)
        -> DomainEvent
    {
        DomainEvent(
            practiceID: practice, kind: kind, occurredAt: Date(), resourceID: UUID().uuidString.lowercased(),
            payload: ["start": start, "end": start])
    }

    @Test(
        "the notifier announces at once after a quiet spell, then at most once per interval with everything in between")
    func debounce() async throws {
        let fixture = try await AppFixture.make()
        let store = fixture.store
        let a = fixture.practiceA.id
        let b = fixture.practiceB.id
        let notifier = MetricsUpdateNotifier(store: store, clock: store.clock, interval: 30)
        // What happened before the notifier started is not news.
        try await store.recordEvents([Self.appointmentEvent(a, start: "2026-03-02T09:00:00.000Z")], scope: .system(a))
        #expect(try await notifier.step(now: 0).isEmpty)
        #expect(try await notifier.step(now: 1).isEmpty)

        try await store.recordEvents([Self.appointmentEvent(a, start: "2026-03-04T09:00:00.000Z")], scope: .system(a))
        let first = try await notifier.step(now: 2)
        #expect(first.map(\.kind) == [MetricsUpdate.kind])
        #expect(first.first?.practiceID == a)
        #expect(first.first?.payload["changes"] == "1")
        #expect(first.first?.payload["changedFrom"] == "2026-03-04T09:00:00.000Z")

        // Three more changes inside the interval, and one that moves no figure: nothing yet.
        for day in ["03", "05", "06"] {
            try await store.recordEvents(
                [Self.appointmentEvent(a, kind: AppointmentEventKind.cancelled, start: "2026-03-\(day)T09:00:00.000Z")],
                scope: .system(a))
        }
        try await store.recordEvents(
            [DomainEvent(practiceID: a, kind: "owner.created", occurredAt: Date())], scope: .system(a))
        #expect(try await notifier.step(now: 10).isEmpty)
        #expect(try await notifier.step(now: 31.9).isEmpty)
        let second = try await notifier.step(now: 32)
        #expect(second.count == 1)
        #expect(second.first?.payload["changes"] == "3")
        #expect(second.first?.payload["kinds"] == AppointmentEventKind.cancelled)
        #expect(second.first?.payload["changedFrom"] == "2026-03-03T09:00:00.000Z")
        #expect(second.first?.payload["changedTo"] == "2026-03-06T09:00:00.000Z")
        // Its own events and quiet time announce nothing.
        #expect(try await notifier.step(now: 100).isEmpty)

        // Another practice has its own interval, and sees none of A's events.
        try await store.recordEvents([Self.appointmentEvent(b, start: "2026-03-02T09:00:00.000Z")], scope: .system(b))
        try await store.recordEvents([Self.appointmentEvent(a, start: "2026-03-02T09:00:00.000Z")], scope: .system(a))
        let both = try await notifier.step(now: 101)
        #expect(Set(both.map(\.practiceID)) == [a, b])

        let logA = try await store.events(practiceID: a, after: 0, limit: 100).events.filter {
            $0.kind == MetricsUpdate.kind
        }
        let logB = try await store.events(practiceID: b, after: 0, limit: 100).events.filter {
            $0.kind == MetricsUpdate.kind
        }
        #expect(logA.count == 3)
        #expect(logB.count == 1)
        #expect(logA.allSatisfy { $0.resourceType == "metrics" })
    }

    @Test("a real change through the store is announced, on the stream of roles that read analytics only")
    func delivery() async throws {
        let fixture = try await AppFixture.make()
        let store = fixture.store
        let a = fixture.practiceA.id
        let hub = LiveEventHub(store: store)
        let reception = LiveItemReader(
            try await hub.subscribe(practiceID: a, role: .receptionist, userID: UserID(), tokenHash: "r"))
        let technician = LiveItemReader(
            try await hub.subscribe(practiceID: a, role: .technician, userID: UserID(), tokenHash: "t"))
        _ = await reception.next()
        _ = await technician.next()
        let notifier = MetricsUpdateNotifier(store: store, clock: store.clock, interval: 30)
        try await notifier.step(now: 0)

        let owner = try await store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: .system(a))
        let patient = try await store.createPatient(
            Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: .system(a))
        let engine = TriageEngine()
        _ = try await store.recordAssessment(
            scope: .system(a), patientID: patient.id.rawValue, caseJSON: Data("{}".utf8),
            result: engine.evaluate(TriageCase(species: .dog)), arrival: Date())
        let announced = try await notifier.step(now: 1)
        #expect(announced.count == 1)
        #expect(announced.first?.payload["kinds"] == "patient.triaged,triage.queue_changed")

        let seenByReception = await reception.events(5).map(\.kind)
        #expect(seenByReception.contains(MetricsUpdate.kind))
        let seenByTechnician = await technician.events(4).map(\.kind)
        #expect(seenByTechnician.contains("patient.triaged"))
        #expect(!seenByTechnician.contains(MetricsUpdate.kind))
        #expect(await technician.next(within: 1) == nil)
    }
}
