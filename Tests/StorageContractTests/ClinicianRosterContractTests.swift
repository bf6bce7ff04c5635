import Foundation
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Testing

extension StoreUnderTest {
    /// The store's clinician roster port.
    var roster: any ClinicianRoster {
        if let postgres { return postgres.store }
        return sqlite!
    }

    /// The store's appointment details port.
    var appointmentDetails: any AppointmentDetailsRepository {
        if let postgres { return postgres.store }
        return sqlite!
    }
}

/// The roster and appointment details on either store: a clinician's lifecycle with versions
/// and idempotency, retirement reporting what to re-plan, calendar feeds, and what staff read
/// of an appointment beyond the schedule.
@Suite("Storage contract: clinician roster and appointment details")
struct ClinicianRosterContractTests {
    static func newVet(_ name: String) -> Clinician {
        Clinician(
            displayName: name, credentials: "BVSc", expertise: [], species: [.dog, .cat], maxAppointmentsPerDay: 20,
            complexityCeiling: 1)
    }

    @Test(
        "a clinician naming another practice's account or an unknown appointment type is refused naming each, unkept",
        arguments: Adapter.available)
    func foreignReferences(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Roster")
            let other = try await SchedulingFixture.make(store, name: "Elsewhere")
            let stranger = try await store.accounts.createUser(
                scope: other.scope, email: "vet@elsewhere.example", displayName: "Dr Elsewhere", role: .veterinarian,
                passwordHash: "h")
            var vet = Self.newVet("Dr Far")
            vet.userID = stranger.id
            vet.preferences.preferredAppointmentTypeIDs = [
                fixture.consult.id.rawValue, other.consult.id.rawValue, UUID(), fixture.surgery.id.rawValue,
            ]
            do {
                _ = try await store.roster.createClinician(
                    vet, availability: nil, scope: fixture.scope, idempotencyKey: nil)
                Issue.record("a clinician with another practice's references was kept")
            } catch let error as ValidationError {
                #expect(
                    error.errors.map(\.field) == [
                        "userId", "preferences.preferredAppointmentTypeIds[1]",
                        "preferences.preferredAppointmentTypeIds[2]",
                    ])
            }
            #expect(try await store.scheduling.clinicians(scope: fixture.scope).allSatisfy { $0.id != vet.id })
            // The practice's own references are taken, on a change as on creation.
            vet.userID = nil
            vet.preferences.preferredAppointmentTypeIDs = [fixture.surgery.id.rawValue]
            let created = try await store.roster.createClinician(
                vet, availability: nil, scope: fixture.scope, idempotencyKey: nil)
            #expect(created.value.preferences.preferredAppointmentTypeIDs == [fixture.surgery.id.rawValue])
        }
    }

    @Test(
        "a clinician is created with their week once per key, changed under a version, and refused naming the field",
        arguments: Adapter.available)
    func lifecycle(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Roster")
            let vet = Self.newVet("Dr Nia Newton")
            let week = ClinicianAvailability(
                clinicianID: vet.id, weekly: (1...5).map { WeeklyInterval(weekday: $0, from: (8, 30), to: (17, 0)) })
            let key = IdempotencyKey(key: "clinician-1", fingerprint: "c1")
            let created = try await store.roster.createClinician(
                vet, availability: week, scope: fixture.scope, idempotencyKey: key)
            let replay = try await store.roster.createClinician(
                Self.newVet("Dr Nia Newton"), availability: week, scope: fixture.scope,
                idempotencyKey: key)
            #expect(created.version == 1 && replay.value.id == created.value.id)
            #expect(
                try await store.scheduling.clinicians(scope: fixture.scope).filter { $0.displayName == "Dr Nia Newton" }
                    .count == 1)
            #expect(try await store.roster.availabilities(scope: fixture.scope)[vet.id]?.value.weekly.count == 5)

            let changed = try await store.roster.updateClinician(
                id: vet.id, change: ClinicianChange(credentials: "BVSc MRCVS"), scope: fixture.scope,
                expectedVersion: created.version)
            #expect(changed.version == 2 && changed.value.credentials == "BVSc MRCVS")
            await #expect(throws: DomainError.self) {
                _ = try await store.roster.updateClinician(
                    id: vet.id, change: ClinicianChange(credentials: "stale"), scope: fixture.scope,
                    expectedVersion: created.version)
            }
            do {
                _ = try await store.roster.updateClinician(
                    id: vet.id, change: ClinicianChange(maxAppointmentsPerDay: 0), scope: fixture.scope,
                    expectedVersion: nil)
                Issue.record("a clinician with no appointments a day was accepted")
            } catch let error as ValidationError {
                #expect(error.errors.map(\.field) == ["maxAppointmentsPerDay"])
            }
            #expect(
                try await store.roster.clinician(scope: fixture.scope, id: vet.id).value.credentials == "BVSc MRCVS")
            // Another practice sees none of it.
            let other = try await SchedulingFixture.make(store, name: "Elsewhere")
            await #expect(throws: DomainError.self) {
                _ = try await store.roster.clinician(scope: other.scope, id: vet.id)
            }
        }
    }

    @Test(
        """
        retiring a clinician reports their bookings to re-plan, drops them from the active list, and keeps them readable
        """,
        arguments: Adapter.available)
    func retirement(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Retire")
            let booked = try await fixture.book(fixture.consult, at: fixture.morning).0
            try await store.roster.createCalendarFeed(
                tokenHash: String(repeating: "a", count: 64), clinicianID: fixture.vet.id, scope: fixture.scope)
            let found = try await store.roster.calendarFeed(tokenHash: String(repeating: "a", count: 64))
            #expect(found?.0 == fixture.scope.practiceID && found?.1 == fixture.vet.id)

            let current = try await store.roster.clinician(scope: fixture.scope, id: fixture.vet.id)
            let retirement = try await store.roster.retireClinician(
                id: fixture.vet.id, scope: fixture.scope, expectedVersion: current.version)
            #expect(retirement.appointmentsToReplan.map(\.value.id) == [booked.value.id])
            #expect(retirement.clinician.value.retiredAt != nil)
            #expect(!(try await store.scheduling.clinicians(scope: fixture.scope)).contains { $0.id == fixture.vet.id })
            #expect(try await store.roster.clinician(scope: fixture.scope, id: fixture.vet.id).value.retiredAt != nil)
            // A retired clinician's feeds stop answering.
            #expect(try await store.roster.calendarFeed(tokenHash: String(repeating: "a", count: 64)) == nil)
        }
    }

    @Test(
        "calendar feeds are revoked together; a patient's earlier clinicians are known once they have seen them",
        arguments: Adapter.available)
    func feedsAndContinuity(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Feeds")
            for hash in ["b", "c"].map({ String(repeating: $0, count: 64) }) {
                try await store.roster.createCalendarFeed(
                    tokenHash: hash, clinicianID: fixture.otherVet.id, scope: fixture.scope)
            }
            try await store.roster.revokeCalendarFeeds(clinicianID: fixture.otherVet.id, scope: fixture.scope)
            #expect(try await store.roster.calendarFeed(tokenHash: String(repeating: "b", count: 64)) == nil)
            #expect(try await store.roster.calendarFeed(tokenHash: String(repeating: "c", count: 64)) == nil)

            #expect(try await store.roster.previousClinicians(patientID: fixture.patient, scope: fixture.scope).isEmpty)
            let arrived = try await MedicalRecordContractTests.arrivedAppointment(fixture, at: fixture.morning)
            let clock = store.clock.clock
            let started = try arrived.value.decide(.start, at: clock.now())
            let running = try await store.scheduling.saveAppointment(
                started, scope: fixture.scope, expectedVersion: arrived.version)
            store.clock.advance(900)
            let done = try running.value.decide(.complete(actualMinutes: 15), at: clock.now())
            _ = try await store.scheduling.saveAppointment(done, scope: fixture.scope, expectedVersion: running.version)
            #expect(
                try await store.roster.previousClinicians(patientID: fixture.patient, scope: fixture.scope) == [
                    fixture.vet.id
                ])
            let completed = try await store.appointmentDetails.completedAppointments(scope: fixture.scope)
            #expect(completed.map(\.0.id) == [arrived.value.id] && completed.first?.species == "dog")
        }
    }

    @Test(
        """
        details carry the reason and notes under a version; a patient's appointments page newest first with last seen \
        and next
        """,
        arguments: Adapter.available)
    func details(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let fixture = try await SchedulingFixture.make(store, name: "Details")
            let first = try await fixture.book(fixture.consult, at: fixture.morning).0
            let second = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(86_400)).0
            let third = try await fixture.book(fixture.consult, at: fixture.morning.addingTimeInterval(2 * 86_400)).0
            var details = try await store.appointmentDetails.appointmentDetails(
                scope: fixture.scope, id: first.value.id)
            #expect(details.reason == "check-up" && details.staffNotes == nil && details.basis == nil)
            details = try await store.appointmentDetails.updateAppointmentNotes(
                scope: fixture.scope, id: first.value.id, reason: "limping",
                staffNotes: "nervous dog", expectedVersion: first.version)
            #expect(
                details.reason == "limping" && details.staffNotes == "nervous dog"
                    && details.appointment.version == first.version + 1)
            await #expect(throws: DomainError.self) {
                _ = try await store.appointmentDetails.updateAppointmentNotes(
                    scope: fixture.scope, id: first.value.id, reason: "x", staffNotes: nil,
                    expectedVersion: first.version)
            }

            let page = try await store.appointmentDetails.patientAppointments(
                scope: fixture.scope, patientID: fixture.patient, limit: 2, before: nil)
            #expect(page.page.items.map(\.appointment.value.id) == [third.value.id, second.value.id])
            #expect(page.next?.value.id == first.value.id && page.lastSeen == nil)
            let rest = try await store.appointmentDetails.patientAppointments(
                scope: fixture.scope, patientID: fixture.patient, limit: 2,
                before: page.page.nextCursor)
            #expect(rest.page.items.map(\.appointment.value.id) == [first.value.id] && rest.page.nextCursor == nil)
            #expect(
                try await store.appointmentDetails.appointmentType(scope: fixture.scope, id: fixture.consult.id)?.name
                    == "Consultation")
            #expect(
                try await store.appointmentDetails.schedulingPractice(scope: fixture.scope).id
                    == fixture.scope.practiceID)
        }
    }
}
