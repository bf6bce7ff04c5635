import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Testing

@testable import HTTPAPI

/// Where the parts meet: a stored patient's own record triages, what is offered is booked,
/// "earliest" is the first slot offered, and the HTTP details clients notice.
@Suite("Seams between records, triage, matching and booking")
struct SeamsAPITests {
    /// Wednesday 10 June 2026, 09:00 in London (08:00Z): the practice is open 07:00–20:00.
    static let nine = Timestamp.date("2026-06-10T08:00:00Z")!

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    /// Books `start…start + minutes` for `clinician` in exactly `room`, as a past booking of a
    /// practice's history may hold it (the room chosen by whoever made it).
    static func bookInRoom(_ fixture: ScheduleFixture, clinician: Clinician, room: Room, start: Date, minutes: Int)
        async throws
    {
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let type = fixture.consultation
        let patient = fixture.patient.id.rawValue
        let practiceID = fixture.app.practiceA.id
        _ = try await fixture.app.store.bookAppointment(
            scope: scope, patientID: patient, clinicianID: clinician.id.rawValue, appointmentTypeID: type.id,
            reason: nil, staffNotes: nil,
            assessmentID: nil, idempotencyKey: nil,
            reads: { _, _ in
                BookingReads(
                    clinicianPeriod: TimeRange(start: start, end: start.addingTimeInterval(86_400))!,
                    roomWindow: TimeRange(start: start, end: start.addingTimeInterval(Double(minutes) * 60))!)
            },
            decide: { _ in
                var appointment = try Appointment.book(
                    practiceID: practiceID, patientID: patient, clinicianID: clinician.id.rawValue, type: type,
                    start: start, durationMinutes: minutes, now: start
                ).current
                appointment.roomID = room.id
                return appointment
            })
    }

    /// A second clinician working 08:00–18:00 every day.
    static func otherClinician(_ fixture: ScheduleFixture, specialty: Specialty, species: Species) async throws
        -> Clinician
    {
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let other = try await fixture.app.store.createClinician(
            Clinician(
                displayName: "Dr Other", credentials: "BVSc",
                expertise: [Expertise(specialty: specialty, proficiency: 3, years: 3)], species: [species],
                maxAppointmentsPerDay: 20,
                complexityCeiling: 1), scope: scope)
        _ = try await fixture.app.store.setAvailability(
            ClinicianAvailability(
                clinicianID: other.id,
                weekly: (1...7).map { WeeklyInterval(weekday: $0, startMinute: 8 * 60, endMinute: 18 * 60) }),
            scope: scope, expectedVersion: nil)
        return other
    }

    @Test("an intact patient is triaged from its own record: intake answers its level instead of refusing case.sex")
    func intactPatientIntake() async throws {
        let fixture = try await ScheduleFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        for sex in Patient.Sex.allCases {
            let patient = try await fixture.app.store.createPatient(
                Patient(name: "Daisy", species: .dog, sex: sex, ownerID: fixture.patient.ownerID), scope: scope)
            try await fixture.app.test { client in
                let token = try await client.login("receptionist@alpha.example")
                let body =
                    #"""
                    {"patientId":"\#(patient.id)","case":{"species":"dog","sex":"\#(sex.rawValue)",\#
                    "vitals":{"mucousMembranes":"cyanotic"}}}
                    """#
                try await client.call("/api/v1/intake", .post, token: token, json: body) { response in
                    #expect(response.status == .ok, "\(sex): \(String(buffer: response.body))")
                    let triage = try #require(try Self.json(response)["triage"] as? [String: Any])
                    #expect(triage["level"] as? Int == 1)
                }
            }
        }
    }

    @Test(
        """
        two exam rooms each taken for half of a time: the time is not offered, and booking it is refused naming the room
        """
    )
    func fragmentedRooms() async throws {
        let fixture = try await ScheduleFixture.make(clock: .fixed(Self.nine.addingTimeInterval(-86_400)))
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let second = try await fixture.app.store.createRoom(Room(name: "Consult 2", type: .exam), scope: scope)
        let first = try #require(try await fixture.app.store.rooms(scope: scope).first { $0.name == "Consult 1" })
        // Others hold Consult 1 at 09:00–09:30 and Consult 2 at 09:30–10:00.
        let other = try await Self.otherClinician(fixture, specialty: .generalPractice, species: .dog)
        try await Self.bookInRoom(fixture, clinician: other, room: first, start: Self.nine, minutes: 30)
        try await Self.bookInRoom(
            fixture, clinician: fixture.surgeon, room: second, start: Self.nine.addingTimeInterval(1_800), minutes: 30)
        let quarterPast = Self.nine.addingTimeInterval(15 * 60)
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let slots =
                "/api/v1/appointments/slots?from=\(Timestamp.string(Self.nine))"
                + "&to=\(Timestamp.string(Self.nine.addingTimeInterval(7_200)))"
                + "&appointmentTypeId=\(fixture.consultation.id)&clinicianId=\(fixture.clinician.id)"
                + "&durationMinutes=30&limit=50"
            let offered = try await client.call(slots, token: token) { response in
                try #require(try Self.json(response)["items"] as? [[String: Any]]).compactMap { $0["start"] as? String }
            }
            #expect(!offered.contains(Timestamp.string(quarterPast)))
            let body =
                #"""
                {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(fixture.clinician.id)",\#
                "appointmentTypeId":"\#(fixture.consultation.id)","start":"\#(Timestamp.string(quarterPast))",\#
                "durationMinutes":30}
                """#
            try await client.call("/api/v1/appointments", .post, token: token, json: body) { response in
                #expect(response.status == .conflict)
                let problem = try Self.json(response)
                #expect((problem["detail"] as? String)?.contains("No exam room is free") == true)
                #expect((problem["alternatives"] as? [Any])?.isEmpty == false)
            }
            // What is offered is booked.
            let start = try #require(offered.first)
            let booking =
                #"""
                {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(fixture.clinician.id)",\#
                "appointmentTypeId":"\#(fixture.consultation.id)","start":"\#(start)","durationMinutes":30}
                """#
            try await client.call("/api/v1/appointments", .post, token: token, json: booking) { response in
                #expect(response.status == .created, "offered \(start): \(String(buffer: response.body))")
            }
        }
    }

    @Test("a refusal on a closed day offers the nearest free times on other days, not an empty list")
    func alternativesAcrossDays() async throws {
        let fixture = try await ScheduleFixture.make(clock: .fixed(Self.nine.addingTimeInterval(-86_400)))
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/practice/closures", .post, token: admin,
                json: #"{"firstDay":"2026-06-10","reason":"Flooded car park"}"#
            ) { #expect($0.status == .created) }
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: Self.nine)
            ) { response in
                #expect(response.status == .conflict)
                let problem = try Self.json(response)
                #expect((problem["detail"] as? String)?.contains("Flooded car park") == true)
                let alternatives = try #require(problem["alternatives"] as? [[String: Any]])
                #expect(!alternatives.isEmpty)
                for alternative in alternatives {
                    let start = try #require((alternative["start"] as? String).flatMap(Timestamp.date))
                    // The closed local day is 2026-06-09T23:00Z–2026-06-10T23:00Z.
                    #expect(
                        start < Self.nine.addingTimeInterval(-9 * 3_600)
                            || start >= Self.nine.addingTimeInterval(15 * 3_600), "\(start)")
                }
            }
        }
    }

    @Test("each recommended clinician's earliest time is the first slot the intake offers with them")
    func earliestIsFirstOffered() async throws {
        let fixture = try await ScheduleFixture.make(clock: .fixed(Self.nine))
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let room = try #require(try await fixture.app.store.rooms(scope: scope).first)
        // The only exam room is in use until 10:00; the clinicians themselves are free at 09:00.
        let other = try await Self.otherClinician(fixture, specialty: .dermatology, species: .cat)
        try await Self.bookInRoom(fixture, clinician: other, room: room, start: Self.nine, minutes: 60)
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let body =
                #"""
                {"patientId":"\#(fixture.patient.id)","case":{"species":"dog","observations":{"pain":"mild"},\#
                "onsetHoursAgo":3}}
                """#
            try await client.call("/api/v1/intake", .post, token: token, json: body) { response in
                #expect(response.status == .ok)
                let answer = try Self.json(response)
                let offered = try #require(answer["offeredSlots"] as? [[String: Any]])
                #expect(!offered.isEmpty)
                #expect(offered.first?["start"] as? String == "2026-06-10T09:00:00Z")
                let ranked = try #require(answer["clinicians"] as? [[String: Any]])
                for clinician in ranked {
                    let id = try #require(clinician["clinicianId"] as? String)
                    guard let first = offered.first(where: { $0["clinicianId"] as? String == id }) else { continue }
                    #expect(clinician["earliestStart"] as? String == first["start"] as? String)
                }
            }
        }
    }

    @Test("HEAD works wherever GET does, with GET's headers and no body")
    func head() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            for path in ["/", "/health", "/openapi.yaml", "/openapi.json", "/app/main.js"] {
                try await client.execute(uri: path, method: .head) { response in
                    #expect(response.status == .ok, "HEAD \(path)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.contentLength].flatMap(Int.init).map { $0 > 0 } ?? true, "HEAD \(path)")
                }
            }
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/me", .head, token: token) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test("the contract is served as JSON too, equal to the YAML document")
    func openAPIJSON() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/openapi.json", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                let document = try Self.json(response)
                #expect(document["openapi"] as? String == "3.1.0")
                #expect((document["paths"] as? [String: Any])?["/api/v1/intake"] != nil)
            }
        }
    }

    @Test("a client that accepts application/json gets the 409 and 422 problems it caused, not 400")
    func acceptJSON() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let accept: HTTPFields = [.accept: "application/json"]
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow),
                headers: accept
            ) { #expect($0.status == .created) }
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow),
                headers: accept
            ) { response in
                #expect(response.status == .conflict)
                #expect(response.headers[.contentType]?.hasPrefix("application/problem+json") == true)
            }
            try await client.call(
                "/api/v1/triage/evaluate", .post, token: token, json: #"{"species":"dog","vitals":{"heartRate":-4}}"#,
                headers: accept
            ) { #expect($0.status == .unprocessableContent) }
        }
    }
}
