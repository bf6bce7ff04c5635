import Foundation
import Scheduling
import SharedKernel
import StoragePorts
import Testing

/// A booking names a patient, clinician, appointment type and room of its own practice; a
/// visit, an appointment and a clinician of its own. Held to both stores alike: the same 404,
/// nothing written, and the database itself refuses a row that breaks it, whoever writes it.
@Suite("References inside their practice (every store adapter)")
struct PracticeReferenceContractTests {
    /// The domain refusal `body` threw (`nil` when it threw nothing).
    static func refusal(_ body: () async throws -> Void) async -> DomainError? {
        do { try await body() } catch let error as DomainError { return error } catch {
            return .conflict(String(reflecting: error))
        }
        return nil
    }

    @Test(
        "booking a missing patient, another practice's patient or clinician: 404 naming it, nothing written",
        arguments: Adapter.available)
    func bookingNamesOwnPractice(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let north = try await SchedulingFixture.make(store, name: "North")
            let south = try await SchedulingFixture.make(store, name: "South")
            #expect(
                await Self.refusal { _ = try await north.book(north.consult, at: north.morning, patient: UUID()) }
                    == .notFound(resource: "patient"))
            #expect(
                await Self.refusal {
                    _ = try await north.book(north.consult, at: north.morning, patient: south.patient)
                }
                    == .notFound(resource: "patient"))
            #expect(
                await Self.refusal { _ = try await north.book(north.consult, at: north.morning, clinician: south.vet) }
                    == .notFound(resource: "clinician"))
            let week = TimeRange(
                start: north.morning.addingTimeInterval(-86_400), end: north.morning.addingTimeInterval(7 * 86_400))!
            for fixture in [north, south] {
                #expect(
                    try await store.scheduling.appointments(
                        scope: fixture.scope, overlapping: week, clinicianID: nil, orRoomType: nil
                    ).isEmpty)
            }
            // The practice's own references book.
            let booked = try await north.book(north.surgery, at: north.morning)
            #expect(booked.0.value.patientID == north.patient && booked.0.value.roomID == north.theatre.id)
        }
    }

    @Test(
        """
        the database refuses an appointment re-pointed at another practice's patient, clinician, type or room, \
        whoever writes it
        """,
        arguments: Adapter.available)
    func databaseChecksReferences(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let north = try await SchedulingFixture.make(store, name: "North")
            let south = try await SchedulingFixture.make(store, name: "South")
            let id = UUIDText.lowercase(try await north.book(north.surgery, at: north.morning).0.value.id.rawValue)
            let ownPatient = try await store.patient(scope: north.scope, name: "Bess")
            func text(_ uuid: UUID) -> String { UUIDText.lowercase(uuid) }
            let cases: [(column: String, foreign: UUID, own: UUID)] = [
                ("patient_id", south.patient, ownPatient),
                ("clinician_id", south.vet.id.rawValue, north.otherVet.id.rawValue),
                ("appointment_type_id", south.surgery.id.rawValue, north.surgery.id.rawValue),
                ("room_id", south.theatre.id.rawValue, north.theatre.id.rawValue),
            ]
            for (column, foreign, own) in cases {
                let reference = try #require(
                    PracticeReference.all.first { $0.table == "appointment" && $0.column == column })
                do {
                    try await store.rawSQL(
                        ["UPDATE appointment SET \(column) = '\(text(foreign))' WHERE id = '\(id)'"],
                        liftingProtections: false)
                    Issue.record("\(column): another practice's record was accepted")
                } catch {
                    #expect(
                        String(reflecting: error).contains(reference.name),
                        "\(column): \(String(reflecting: error).prefix(300))")
                }
                // The same statement naming the practice's own record is accepted: the check is
                // the practice, not the statement.
                try await store.rawSQL(
                    ["UPDATE appointment SET \(column) = '\(text(own))' WHERE id = '\(id)'"], liftingProtections: false)
            }
        }
    }
}
