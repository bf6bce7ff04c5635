import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// A practice with one general clinician working 08:00–18:00 every day, one exam room and a
/// 15-minute consultation type.
struct ScheduleFixture: Sendable {
    let app: AppFixture
    let clinician: Clinician
    let surgeon: Clinician
    let consultation: AppointmentType
    let patient: Patient
    /// 09:00 London time tomorrow.
    let nineTomorrow: Date

    static func make(clock: Clock = .system) async throws -> ScheduleFixture {
        let app = try await AppFixture.make(clock: clock)
        let scope = AccessScope.system(app.practiceA.id)
        let clinician = try await app.store.createClinician(
            Clinician(
                displayName: "Dr General", credentials: "BVSc",
                expertise: [
                    Expertise(specialty: .generalPractice, proficiency: 4, years: 8),
                    Expertise(specialty: .emergencyCriticalCare, proficiency: 3, years: 4),
                ],
                species: [.dog, .cat], maxAppointmentsPerDay: 40, complexityCeiling: 1), scope: scope)
        let surgeon = try await app.store.createClinician(
            Clinician(
                displayName: "Dr Surgeon", credentials: "DipECVS",
                expertise: [Expertise(specialty: .orthopedics, proficiency: 5, years: 12)], species: [.dog],
                maxAppointmentsPerDay: 10, complexityCeiling: 0.4), scope: scope)
        for person in [clinician, surgeon] {
            _ = try await app.store.setAvailability(
                ClinicianAvailability(
                    clinicianID: person.id,
                    weekly: (1...7).map { WeeklyInterval(weekday: $0, startMinute: 8 * 60, endMinute: 18 * 60) }),
                scope: scope, expectedVersion: nil)
        }
        _ = try await app.store.createRoom(Room(name: "Consult 1", type: .exam), scope: scope)
        let consultation = try await app.store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 15,
                requiredRoomType: .exam, fee: Money(minorUnits: 5000, currency: "GBP")), scope: scope)
        let owner = try await app.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let patient = try await app.store.createPatient(
            Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London")!
        let tomorrow = calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: Date()))!
        return ScheduleFixture(
            app: app, clinician: clinician, surgeon: surgeon, consultation: consultation, patient: patient,
            nineTomorrow: calendar.date(byAdding: .hour, value: 9, to: tomorrow)!)
    }

    func bookingJSON(start: Date, clinician: Clinician? = nil) -> String {
        #"""
        {"patientId":"\#(patient.id)","clinicianId":"\#((clinician ?? self.clinician).id)",\#
        "appointmentTypeId":"\#(consultation.id)","start":"\#(Timestamp.string(start))","durationMinutes":15}
        """#
    }
}

@Suite("Scheduling over HTTP")
struct SchedulingAPITests {
    @Test("64 concurrent clients racing for 10 slots: exactly one booking per slot, every other attempt a 409")
    func race() async throws {
        let fixture = try await ScheduleFixture.make()
        let starts = (0..<10).map { fixture.nineTomorrow.addingTimeInterval(Double($0) * 15 * 60) }
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<64 {
                    let json = fixture.bookingJSON(start: starts[attempt % 10])
                    group.addTask {
                        try await client.call("/api/v1/appointments", .post, token: token, json: json) {
                            $0.status.code
                        }
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 10)
            #expect(statuses.filter { $0 == 409 }.count == 54)
        }
        let booked = try await fixture.app.store.appointments(
            scope: .system(fixture.app.practiceA.id),
            overlapping: TimeRange(start: starts[0], end: starts[9].addingTimeInterval(3600))!)
        #expect(booked.count == 10)
        #expect(Set(booked.map(\.value.time.start)) == Set(starts))
    }

    @Test("a direct overlapping SQL insert is refused by the store itself")
    func triggerGuardsSQL() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) { #expect($0.status == .created) }
        }
        let start = Timestamp.milliseconds(fixture.nineTomorrow.addingTimeInterval(5 * 60))
        await #expect(throws: DatabaseError.self) {
            try await fixture.app.store.writer.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO appointment (id, practice_id, patient_id, clinician_id, appointment_type_id, \
                        start_ms, end_ms, occupied_end_ms,
                                                 status, holds_time, created_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'booked', 1, 'now')
                        """,
                    arguments: [
                        UUID().uuidString.lowercased(), fixture.app.practiceA.id.description,
                        fixture.patient.id.description,
                        fixture.clinician.id.description, fixture.consultation.id.description, start, start + 600_000,
                        start + 600_000,
                    ])
            }
        }
        // Nor can a stray statement free the time without changing the status.
        await #expect(throws: DatabaseError.self) {
            try await fixture.app.store.writer.write { db in
                try db.execute(sql: "UPDATE appointment SET holds_time = 0")
            }
        }
    }

    @Test("replaying a booking with the same Idempotency-Key 1,000 times creates one appointment")
    func idempotentBooking() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let json = fixture.bookingJSON(start: fixture.nineTomorrow)
            var ids = Set<String>()
            for _ in 0..<1000 {
                ids.insert(
                    try await client.call(
                        "/api/v1/appointments", .post, token: token, json: json,
                        headers: [HTTPField.Name("Idempotency-Key")!: "booking-42"]
                    ) { response in
                        #expect(response.status == .created)
                        return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
                    })
            }
            #expect(ids.count == 1)
        }
        let booked = try await fixture.app.store.appointments(
            scope: .system(fixture.app.practiceA.id),
            overlapping: TimeRange(start: fixture.nineTomorrow, end: fixture.nineTomorrow.addingTimeInterval(86_400))!)
        #expect(booked.count == 1)
    }

    @Test("a taken time answers 409 with the conflicting time and the nearest free alternatives")
    func conflictAlternatives() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) { #expect($0.status == .created) }
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) { response in
                #expect(response.status == .conflict)
                let body = try JSONDecoder().decode(ConflictBody.self, from: Data(buffer: response.body))
                #expect(Timestamp.date(body.conflictingStart ?? "") == fixture.nineTomorrow)
                #expect(!body.alternatives.isEmpty)
                #expect(!String(buffer: response.body).contains("Rex"))
            }
        }
    }

    @Test("free slots skip bookings; the lifecycle allows only legal transitions and records the actual duration")
    func slotsAndLifecycle() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let id = try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            let from = Timestamp.string(fixture.nineTomorrow)
            let to = Timestamp.string(fixture.nineTomorrow.addingTimeInterval(3600))
            try await client.call(
                """
                /api/v1/appointments/slots?from=\(from)&to=\(to)&appointmentTypeId=\(fixture.consultation.id)\
                &clinicianId=\(fixture.clinician.id)&durationMinutes=15
                """,
                token: token
            ) { response in
                #expect(response.status == .ok)
                let slots = try JSONDecoder().decode(SlotsBody.self, from: Data(buffer: response.body)).items.compactMap
                { Timestamp.date($0.start) }
                #expect(!slots.contains(fixture.nineTomorrow))
                #expect(slots.contains(fixture.nineTomorrow.addingTimeInterval(15 * 60)))
            }
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token, json: #"{"action":"complete"}"#
            ) { #expect($0.status == .conflict) }
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token, json: #"{"action":"cancel"}"#
            ) { #expect($0.status == .unprocessableContent) }
            // What each status means comes with the appointment, so the app keeps no status lists.
            let facts = StatusFactsBody.of
            try await client.call("/api/v1/appointments/\(id)", token: token) {
                let booked = try facts($0)
                #expect(booked == [true, true, false, true])
            }
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token, json: #"{"action":"check_in"}"#
            ) {
                let now = try facts($0)
                #expect($0.status == .ok)
                #expect(now == [true, true, true, true])
            }
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token, json: #"{"action":"start"}"#
            ) {
                let now = try facts($0)
                #expect($0.status == .ok)
                #expect(now == [true, false, true, true])
            }
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token,
                json: #"{"action":"complete","actualMinutes":22}"#
            ) { response in
                let completed = try facts(response)
                #expect(response.status == .ok)
                #expect(completed == [false, false, true, true])
                #expect(
                    String(buffer: response.body).contains("\"actualMinutes\":22")
                        || String(buffer: response.body).contains("\"actualMinutes\" : 22"))
            }
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token,
                json: #"{"action":"cancel","reason":"x"}"#
            ) { #expect($0.status == .conflict) }
        }
        let kinds = try await fixture.app.store.events(practiceID: fixture.app.practiceA.id, after: 0, limit: 1000)
            .events.map(\.kind)
        #expect(kinds.contains("appointment.booked"))
        #expect(kinds.contains("appointment.completed"))
    }

    @Test("matching ranks the clinicians with score parts and excludes one whose complexity ceiling is too low")
    func matching() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/matching", .post, token: token,
                json:
                    #"""
                    {"specialties":["orthopedics","general_practice"],"species":"dog","complexity":0.6,\#
                    "maxWaitMinutes":120}
                    """#
            ) { response in
                #expect(response.status == .ok)
                let body = try JSONDecoder().decode(MatchBody.self, from: Data(buffer: response.body))
                #expect(body.ranked.map(\.displayName) == ["Dr General"])
                #expect(body.excluded.map(\.displayName) == ["Dr Surgeon"])
                #expect(body.ranked[0].parts.count >= 5)
            }
            try await client.call(
                "/api/v1/matching", .post, token: token,
                json: #"{"specialties":["orthopedics"],"species":"dog","complexity":0.2}"#
            ) { response in
                let body = try JSONDecoder().decode(MatchBody.self, from: Data(buffer: response.body))
                #expect(body.ranked.first?.displayName == "Dr Surgeon")
            }
            try await client.call(
                "/api/v1/matching", .post, token: token,
                json: #"{"specialties":["wizardry"],"species":"dog","complexity":0.2}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field == "specialties[0]")
            }
        }
    }

    @Test(
        """
        intake: a red arrival joins the ER board with an on-duty clinician; a green one is offered slots within its \
        maximum wait
        """
    )
    func intake() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/intake", .post, token: token,
                json:
                    #"""
                    {"patientId":"\#(fixture.patient.id)","case":{"species":"dog","observations":{"seizingNow":true}}}
                    """#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(IntakeBody.self, from: Data(buffer: response.body))
                #expect(body.emergency)
                #expect(body.offeredSlots.isEmpty)
            }
            try await client.call("/api/v1/triage/queue", token: token) { response in
                let board = try JSONDecoder().decode(Board.self, from: Data(buffer: response.body))
                #expect(board.items.map(\.patientName) == ["Rex"])
            }
            try await client.call(
                "/api/v1/intake", .post, token: token,
                json: #"""
                    {"newPatient":{"owner":{"firstName":"Ann","lastName":"Lee","phones":[{"label":"mobile",\#
                    "number":"07700 900555"}]},
                     "patient":{"name":"Milo","species":"dog"}},
                     "case":{"species":"dog","onsetHoursAgo":30,"findings":["swelling"]}}
                    """#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(IntakeBody.self, from: Data(buffer: response.body))
                #expect(!body.emergency)
                #expect(!body.clinicians.isEmpty)
                #expect(
                    body.offeredSlots.allSatisfy {
                        (Timestamp.date($0.start) ?? .distantFuture) <= Date().addingTimeInterval(121 * 60)
                    })
            }
        }
    }

    @Test("a clinician's calendar feed is served by its secret URL until revoked")
    func calendarFeed() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let receptionist = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist,
                json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) { #expect($0.status == .created) }
            let admin = try await client.login("administrator@alpha.example")
            let url = try await client.call(
                "/api/v1/specialists/\(fixture.clinician.id)/calendar-feed", .post, token: admin
            ) { response in
                #expect(response.status == .created)
                return try JSONDecoder().decode(FeedBody.self, from: Data(buffer: response.body)).url
            }
            try await client.call(url, token: nil) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                #expect(text.hasPrefix("BEGIN:VCALENDAR\r\n"))
                #expect(text.contains("SUMMARY:"))
                #expect(text.contains("Rex"))
            }
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/calendar-feed", .delete, token: admin) {
                #expect($0.status == .noContent)
            }
            try await client.call(url, token: nil) { #expect($0.status == .notFound) }
            try await client.call("/calendar/guess", token: nil) { #expect($0.status == .notFound) }
        }
    }
}

struct ConflictBody: Decodable {
    struct Slot: Decodable { let start: String }
    let conflictingStart: String?
    let alternatives: [Slot]
}
struct SlotsBody: Decodable {
    struct Slot: Decodable { let start: String }
    let items: [Slot]
}
struct MatchBody: Decodable {
    struct Ranked: Decodable {
        struct Part: Decodable { let factor: String }
        let displayName: String
        let parts: [Part]
    }
    struct Excluded: Decodable { let displayName: String }
    let ranked: [Ranked]
    let excluded: [Excluded]
}
struct IntakeBody: Decodable {
    struct Slot: Decodable { let start: String }
    struct Clinician: Decodable { let displayName: String }
    let emergency: Bool
    let clinicians: [Clinician]
    let offeredSlots: [Slot]
}
struct FeedBody: Decodable { let url: String }

/// An appointment's status facts, as the API gives them.
private struct StatusFactsBody: Decodable {
    struct Facts: Decodable {
        let open: Bool
        let awaitingVisit: Bool
        let attended: Bool
        let holdsTime: Bool
    }
    let statusFacts: Facts

    /// `[open, awaitingVisit, attended, holdsTime]` of the appointment in `response`.
    @Sendable static func of(_ response: TestResponse) throws -> [Bool] {
        let facts = try JSONDecoder().decode(Self.self, from: Data(buffer: response.body)).statusFacts
        return [facts.open, facts.awaitingVisit, facts.attended, facts.holdsTime]
    }
}
