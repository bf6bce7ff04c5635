import Foundation
import SharedKernel
import Testing

@Suite("Event bus")
struct EventBusTests {
    @Test("subscribers see only their practice's events, and a reconnect replays what they missed")
    func tenancyAndReplay() async throws {
        let bus = EventBus(retention: 10)
        let a = PracticeID(), b = PracticeID()
        let first = await bus.publish(DomainEvent(practiceID: a, kind: "appointment.booked", occurredAt: Date()))
        await bus.publish(DomainEvent(practiceID: b, kind: "appointment.booked", occurredAt: Date()))
        await bus.publish(DomainEvent(practiceID: a, kind: "appointment.cancelled", occurredAt: Date()))
        let stream = await bus.subscribe(practiceID: a, after: first.sequence)
        var iterator = stream.makeAsyncIterator()
        let replayed = await iterator.next()
        #expect(replayed?.kind == "appointment.cancelled")
        #expect(replayed?.practiceID == a)
        await bus.publish(DomainEvent(practiceID: b, kind: "x", occurredAt: Date()))
        await bus.publish(DomainEvent(practiceID: a, kind: "patient.triaged", occurredAt: Date()))
        #expect(await iterator.next()?.kind == "patient.triaged")
    }
}
