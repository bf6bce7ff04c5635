import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Scheduling
import SharedKernel
import Specialists
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// A cardiologist as an administrator would add them, working every day 08:00–18:00.
private let newCardiologist = #"""
    {"displayName":"Dr Nadia Okafor","credentials":"BVetMed DipECVIM-CA (Cardiology)",
     "expertise":[{"specialty":"cardiology","proficiency":5,"years":11},{"specialty":"internal_medicine",\#
    "proficiency":4,"years":11}],
     "species":["dog","cat"],"maxAppointmentsPerDay":16,"complexityCeiling":1,
     "availability":{"weekly":[{"weekday":1,"startMinute":480,"endMinute":1080},{"weekday":2,"startMinute":480,\#
    "endMinute":1080},
       {"weekday":3,"startMinute":480,"endMinute":1080},{"weekday":4,"startMinute":480,"endMinute":1080},
       {"weekday":5,"startMinute":480,"endMinute":1080},{"weekday":6,"startMinute":480,"endMinute":1080},
       {"weekday":7,"startMinute":480,"endMinute":1080}]}}
    """#

@Suite("Clinician administration over HTTP")
struct ClinicianAdminAPITests {
    @Test("a clinician created through the API is matched first for their specialty and can be booked at once")
    func createdIsMatchedAndBookable() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let created = try await client.call("/api/v1/specialists", .post, token: admin, json: newCardiologist) {
                response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                #expect(response.headers[.eTag] == "\"1\"")
                return try JSONDecoder().decode(SpecialistBody.self, from: Data(buffer: response.body))
            }
            #expect(created.displayName == "Dr Nadia Okafor")
            #expect(created.retiredAt == nil)

            let receptionist = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/matching", .post, token: receptionist,
                json: #"{"specialties":["cardiology"],"species":"dog","complexity":0.7,"maxWaitMinutes":2880}"#
            ) { response in
                let body = try JSONDecoder().decode(RankedBody.self, from: Data(buffer: response.body))
                #expect(body.ranked.first?.clinicianId == created.id)
                #expect(body.ranked.first?.earliestStart != nil)
            }
            let json =
                #"""
                {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(created.id)",\#
                "appointmentTypeId":"\#(fixture.consultation.id)","start":"\#(Timestamp.string(fixture.nineTomorrow))\#
                ","durationMinutes":15}
                """#
            try await client.call("/api/v1/appointments", .post, token: receptionist, json: json) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
            }
            try await client.call("/api/v1/specialists/\(created.id)", token: receptionist) { response in
                #expect(response.status == .ok)
                let decoded = try JSONDecoder().decode(SpecialistBody.self, from: Data(buffer: response.body))
                #expect(decoded.expertise.map(\.specialty) == ["cardiology", "internal_medicine"])
            }
        }
        let audit = try await fixture.app.store.auditEntries(
            scope: .system(fixture.app.practiceA.id), limit: 200, before: nil
        ).items.map(\.action)
        #expect(audit.contains("clinician.create"))
    }

    @Test(
        """
        a retired clinician is never offered again, cannot be booked, and their open appointments are listed for \
        re-planning
        """
    )
    func retiredIsNeverOffered() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let receptionist = try await client.login("receptionist@alpha.example")
            let booked = try await client.call(
                "/api/v1/appointments", .post, token: receptionist,
                json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/retire", .post, token: admin) {
                response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(RetirementBody.self, from: Data(buffer: response.body))
                #expect(body.specialist.retiredAt != nil)
                #expect(body.appointmentsToReplan.map(\.id) == [booked])
            }
            // The appointment is kept as it was: reported, not cancelled.
            let stored = try await fixture.app.store.appointment(
                scope: .system(fixture.app.practiceA.id), id: Identifier(uuidString: booked)!)
            #expect(stored.value.status == .booked)

            let from = Timestamp.string(fixture.nineTomorrow)
            let to = Timestamp.string(fixture.nineTomorrow.addingTimeInterval(8 * 3600))
            try await client.call(
                "/api/v1/appointments/slots?from=\(from)&to=\(to)&appointmentTypeId=\(fixture.consultation.id)",
                token: receptionist
            ) { response in
                let body = try JSONDecoder().decode(SlotClinicians.self, from: Data(buffer: response.body))
                #expect(!body.items.isEmpty)
                #expect(!body.items.contains { $0.clinicianId == fixture.clinician.id.description })
            }
            try await client.call(
                "/api/v1/matching", .post, token: receptionist,
                json: #"{"specialties":["general_practice"],"species":"dog","complexity":0.1}"#
            ) { response in
                let body = try JSONDecoder().decode(RankedBody.self, from: Data(buffer: response.body))
                #expect(!body.ranked.contains { $0.clinicianId == fixture.clinician.id.description })
                #expect(!body.excluded.contains { $0.clinicianId == fixture.clinician.id.description })
            }
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist,
                json: fixture.bookingJSON(start: fixture.nineTomorrow.addingTimeInterval(3600))
            ) { response in
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(problem.detail?.contains("retired") == true)
            }
            try await client.call("/api/v1/specialists", token: receptionist) { response in
                #expect(!String(buffer: response.body).contains(fixture.clinician.id.description))
            }
            try await client.call("/api/v1/specialists?includeRetired=true", token: receptionist) { response in
                #expect(String(buffer: response.body).contains(fixture.clinician.id.description))
            }
            try await client.call(
                "/api/v1/specialists/\(fixture.clinician.id)", .patch, token: admin,
                json: #"{"credentials":"BVSc MRCVS"}"#
            ) {
                #expect($0.status == .conflict)
            }
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/retire", .post, token: admin) {
                #expect($0.status == .conflict)
            }
        }
        // Other devices learn of it from the event log, written in the same transaction.
        let events = try await fixture.app.store.events(practiceID: fixture.app.practiceA.id, after: 0, limit: 500)
            .events
        #expect(
            events.filter { $0.kind == "clinician.retired" }.map(\.resourceID) == [fixture.clinician.id.description])
    }

    @Test("updates take If-Match, name every bad field, change nothing when refused, and are administrator-only")
    func updates() async throws {
        let fixture = try await ScheduleFixture.make()
        let id = fixture.clinician.id
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/specialists/\(id)", .patch, token: admin,
                json:
                    #"""
                    {"credentials":"BVSc MRCVS CertAVP","maxAppointmentsPerDay":12,\#
                    "preferences":{"maxConsecutiveSurgeryMinutes":180}}
                    """#,
                headers: [.ifMatch: "\"1\""]
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(response.headers[.eTag] == "\"2\"")
                let body = try JSONDecoder().decode(SpecialistBody.self, from: Data(buffer: response.body))
                #expect(body.credentials == "BVSc MRCVS CertAVP" && body.maxAppointmentsPerDay == 12)
            }
            try await client.call(
                "/api/v1/specialists/\(id)", .patch, token: admin, json: #"{"credentials":"stale"}"#,
                headers: [.ifMatch: "\"1\""]
            ) {
                #expect($0.status == .preconditionFailed)
            }
            // Two entries for one specialty, and a preferred type from another practice.
            try await client.call(
                "/api/v1/specialists/\(id)", .patch, token: admin,
                json: #"""
                    {"expertise":[{"specialty":"cardiology","proficiency":3,"years":2},{"specialty":"cardiology",\#
                    "proficiency":4,"years":5}],
                     "preferences":{"preferredAppointmentTypeIds":["\#(UUID())"]}}
                    """#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["expertise[1].specialty"])
            }
            try await client.call(
                "/api/v1/specialists/\(id)", .patch, token: admin,
                json: #"{"preferences":{"preferredAppointmentTypeIds":["\#(UUID())"]}}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["preferences.preferredAppointmentTypeIds[0]"])
            }
            try await client.call(
                "/api/v1/specialists/\(id)", .patch, token: admin,
                json: #"{"expertise":[{"specialty":"cardiology","proficiency":6,"years":2}]}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["expertise[0].proficiency"])
            }
            let vet = try await client.login("veterinarian@alpha.example")
            try await client.call("/api/v1/specialists/\(id)", .patch, token: vet, json: #"{"credentials":"x"}"#) {
                #expect($0.status == .forbidden)
            }
            try await client.call("/api/v1/specialists", .post, token: vet, json: newCardiologist) {
                #expect($0.status == .forbidden)
            }
            try await client.call("/api/v1/specialists/\(id)/retire", .post, token: vet) {
                #expect($0.status == .forbidden)
            }
        }
        let stored = try await fixture.app.store.clinician(scope: .system(fixture.app.practiceA.id), id: id)
        #expect(stored.version == 2)
        #expect(stored.value.expertise.map(\.specialty) == [.generalPractice, .emergencyCriticalCare])
        #expect(stored.value.preferences.maxConsecutiveSurgeryMinutes == 180)
    }

    @Test("another practice's clinician is not found, for reading, changing and retiring")
    func otherPractice() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let adminB = try await client.login("admin@beta.example")
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)", token: adminB) {
                #expect($0.status == .notFound)
            }
            try await client.call(
                "/api/v1/specialists/\(fixture.clinician.id)", .patch, token: adminB, json: #"{"credentials":"x"}"#
            ) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/retire", .post, token: adminB) {
                #expect($0.status == .notFound)
            }
            try await client.call("/api/v1/specialists?includeRetired=true", token: adminB) { response in
                #expect(!String(buffer: response.body).contains(fixture.clinician.id.description))
            }
        }
        let stored = try await fixture.app.store.clinician(
            scope: .system(fixture.app.practiceA.id), id: fixture.clinician.id)
        #expect(stored.version == 1 && stored.value.retiredAt == nil)
    }

    @Test(
        "a surgeon who stands at most three hours at a stretch is not offered a surgery that would make the run longer")
    func consecutiveSurgery() async throws {
        let fixture = try await ScheduleFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let store = fixture.app.store
        _ = try await store.createRoom(Room(name: "Theatre 1", type: .surgery), scope: scope)
        let surgery = try await store.createAppointmentType(
            AppointmentType(
                name: "Cruciate repair", defaultDurationMinutes: 90, requiredRoomType: .surgery,
                fee: Money(minorUnits: 150_000, currency: "GBP")), scope: scope)
        _ = try await store.updateClinician(
            id: fixture.clinician.id,
            change: ClinicianChange(preferences: CaseloadPreferences(maxConsecutiveSurgeryMinutes: 180)),
            scope: scope, expectedVersion: nil)
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            func book(_ start: Date) async throws -> HTTPResponse.Status {
                try await client.call(
                    "/api/v1/appointments", .post, token: token,
                    json: #"""
                        {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(fixture.clinician.id)",\#
                        "appointmentTypeId":"\#(surgery.id)","start":"\#(Timestamp.string(start))"}
                        """#
                ) { $0.status }
            }
            #expect(try await book(fixture.nineTomorrow) == .created)
            #expect(try await book(fixture.nineTomorrow.addingTimeInterval(90 * 60)) == .created)
            // A third operation straight after would make 4 h 30 of surgery without a break.
            #expect(try await book(fixture.nineTomorrow.addingTimeInterval(180 * 60)) == .conflict)
            // After a break it is fine.
            #expect(try await book(fixture.nineTomorrow.addingTimeInterval(240 * 60)) == .created)
        }
    }
}

struct SpecialistBody: Decodable {
    struct Item: Decodable { let specialty: String }
    let id: String
    let displayName: String
    let credentials: String
    let expertise: [Item]
    let maxAppointmentsPerDay: Int
    let retiredAt: String?
}
struct RetirementBody: Decodable {
    let specialist: SpecialistBody
    let appointmentsToReplan: [IDBody]
}
struct RankedBody: Decodable {
    struct Ranked: Decodable {
        let clinicianId: String
        let earliestStart: String?
    }
    struct Excluded: Decodable { let clinicianId: String }
    let ranked: [Ranked]
    let excluded: [Excluded]
}
struct SlotClinicians: Decodable {
    struct Slot: Decodable {
        let clinicianId: String
        let start: String
    }
    let items: [Slot]
}
