import Foundation
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Testing

/// The roster decisions both stores ask, without a store: what a new clinician must be, the
/// version a change must name, what a retirement leaves to re-plan, and what the trail and
/// the live stream hear of each.
@Suite("Clinician roster: one decision for both stores")
struct ClinicianRosterWriteTests {
    static let practice = PracticeID()
    let scope = AccessScope.system(Self.practice)
    let now = Timestamp.date("2026-11-30T09:00:00Z")!
    let vet = Clinician(
        displayName: "Dr Ana Silva", credentials: "DVM",
        expertise: [Expertise(specialty: .cardiology, proficiency: 4, years: 6)],
        species: [.dog, .cat], maxAppointmentsPerDay: 16, complexityCeiling: 0.8)

    func booked(_ start: String, status: AppointmentStatus = .booked) -> Versioned<Appointment> {
        let begin = Timestamp.date(start)!
        return Versioned(
            Appointment(
                practiceID: Self.practice, patientID: UUID(), clinicianID: vet.id.rawValue,
                appointmentTypeID: .init(), time: TimeRange(start: begin, end: begin.addingTimeInterval(1_800))!,
                status: status),
            version: 1)
    }

    @Test(
        "a new clinician works from version 1 with availability of their own; a bad interval is named as availability"
    )
    func create() throws {
        var retired = vet
        retired.retiredAt = now
        let availability = ClinicianAvailability(
            clinicianID: .init(), weekly: [WeeklyInterval(weekday: 1, from: (8, 0), to: (12, 0))])
        let created = try ClinicianRosterWrite.create(retired, availability: availability, scope: scope, now: now)
        #expect(created.clinician.version == 1 && created.clinician.value.retiredAt == nil)
        #expect(created.availability?.clinicianID == vet.id)
        #expect(created.audit.action == .clinicianCreate && created.audit.detail == "with availability")
        #expect(created.event.kind == ClinicianEventKind.created)

        let backwards = ClinicianAvailability(
            clinicianID: vet.id, weekly: [WeeklyInterval(weekday: 1, from: (12, 0), to: (8, 0))])
        do {
            _ = try ClinicianRosterWrite.create(vet, availability: backwards, scope: scope, now: now)
            Issue.record("accepted")
        } catch let error as ValidationError {
            #expect(error.errors.allSatisfy { $0.field.hasPrefix("availability.weekly") })
        }
    }

    @Test("a change names its fields and moves the version; an old version, a missing or retired clinician are refused")
    func update() throws {
        var change = ClinicianChange()
        change.maxAppointmentsPerDay = 12
        let current = Versioned(vet, version: 2)
        let changed = try ClinicianRosterWrite.update(
            change, current: current, expectedVersion: 2, scope: scope, now: now)
        #expect(changed.clinician.version == 3 && changed.clinician.value.maxAppointmentsPerDay == 12)
        #expect(changed.audit.detail == "fields=maxAppointmentsPerDay")
        #expect(changed.event.kind == ClinicianEventKind.updated)

        #expect(throws: DomainError.versionMismatch(current: 2)) {
            try ClinicianRosterWrite.update(change, current: current, expectedVersion: 1, scope: scope, now: now)
        }
        #expect(throws: DomainError.notFound(resource: "clinician")) {
            try ClinicianRosterWrite.update(change, current: nil, expectedVersion: nil, scope: scope, now: now)
        }
        let gone = try ClinicianRosterWrite.retire(current, expectedVersion: nil, booked: [], scope: scope, now: now)
        #expect(throws: DomainError.self) {
            try ClinicianRosterWrite.update(
                change, current: gone.clinician, expectedVersion: nil, scope: scope, now: now)
        }
    }

    @Test("retiring reports the bookings still to come, not one already under way, and counts them in the trail")
    func retire() throws {
        let later = booked("2026-12-01T10:00:00Z")
        let underWay = booked("2026-11-30T08:45:00Z", status: .inProgress)
        let retirement = try ClinicianRosterWrite.retire(
            Versioned(vet, version: 5), expectedVersion: 5, booked: [later, underWay], scope: scope, now: now)
        #expect(retirement.clinician.version == 6 && retirement.clinician.value.retiredAt == now)
        #expect(retirement.appointmentsToReplan.map(\.value.id) == [later.value.id])
        #expect(retirement.audit.detail == "open_appointments=1")
        #expect(retirement.event.kind == ClinicianEventKind.retired)
    }
}
