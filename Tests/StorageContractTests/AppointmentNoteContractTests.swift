import Foundation
import Scheduling
import SharedKernel
import StoragePorts
import Testing

extension StoreUnderTest {
    /// The store's appointment-note port.
    var appointmentNotes: any AppointmentNoteRepository {
        if let postgres { return postgres.store }
        return sqlite!
    }
}

/// Notes on appointments on either store: kept in order, sealed, once per idempotency key,
/// never another practice's.
@Suite("Storage contract: appointment notes")
struct AppointmentNoteContractTests {
    @Test(
        """
        notes are kept oldest first with their authors, a retry adds nothing, another practice sees nothing; audited \
        and published
        """,
        arguments: Adapter.available)
    func notesInOrder(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Notes")
            let other = try await SchedulingFixture.make(store, name: "Elsewhere")
            let appointment = try await fixture.book(fixture.consult, at: fixture.morning).0.value
            let now = store.clock.clock.now()
            let first = try AppointmentNote.write(
                "  Owner rang: running 10 minutes late\n", on: appointment.id, authorID: "a", authorName: "Grace",
                at: now)
            #expect(first.text == "Owner rang: running 10 minutes late")
            let key = IdempotencyKey(key: "note-1", fingerprint: "n1")
            let stored = try await store.appointmentNotes.addAppointmentNote(
                first, scope: fixture.scope, idempotencyKey: key)
            #expect(stored == first)
            store.clock.advance(60)
            let replay = try await store.appointmentNotes.addAppointmentNote(
                try AppointmentNote.write(
                    "Owner rang: running 10 minutes late", on: appointment.id, authorID: "a", authorName: "Grace",
                    at: store.clock.clock.now()), scope: fixture.scope, idempotencyKey: key)
            #expect(replay.id == first.id)
            let second = try AppointmentNote.write(
                "Nervous with men: female vet please", on: appointment.id, authorID: "b", authorName: "Amelia",
                at: store.clock.clock.now())
            _ = try await store.appointmentNotes.addAppointmentNote(second, scope: fixture.scope, idempotencyKey: nil)
            let notes = try await store.appointmentNotes.appointmentNotes(
                scope: fixture.scope, appointmentID: appointment.id)
            #expect(notes.map(\.text) == [first.text, second.text] && notes.map(\.authorName) == ["Grace", "Amelia"])

            // Another practice can neither read nor add to it.
            await #expect(throws: DomainError.self) {
                _ = try await store.appointmentNotes.appointmentNotes(scope: other.scope, appointmentID: appointment.id)
            }
            await #expect(throws: DomainError.self) {
                _ = try await store.appointmentNotes.addAppointmentNote(
                    try AppointmentNote.write("Not mine", on: appointment.id, authorID: nil, authorName: "X", at: now),
                    scope: other.scope,
                    idempotencyKey: nil)
            }
            #expect(
                try await store.appointmentNotes.appointmentNotes(scope: fixture.scope, appointmentID: appointment.id)
                    .count == 2)

            let counts = try await store.appointmentNotes.appointmentNoteCounts(
                scope: fixture.scope, appointmentIDs: [appointment.id])
            #expect(counts == [appointment.id: 2])
            let foreign = try await store.appointmentNotes.appointmentNoteCounts(
                scope: other.scope, appointmentIDs: [appointment.id])
            #expect(foreign.isEmpty, "another practice counts none of them")
            let events = try await store.events.events(practiceID: fixture.scope.practiceID, after: 0, limit: 500)
                .events
                .filter { $0.kind == AppointmentEventKind.noteAdded }
            #expect(
                events.count == 2 && events.allSatisfy { !$0.payload.values.contains { $0.contains("rang") } },
                "the event never carries the text")
            let audit = try await store.audit.auditEntries(
                scope: fixture.scope, limit: 100, before: nil, resourceType: ResourceKind.appointment.rawValue,
                resourceID: appointment.id.description
            ).items.map(\.action)
            #expect(
                audit.filter { $0 == "appointment.note.add" }.count == 2 && audit.contains("appointment.notes.read"))
        }
    }

    @Test("a blank or overlong note is refused naming text")
    func refusals() {
        let id = Identifier<Appointment>()
        #expect(throws: ValidationError(field: "text", message: "must not be blank")) {
            _ = try AppointmentNote.write(" \n ", on: id, authorID: nil, authorName: "A", at: Date())
        }
        #expect(throws: ValidationError.self) {
            _ = try AppointmentNote.write(
                String(repeating: "x", count: AppointmentNote.maximumLength + 1), on: id, authorID: nil,
                authorName: "A", at: Date())
        }
    }
}
