import Foundation
import HTTPTypes
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI

@Suite("Triage API and ER board")
struct TriageAPITests {
    static let specExample = """
        {"species":"dog","ageWeeks":16,"sex":"male_neutered","onsetHoursAgo":6,
         "vitals":{"temperature":{"value":103.5,"unit":"F"},"heartRate":150,"respiratoryRate":30,\
        "capillaryRefillSeconds":1.8,
                   "capillaryRefillAbsent":false,"mucousMembranes":"pink","pulseQuality":"normal","mentation":"alert",\
        "extremities":"warm",
                   "systolicBP":130,"spo2":97,"glucose":{"value":5.1,"unit":"mmol/L"},"ketosis":false,\
        "dehydrationPercent":10},
         "observations":{"respiratoryDistress":"none","pain":"mild","hemorrhage":"none","seizuresLast24h":0,\
        "seizingNow":false,
                         "vomiting":"persistent","hoursSinceLastMeal":20},
         "findings":["toxin_ingestion"],"complaint":"ate chocolate, vomiting"}
        """

    /// Adds an owner and patients to practice A (or B).
    static func patients(_ fixture: AppFixture, names: [String], practice: PracticeID? = nil) async throws -> [Patient]
    {
        let scope = AccessScope.system(practice ?? fixture.practiceA.id)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        var created: [Patient] = []
        for name in names {
            created.append(
                try await fixture.store.createPatient(
                    Patient(name: name, species: .dog, alerts: ["bites"], ownerID: owner.id), scope: scope))
        }
        return created
    }

    @Test("evaluate returns the explained level of the specification's example case")
    func evaluate() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/triage/evaluate", .post, token: token, json: Self.specExample) { response in
                #expect(response.status == .ok)
                let result = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as! [String: Any]
                #expect(result["level"] as? Int == 2)
                #expect(result["colour"] as? String == "orange")
                #expect(result["maxWaitMinutes"] as? Int == 15)
                let fired = (result["fired"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                #expect(fired.contains("toxin_ingestion"))
                #expect(fired.contains("dehydration_severe"))
                #expect(result["validatedForSpecies"] as? Bool == true)
                #expect(result["rulesVersion"] as? String != nil)
            }
        }
    }

    @Test("evaluate applies the objective vital-sign safety net (§4.4): one measured vital raises the level")
    func safetyNet() async throws {
        let fixture = try await AppFixture.make()
        let cases: [(String, Int, String)] = [
            (#"{"species":"dog","vitals":{"mucousMembranes":"cyanotic"}}"#, 1, "cyanosis"),
            (#"{"species":"dog","vitals":{"spo2":85}}"#, 2, "spo2_very_low"),
            (#"{"species":"dog","vitals":{"heartRate":280}}"#, 2, "abnormal_pulse"),
            (#"{"species":"dog","vitals":{"heartRate":30}}"#, 2, "abnormal_pulse"),
            (#"{"species":"dog","vitals":{"systolicBP":70}}"#, 2, "hypotension"),
        ]
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            for (json, level, id) in cases {
                try await client.call("/api/v1/triage/evaluate", .post, token: token, json: json) { response in
                    #expect(response.status == .ok)
                    let result = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as! [String: Any]
                    #expect(result["level"] as? Int == level, "\(json)")
                    #expect(result["colour"] as? String == (level == 1 ? "red" : "orange"), "\(json)")
                    let fired = (result["fired"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                    #expect(fired == [id], "\(json)")
                    #expect(result["rulesVersion"] as? String == "vtl-ruys2012+vetnet-1.2.0")
                }
            }
        }
    }

    @Test(
        "bad cases are 422 naming each field",
        arguments: [
            (#"{"species":"dog","vitals":{"heartRate":-5}}"#, "vitals.heartRate"),
            (#"{"species":"unicorn"}"#, "species"),
            (#"{"species":"cat","findings":["made_up_finding"]}"#, "findings[0]"),
            (#"{"vitals":{"heartRate":100}}"#, "species"),
            (#"{"species":"dog","vitals":{"heartrate":100}}"#, "vitals.heartrate"),
        ])
    func badCase(json: String, field: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            try await client.call("/api/v1/triage/evaluate", .post, token: token, json: json) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field).contains(field) == true)
            }
        }
    }

    @Test(
        """
        assessments put patients on the board by level then arrival; re-triage follows the latest; moves follow the \
        state machine
        """
    )
    func board() async throws {
        let fixture = try await AppFixture.make()
        let patients = try await Self.patients(fixture, names: ["Early Green", "Later Red", "Yellow"])
        let minutesAgo: @Sendable (Double) -> String = { m in Timestamp.string(Date().addingTimeInterval(-m * 60)) }
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            let cases: [(Patient, String, Double)] = [
                (patients[0], #"{"species":"dog","onsetHoursAgo":10,"findings":["swelling"]}"#, 50),
                (patients[1], #"{"species":"dog","observations":{"seizingNow":true}}"#, 5),
                (patients[2], #"{"species":"dog","findings":["melena"]}"#, 20),
            ]
            for (patient, json, ago) in cases {
                try await client.call(
                    "/api/v1/triage/assessments", .post, token: token,
                    json: #"{"patientId":"\#(patient.id)","arrivalTime":"\#(minutesAgo(ago))","case":\#(json)}"#
                ) {
                    #expect($0.status == .created)
                }
            }
            try await client.call("/api/v1/triage/queue", token: token) { response in
                #expect(response.status == .ok)
                let board = try JSONDecoder().decode(Board.self, from: Data(buffer: response.body))
                #expect(board.items.map(\.patientName) == ["Later Red", "Yellow", "Early Green"])
                #expect(board.items[0].overdue) // red: maximum wait 0 minutes, arrived 5 minutes ago
                #expect(board.items[2].minutesLeft > 60) // green: 120 minutes, arrived 50 minutes ago
                #expect(board.items[0].alerts == ["bites"])
            }
            // Re-triage the green patient as red: it moves to the top by arrival.
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json:
                    #"""
                    {"patientId":"\#(patients[0].id)","case":{"species":"dog",\#
                    "findings":["rapid_abdominal_distension"]}}
                    """#
            ) {
                #expect($0.status == .created)
            }
            try await client.call("/api/v1/triage/queue", token: token) { response in
                let board = try JSONDecoder().decode(Board.self, from: Data(buffer: response.body))
                #expect(board.items.map(\.patientName) == ["Early Green", "Later Red", "Yellow"])
            }
            try await client.call("/api/v1/patients/\(patients[0].id)/assessments", token: token) { response in
                let page = try JSONDecoder().decode(AssessmentPage.self, from: Data(buffer: response.body))
                #expect(page.items.map(\.level) == [1, 4])
            }
            // waiting → done is illegal; waiting → inTreatment → done is the path.
            try await client.call(
                "/api/v1/triage/queue/\(patients[1].id)/status", .post, token: token, json: #"{"status":"done"}"#
            ) {
                #expect($0.status == .conflict)
            }
            try await client.call(
                "/api/v1/triage/queue/\(patients[1].id)/status", .post, token: token, json: #"{"status":"inTreatment"}"#
            ) {
                #expect($0.status == .ok)
            }
            try await client.call(
                "/api/v1/triage/queue/\(patients[1].id)/status", .post, token: token, json: #"{"status":"done"}"#
            ) {
                #expect($0.status == .ok)
            }
            try await client.call("/api/v1/triage/queue", token: token) { response in
                let board = try JSONDecoder().decode(Board.self, from: Data(buffer: response.body))
                #expect(board.items.map(\.patientName) == ["Early Green", "Yellow"])
            }
        }
        let events = try await fixture.store.events(practiceID: fixture.practiceA.id, after: 0, limit: 1000).events.map(
            \.kind)
        #expect(events.filter { $0 == "patient.triaged" }.count == 4)
        #expect(events.filter { $0 == "triage.queue_changed" }.count == 6)
        let audit = try await fixture.store.auditEntries(scope: .system(fixture.practiceA.id), limit: 200, before: nil)
            .items
        #expect(audit.filter { $0.action == "triage.assess" }.count == 4)
    }

    @Test("another practice's patient cannot be triaged or read: 404")
    func crossTenant() async throws {
        let fixture = try await AppFixture.make()
        let foreign = try await Self.patients(fixture, names: ["Foreign"], practice: fixture.practiceB.id)[0]
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json: #"{"patientId":"\#(foreign.id)","case":{"species":"dog"}}"#
            ) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/patients/\(foreign.id)/assessments", token: token) {
                #expect($0.status == .notFound)
            }
            try await client.call(
                "/api/v1/triage/queue/\(foreign.id)/status", .post, token: token, json: #"{"status":"inTreatment"}"#
            ) {
                #expect($0.status == .notFound)
            }
        }
    }

    @Test("a bad case inside an assessment names the field under case and stores nothing")
    func badAssessment() async throws {
        let fixture = try await AppFixture.make()
        let patient = try await Self.patients(fixture, names: ["Rex"])[0]
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json:
                    #"""
                    {"patientId":"\#(patient.id)","case":{"species":"dog","vitals":{"temperature":{"value":60,\#
                    "unit":"C"}}}}
                    """#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field.hasPrefix("case.vitals.temperature") == true)
            }
            try await client.call("/api/v1/triage/queue", token: token) { response in
                let board = try JSONDecoder().decode(Board.self, from: Data(buffer: response.body))
                #expect(board.items.isEmpty)
            }
        }
    }
}

struct Board: Decodable {
    struct Item: Decodable {
        let patientName: String?
        let overdue: Bool
        let minutesLeft: Int
        let alerts: [String]?
        let status: String
    }
    let items: [Item]
}

struct AssessmentPage: Decodable {
    struct Item: Decodable { let level: Int }
    let items: [Item]
}
