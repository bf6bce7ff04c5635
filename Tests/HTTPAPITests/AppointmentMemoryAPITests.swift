import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StorageSQLite
import Synchronization
import Testing

@testable import HTTPAPI

/// A clock the test moves forward.
final class SteppedClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func set(_ date: Date) { current.withLock { $0 = date } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var clock: Clock { Clock(now: { [self] in now }) }
}

@Suite("Appointments that remember why they were booked")
struct AppointmentMemoryAPITests {
    @Test("an intake booking returns its assessment, level and the match it was booked on when read back")
    func intakeBookingRemembers() async throws {
        let clock = SteppedClock(London.time(daysFromToday: 2, 10))
        let fixture = try await ScheduleFixture.make(clock: clock.clock)
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let intake = try await client.call(
                "/api/v1/intake", .post, token: token,
                json:
                    #"""
                    {"patientId":"\#(fixture.patient.id)","case":{"species":"dog","onsetHoursAgo":30,\#
                    "findings":["swelling"]}}
                    """#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                return try JSONDecoder().decode(IntakeOffer.self, from: Data(buffer: response.body))
            }
            let slot = try #require(intake.offeredSlots.first)
            let typeID = try #require(intake.appointmentTypeId)
            let booking =
                #"""
                {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(slot.clinicianId)",\#
                "appointmentTypeId":"\#(typeID)","start":"\#(slot.start)","assessmentId":"\#(intake.assessmentId)",\#
                "reason":"Swollen left hock","staffNotes":"Owner anxious; call on arrival"}
                """#
            let id = try await client.call("/api/v1/appointments", .post, token: token, json: booking) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
            }
            try await client.call("/api/v1/appointments/\(id)", token: token) { response in
                #expect(response.status == .ok)
                let body = try JSONDecoder().decode(RememberedAppointment.self, from: Data(buffer: response.body))
                #expect(body.reason == "Swollen left hock")
                #expect(body.staffNotes == "Owner anxious; call on arrival")
                let basis = try #require(body.intake)
                #expect(basis.assessmentId == intake.assessmentId)
                #expect(basis.level == intake.triage.level)
                let position = try #require(basis.rankedPosition)
                #expect(intake.clinicians[position - 1].clinicianId == slot.clinicianId)
                #expect(basis.reasons.map(\.factor) == intake.clinicians[position - 1].parts.map(\.factor))
                #expect(basis.reasons.contains { $0.factor == "expertise" && !$0.detail.isEmpty })
            }
            // An assessment of another patient cannot be borrowed.
            let other = try await fixture.app.store.createPatient(
                Patient(name: "Bella", species: .dog, ownerID: fixture.patient.ownerID),
                scope: .system(fixture.app.practiceA.id))
            let borrowed =
                #"""
                {"patientId":"\#(other.id)","clinicianId":"\#(slot.clinicianId)","appointmentTypeId":"\#(typeID)",\#
                "start":"\#(Timestamp.string(London.time(daysFromToday: 3, 9)))",\#
                "assessmentId":"\#(intake.assessmentId)"}
                """#
            try await client.call("/api/v1/appointments", .post, token: token, json: borrowed) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["assessmentId"])
            }
            // Another practice does not see the appointment at all.
            let beta = try await client.login("admin@beta.example")
            try await client.call("/api/v1/appointments/\(id)", token: beta) { #expect($0.status == .notFound) }
        }
    }

    @Test("a patient's appointments, past and future, answer when they were last in and when they are next due")
    func patientHistory() async throws {
        let clock = SteppedClock(London.time(daysFromToday: 1, 8))
        let fixture = try await ScheduleFixture.make(clock: clock.clock)
        try await fixture.app.test { client in
            var token = try await client.login("veterinarian@alpha.example")
            // Sessions end after 30 idle minutes, so a jump of the clock needs a new sign-in.
            func advance(to date: Date) async throws {
                clock.set(date)
                token = try await client.login("veterinarian@alpha.example")
            }
            func book(_ start: Date, reason: String) async throws -> String {
                let json =
                    #"""
                    {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(fixture.clinician.id)",\#
                    "appointmentTypeId":"\#(fixture.consultation.id)","start":"\#(Timestamp.string(start))",\#
                    "durationMinutes":15,"reason":"\#(reason)"}
                    """#
                return try await client.call("/api/v1/appointments", .post, token: token, json: json) { response in
                    #expect(response.status == .created, "\(String(buffer: response.body))")
                    return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
                }
            }
            let visited = try await book(London.time(daysFromToday: 1, 9), reason: "Vaccination booster")
            let missed = try await book(London.time(daysFromToday: 1, 11), reason: "Nail clip")
            let upcoming = try await book(London.time(daysFromToday: 8, 9), reason: "Recheck")
            try await advance(to: London.time(daysFromToday: 1, 9))
            for action in ["check_in", "start"] {
                try await client.call(
                    "/api/v1/appointments/\(visited)/transitions", .post, token: token,
                    json: #"{"action":"\#(action)"}"#
                ) { #expect($0.status == .ok) }
            }
            try await advance(to: London.time(daysFromToday: 1, 9, 20))
            try await client.call(
                "/api/v1/appointments/\(visited)/transitions", .post, token: token, json: #"{"action":"complete"}"#
            ) { #expect($0.status == .ok) }
            try await advance(to: London.time(daysFromToday: 1, 12))
            try await client.call(
                "/api/v1/appointments/\(missed)/transitions", .post, token: token, json: #"{"action":"no_show"}"#
            ) { #expect($0.status == .ok) }
            try await advance(to: London.time(daysFromToday: 3, 12))

            try await client.call("/api/v1/patients/\(fixture.patient.id)/appointments", token: token) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(PatientAppointmentsBody.self, from: Data(buffer: response.body))
                #expect(body.items.map(\.id) == [upcoming, missed, visited])
                #expect(body.items.map(\.reason) == ["Recheck", "Nail clip", "Vaccination booster"])
                #expect(body.lastSeen?.id == visited)
                #expect(body.next?.id == upcoming)
            }
            // Paging walks the same list.
            let cursor = try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/appointments?limit=2", token: token
            ) { response in
                let body = try JSONDecoder().decode(PatientAppointmentsBody.self, from: Data(buffer: response.body))
                #expect(body.items.map(\.id) == [upcoming, missed])
                return body.nextCursor ?? ""
            }
            try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/appointments?limit=2&cursor=\(cursor)", token: token
            ) { response in
                let body = try JSONDecoder().decode(PatientAppointmentsBody.self, from: Data(buffer: response.body))
                #expect(body.items.map(\.id) == [visited])
                #expect(body.nextCursor == nil)
            }
            // Staff notes change under If-Match; a stale version changes nothing.
            try await client.call(
                "/api/v1/appointments/\(upcoming)", .patch, token: token,
                json: #"{"staffNotes":"Bring previous X-rays"}"#,
                headers: [.ifMatch: "\"1\""]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] == "\"2\"")
            }
            try await client.call(
                "/api/v1/appointments/\(upcoming)", .patch, token: token, json: #"{"staffNotes":"overwritten"}"#,
                headers: [.ifMatch: "\"1\""]
            ) { #expect($0.status == .preconditionFailed) }
            try await client.call("/api/v1/appointments/\(upcoming)", token: token) { response in
                let body = try JSONDecoder().decode(RememberedAppointment.self, from: Data(buffer: response.body))
                #expect(body.staffNotes == "Bring previous X-rays" && body.reason == "Recheck")
            }
            let beta = try await client.login("admin@beta.example")
            try await client.call("/api/v1/patients/\(fixture.patient.id)/appointments", token: beta) {
                #expect($0.status == .notFound)
            }
        }
        let actions = try await fixture.app.store.auditEntries(
            scope: .system(fixture.app.practiceA.id), limit: 200, before: nil
        ).items.map(\.action)
        #expect(actions.contains("patient.appointments.read") && actions.contains("appointment.notes.update"))
    }

    @Test("an intake offers first the clinicians who prefer the appointment type")
    func preferredTypeFirst() async throws {
        let clock = SteppedClock(London.time(daysFromToday: 2, 10))
        let fixture = try await ScheduleFixture.make(clock: clock.clock)
        let scope = AccessScope.system(fixture.app.practiceA.id)
        // A second general clinician, ranked below Dr General, who prefers consultations.
        let keen = try await fixture.app.store.createClinician(
            Clinician(
                displayName: "Dr Keen", credentials: "BVSc",
                expertise: [Expertise(specialty: .generalPractice, proficiency: 2, years: 1)],
                species: [.dog], maxAppointmentsPerDay: 30, complexityCeiling: 1,
                preferences: CaseloadPreferences(preferredAppointmentTypeIDs: [fixture.consultation.id.rawValue])),
            availability: ClinicianAvailability(
                clinicianID: Identifier(),
                weekly: (1...7).map { WeeklyInterval(weekday: $0, startMinute: 480, endMinute: 1080) }),
            scope: scope, idempotencyKey: nil)
        _ = try await fixture.app.store.createRoom(Room(name: "Consult 2", type: .exam), scope: scope)
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/intake", .post, token: token,
                json:
                    #"""
                    {"patientId":"\#(fixture.patient.id)","appointmentTypeId":"\#(fixture.consultation.id)",\#
                    "case":{"species":"dog","onsetHoursAgo":30,"findings":["swelling"]}}
                    """#
            ) { response in
                let body = try JSONDecoder().decode(IntakeOffer.self, from: Data(buffer: response.body))
                let keenRank = body.clinicians.firstIndex { $0.clinicianId == keen.value.id.description }
                let generalRank = body.clinicians.firstIndex { $0.clinicianId == fixture.clinician.id.description }
                #expect((generalRank ?? 99) < (keenRank ?? -1))
                #expect(body.offeredSlots.first?.clinicianId == keen.value.id.description)
            }
        }
    }
}

struct IntakeOffer: Decodable {
    struct Slot: Decodable {
        let clinicianId: String
        let start: String
    }
    struct Ranked: Decodable {
        struct Part: Decodable { let factor: String }
        let clinicianId: String
        let parts: [Part]
    }
    struct Triage: Decodable { let level: Int }
    let assessmentId: String
    let appointmentTypeId: String?
    let triage: Triage
    let clinicians: [Ranked]
    let offeredSlots: [Slot]
}
struct RememberedAppointment: Decodable {
    struct Basis: Decodable {
        struct Reason: Decodable {
            let factor: String
            let detail: String
        }
        let assessmentId: String
        let level: Int
        let rankedPosition: Int?
        let reasons: [Reason]
    }
    let reason: String?
    let staffNotes: String?
    let intake: Basis?
    let visitId: String?
}
struct PatientAppointmentsBody: Decodable {
    struct Item: Decodable {
        let id: String
        let reason: String?
    }
    let items: [Item]
    let nextCursor: String?
    let lastSeen: IDBody?
    let next: IDBody?
}
