import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("The visit record over HTTP")
struct VisitAPITests {
    /// Books Rex at 09:00 on the day `days` from today and takes him through check-in, start and completion.
    static func attendedAppointment(
        _ fixture: ScheduleFixture, clock: SteppedClock, client: any TestClientProtocol, days: Int
    ) async throws -> String {
        clock.set(London.time(daysFromToday: days, 8))
        var token = try await client.login("veterinarian@alpha.example")
        let json =
            #"""
            {"patientId":"\#(fixture.patient.id)","clinicianId":"\#(fixture.clinician.id)",\#
            "appointmentTypeId":"\#(fixture.consultation.id)",\#
            "start":"\#(Timestamp.string(London.time(daysFromToday: days, 9)))","durationMinutes":15}
            """#
        let id = try await client.call("/api/v1/appointments", .post, token: token, json: json) {
            try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
        }
        clock.set(London.time(daysFromToday: days, 9))
        token = try await client.login("veterinarian@alpha.example")
        for action in ["check_in", "start", "complete"] {
            try await client.call(
                "/api/v1/appointments/\(id)/transitions", .post, token: token, json: #"{"action":"\#(action)"}"#
            ) { #expect($0.status == .ok) }
        }
        return id
    }

    @Test(
        """
        a visit's follow-up appears on the recall list on its date, stays until a later visit, and the appointment \
        links to its visit
        """
    )
    func followUpRecall() async throws {
        let clock = SteppedClock(London.time(daysFromToday: 1, 8))
        let fixture = try await ScheduleFixture.make(clock: clock.clock)
        let scope = AccessScope.system(fixture.app.practiceA.id)
        let problem = PatientRecords.Problem(patientID: fixture.patient.id, name: "Chronic otitis externa")
        try await fixture.app.store.addRecordEntry(.problem(problem), patientID: fixture.patient.id, scope: scope)
        try await fixture.app.test { client in
            let appointment = try await Self.attendedAppointment(fixture, clock: clock, client: client, days: 1)
            clock.set(London.time(daysFromToday: 1, 9, 30))
            var token = try await client.login("veterinarian@alpha.example")
            let dueDay = London.date(daysFromToday: 15)
            let visitID = try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/visits", .post, token: token,
                json: #"""
                    {"appointmentId":"\#(appointment)","chiefComplaint":"Lame on the left hind after a walk",
                     "vitals":{"heartRate":96,"respiratoryRate":24,"temperature":{"value":38.6,"unit":"C"},\#
                    "mucousMembranes":"pink"},
                     "diagnoses":[{"name":"Cranial cruciate ligament rupture, left","certainty":"presumptive",\#
                    "addToProblemList":true},
                                  {"name":"Otitis externa flare","problemId":"\#(problem.id)"}],
                     "treatmentPlan":{"approaches":["medical","surgical"],"summary":"Meloxicam, strict rest; TPLO if \#
                    no improvement",
                                      "procedures":[{"name":"TPLO, left stifle"}]},
                     "followUpRequired":true,"followUpDate":"\#(dueDay)","followUpReason":"Recheck left stifle"}
                    """#
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(VisitBody.self, from: Data(buffer: response.body))
                #expect(body.clinicianId == fixture.clinician.id.description)
                #expect(body.vitals?.heartRate == 96)
                #expect(body.diagnoses[0].problemId != nil)
                #expect(body.diagnoses[1].problemId == problem.id.description)
                return body.id
            }
            try await client.call("/api/v1/appointments/\(appointment)", token: token) { response in
                let body = try JSONDecoder().decode(RememberedAppointment.self, from: Data(buffer: response.body))
                #expect(body.visitId == visitID)
            }
            try await client.call("/api/v1/patients/\(fixture.patient.id)/record", token: token) { response in
                #expect(String(buffer: response.body).contains("Cranial cruciate ligament rupture, left"))
            }
            // The day before it is due, nothing; on the day, due; after it, overdue.
            func recalls(on days: Int, _ hour: Int = 9) async throws -> RecallsBody {
                clock.set(London.time(daysFromToday: days, hour))
                token = try await client.login("receptionist@alpha.example")
                return try await client.call("/api/v1/recalls/due?withinDays=0", token: token) { response in
                    #expect(response.status == .ok)
                    return try JSONDecoder().decode(RecallsBody.self, from: Data(buffer: response.body))
                }
            }
            let before = try await recalls(on: 14)
            #expect(before.dueSoon.isEmpty && before.overdue.isEmpty)
            let onTheDay = try await recalls(on: 15)
            #expect(onTheDay.dueSoon.map(\.sourceId) == [visitID])
            #expect(onTheDay.dueSoon.first?.kind == "follow_up")
            #expect(onTheDay.dueSoon.first?.dueDate == dueDay)
            #expect(onTheDay.dueSoon.first?.patientName == "Rex")
            #expect(onTheDay.dueSoon.first?.description == "Recheck left stifle")
            let after = try await recalls(on: 18)
            #expect(after.overdue.map(\.sourceId) == [visitID])
            // Rex comes back: the recall is answered.
            _ = try await Self.attendedAppointment(fixture, clock: clock, client: client, days: 19)
            clock.set(London.time(daysFromToday: 19, 9, 30))
            token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/visits", .post, token: token,
                json: #"{"chiefComplaint":"Stifle recheck","diagnoses":[{"name":"Improving","certainty":"confirmed"}]}"#
            ) {
                #expect($0.status == .created)
            }
            let answered = try await recalls(on: 20)
            #expect(answered.dueSoon.isEmpty && answered.overdue.isEmpty)
        }
        let entries = try await fixture.app.store.events(practiceID: fixture.app.practiceA.id, after: 0, limit: 500)
            .events
            .filter { $0.kind == "record.entry_added" }.compactMap { $0.payload["entryType"] }
        #expect(entries.filter { $0 == "visit" }.count == 2)
        #expect(entries.filter { $0 == "problem" }.count == 2)
    }

    @Test(
        """
        a visit with impossible vitals, an unknown problem, a surgical plan without a procedure and an undated \
        follow-up is refused whole, every field named
        """
    )
    func refusedWhole() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/visits", .post, token: token,
                json: #"""
                    {"chiefComplaint":"Collapsed","vitals":{"heartRate":900,"heartrate":80},
                     "diagnoses":[{"name":"Syncope","problemId":"\#(UUID())","addToProblemList":true}],
                     "treatmentPlan":{"approaches":["surgical"]},"followUpRequired":true}
                    """#
            ) { response in
                #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
                let fields = Set(try Problem(response).errors?.map(\.field) ?? [])
                #expect(
                    fields == [
                        "vitals.heartRate", "vitals.heartrate", "diagnoses[0].problemId",
                        "diagnoses[0].addToProblemList",
                        "treatmentPlan.procedures", "followUpDate",
                    ])
            }
            try await client.call("/api/v1/patients/\(fixture.patient.id)/visits", token: token) { response in
                let list = try JSONDecoder().decode(VisitList.self, from: Data(buffer: response.body))
                #expect(list.items.isEmpty)
            }
            // An appointment not attended has no visit to record.
            let booked = try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/visits", .post, token: token,
                json: #"{"appointmentId":"\#(booked)","chiefComplaint":"Vaccination","diagnoses":[{"name":"Healthy"}]}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["appointmentId"])
            }
            let receptionist = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/visits", .post, token: receptionist,
                json: #"{"chiefComplaint":"Vaccination","diagnoses":[{"name":"Healthy"}]}"#
            ) { #expect($0.status == .forbidden) }
            let beta = try await client.login("admin@beta.example")
            try await client.call(
                "/api/v1/patients/\(fixture.patient.id)/visits", .post, token: beta,
                json: #"{"chiefComplaint":"Vaccination","diagnoses":[{"name":"Healthy"}]}"#
            ) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/patients/\(fixture.patient.id)/visits", token: beta) {
                #expect($0.status == .notFound)
            }
        }
        let record = try await fixture.app.store.medicalRecord(
            scope: .system(fixture.app.practiceA.id), patientID: fixture.patient.id
        ).0
        #expect(record.problems.isEmpty)
    }

    @Test("an appointment has one visit record")
    func oneVisitPerAppointment() async throws {
        let clock = SteppedClock(London.time(daysFromToday: 1, 8))
        let fixture = try await ScheduleFixture.make(clock: clock.clock)
        try await fixture.app.test { client in
            let appointment = try await Self.attendedAppointment(fixture, clock: clock, client: client, days: 1)
            let token = try await client.login("veterinarian@alpha.example")
            let json =
                #"""
                {"appointmentId":"\#(appointment)","chiefComplaint":"Annual health \#
                check","diagnoses":[{"name":"Healthy"}]}
                """#
            try await client.call("/api/v1/patients/\(fixture.patient.id)/visits", .post, token: token, json: json) {
                #expect($0.status == .created)
            }
            try await client.call("/api/v1/patients/\(fixture.patient.id)/visits", .post, token: token, json: json) {
                response in
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(
                    problem.detail?.contains("appointmentId") == true || problem.errors?.first?.field == "appointmentId"
                )
            }
        }
    }
}

struct VisitBody: Decodable {
    struct Vitals: Decodable { let heartRate: Double? }
    struct Diagnosis: Decodable {
        let name: String
        let problemId: String?
    }
    let id: String
    let clinicianId: String?
    let vitals: Vitals?
    let diagnoses: [Diagnosis]
}
struct VisitList: Decodable { let items: [VisitBody] }
struct RecallsBody: Decodable {
    struct Item: Decodable {
        let kind: String
        let sourceId: String
        let dueDate: String
        let patientName: String?
        let description: String
    }
    let dueSoon: [Item]
    let overdue: [Item]
}

@Suite("Species-aware patient forms over HTTP")
struct SpeciesFormAPITests {
    @Test(
        """
        the breed catalogue lists a species' breeds; a patient is saved with its plausibility warnings, never refused \
        for them
        """
    )
    func warnings() async throws {
        let fixture = try await ScheduleFixture.make()
        let owner = fixture.patient.ownerID
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/breeds?species=cat", token: token) { response in
                let body = try JSONDecoder().decode(BreedsBody.self, from: Data(buffer: response.body))
                #expect(body.items.contains("Maine Coon") && !body.items.contains("Labrador Retriever"))
            }
            let born = London.calendar.date(byAdding: .year, value: -28, to: Date())!
            let birth = RecordCalendar.isoDay(born)
            try await client.call(
                "/api/v1/patients", .post, token: token,
                json:
                    #"""
                    {"name":"Granny","species":"cat","breed":"siamese","birthDate":"\#(birth)","ownerId":"\#(owner)"}
                    """#
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(WarnedPatient.self, from: Data(buffer: response.body))
                #expect(body.breedInCatalogue == true)
                #expect(body.warnings.map(\.field) == ["birthDate"])
            }
            try await client.call(
                "/api/v1/patients", .post, token: token,
                json: #"{"name":"Scruff","species":"dog","breed":"Lurcher x Collie","ownerId":"\#(owner)"}"#
            ) { response in
                #expect(response.status == .created)
                let body = try JSONDecoder().decode(WarnedPatient.self, from: Data(buffer: response.body))
                #expect(body.breed == "Lurcher x Collie")
                #expect(body.breedInCatalogue == false)
                #expect(body.warnings.map(\.field) == ["breed"])
            }
        }
    }
}

struct BreedsBody: Decodable {
    let species: String
    let items: [String]
}
struct WarnedPatient: Decodable {
    struct Warning: Decodable {
        let field: String
        let message: String
    }
    let breed: String?
    let breedInCatalogue: Bool?
    let warnings: [Warning]
}

@Suite("Visit rules of the consultation")
struct VisitRuleAPITests {
    @Test("a visit without a diagnosis or a treatment plan is refused naming both; observed symptoms are kept in order")
    func conclusionAndSymptoms() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let uri = "/api/v1/patients/\(fixture.patient.id)/visits"
            try await client.call(
                uri, .post, token: token, json: #"{"chiefComplaint":"Scratching","symptoms":["pruritus","alopecia"]}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = Set(try Problem(response).errors?.map(\.field) ?? [])
                #expect(fields == ["diagnoses", "treatmentPlan"])
            }
            try await client.call(
                uri, .post, token: token, json: #"{"chiefComplaint":"Scratching","symptoms":["pruritus"," "]}"#
            ) { response in
                let fields = Set(try Problem(response).errors?.map(\.field) ?? [])
                #expect(fields.contains("symptoms[1]"))
            }
            let created = try await client.call(
                uri, .post, token: token,
                json: #"""
                    {"chiefComplaint":"Scratching","symptoms":["pruritus","alopecia"],
                     "treatmentPlan":{"approaches":["medical"],"summary":"Oclacitinib for 14 days"}}
                    """#
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return Data(buffer: response.body)
            }
            let visit = try #require(try JSONSerialization.jsonObject(with: created) as? [String: Any])
            #expect(visit["symptoms"] as? [String] == ["pruritus", "alopecia"])
        }
    }

    @Test(
        """
        a prescription in a visit's plan becomes an active medication linked to the visit, in the dose calculator; a \
        bad one names its field and saves nothing
        """
    )
    func prescriptionsBecomeMedications() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let base = "/api/v1/patients/\(fixture.patient.id)"
            try await client.call(base + "/weights", .post, token: token, json: #"{"value":20,"unit":"kg"}"#) {
                #expect($0.status == .created)
            }
            let plan =
                #"""
                {"approaches":["medical"],"summary":"Meloxicam for a week","prescriptions":[{"drug":"Meloxicam 1.5 \#
                mg/mL","concentrationMgPerML":1.5,"doseMgPerKg":0.1,"route":"oral","frequency":"every 24 \#
                hours","endDate":"2000-01-01"}]}
                """#
            try await client.call(
                base + "/visits", .post, token: token,
                json: #"{"chiefComplaint":"Stiff after exercise","treatmentPlan":\#(plan)}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["treatmentPlan.prescriptions[0].endDate"])
            }
            func record() async throws -> [String: Any] {
                let data = try await client.call(base + "/record", token: token) { Data(buffer: $0.body) }
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
            #expect(
                (try await record()["medications"] as? [Any])?.isEmpty == true, "a refused visit adds no medication")
            #expect(
                try await client.call(base + "/visits", token: token) { String(buffer: $0.body) }.contains("Stiff")
                    == false)

            let good = plan.replacingOccurrences(of: #","endDate":"2000-01-01""#, with: "")
            let created = try await client.call(
                base + "/visits", .post, token: token,
                json: #"{"chiefComplaint":"Stiff after exercise","treatmentPlan":\#(good)}"#
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                return Data(buffer: response.body)
            }
            let visit = try #require(try JSONSerialization.jsonObject(with: created) as? [String: Any])
            let prescribed = try #require(
                ((visit["treatmentPlan"] as? [String: Any])?["prescriptions"] as? [[String: Any]])?.first)
            let medicationID = try #require(prescribed["id"] as? String)
            #expect(
                prescribed["startDate"] as? String == RecordCalendar.isoDay(fixture.app.store.clock.now()),
                "starts on the visit's day")
            let medications = try #require(try await record()["medications"] as? [[String: Any]])
            #expect(
                medications.map { $0["id"] as? String } == [medicationID]
                    && medications.first?["drug"] as? String == "Meloxicam 1.5 mg/mL")
            let doseData = try await client.call(base + "/medications/\(medicationID)/dose", token: token) { response in
                #expect(response.status == .ok)
                return Data(buffer: response.body)
            }
            do {
                let dose = try #require(try JSONSerialization.jsonObject(with: doseData) as? [String: Any])
                #expect(
                    abs((dose["doseMg"] as? Double ?? 0) - 2) < 0.0005
                        && abs((dose["volumeML"] as? Double ?? 0) - 1.333) < 0.001)
            }
            let admin = try await client.login("administrator@alpha.example")
            let audit = try await client.call(
                "/api/v1/audit?resourceType=patient&resourceId=\(fixture.patient.id)", token: admin
            ) { String(buffer: $0.body) }
            #expect(audit.contains("medications_added=1"))
        }
    }
}
