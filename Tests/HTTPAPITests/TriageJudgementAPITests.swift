import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite
import Testing
import Triage

@testable import HTTPAPI

/// The emergency desk around the engine through the API: overrides by role, re-assessment in
/// place, the deadlines announced once, and one answer on every path that names a patient.
@Suite("Triage judgement, re-assessment and one answer on every path")
struct TriageJudgementAPITests {
    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    static func date(_ value: Any?) -> Date? { (value as? String).flatMap(Timestamp.date) }

    static func board(_ client: any TestClientProtocol, token: String, patient: String) async throws -> [String: Any]? {
        let body = try await client.call("/api/v1/triage/queue", token: token) { Data(buffer: $0.body) }
        let items = try #require(
            (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["items"] as? [[String: Any]])
        return items.first { $0["patientId"] as? String == patient }
    }

    @Test(
        """
        overrides from the board: a receptionist raises; a technician may not lower; a vet lowers red only when \
        confirming, and the board flags it until seen
        """
    )
    func overridesByRole() async throws {
        let fixture = try await AppFixture.make()
        let patients = try await TriageAPITests.patients(fixture, names: ["Rex", "Bella"])
        try await fixture.test { client in
            let reception = try await client.login("receptionist@alpha.example")
            let technician = try await client.login("technician@alpha.example")
            let vet = try await client.login("veterinarian@alpha.example")
            // Bella: green by the engine, raised to orange by the receptionist.
            let green = try await client.call(
                "/api/v1/triage/assessments", .post, token: reception,
                json: #"{"patientId":"\#(patients[1].id)","case":{"species":"dog","onsetHoursAgo":2}}"#
            ) {
                try #require(try Self.json($0)["id"] as? String)
            }
            try await client.call(
                "/api/v1/triage/assessments/\(green)/override", .post, token: reception,
                json: #"{"level":2,"reason":"owner reports two collapses at home"}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try Self.json(response)
                #expect(body["level"] as? Int == 4)
                #expect(body["currentLevel"] as? Int == 2)
                let override = try #require((body["overrides"] as? [[String: Any]])?.first)
                #expect(override["direction"] as? String == "raised")
                #expect(override["overriddenByName"] as? String == "Receptionist")
            }
            let bella = try #require(
                try await Self.board(client, token: reception, patient: patients[1].id.description))
            #expect(bella["level"] as? Int == 2)
            #expect(
                (bella["override"] as? [String: Any])?["reason"] as? String == "owner reports two collapses at home")

            // Rex: red by the engine (seizing).
            let red = try await client.call(
                "/api/v1/triage/assessments", .post, token: reception,
                json: #"{"patientId":"\#(patients[0].id)","case":{"species":"dog","observations":{"seizingNow":true}}}"#
            ) {
                try #require(try Self.json($0)["id"] as? String)
            }
            let path = "/api/v1/triage/assessments/\(red)/override"
            try await client.call(path, .post, token: technician, json: #"{"level":3,"reason":"stopped seizing"}"#) {
                response in
                #expect(response.status == .forbidden)
            }
            try await client.call(path, .post, token: vet, json: #"{"level":3,"reason":"post-ictal, stable"}"#) {
                response in
                #expect(response.status == .unprocessableContent)
                let errors = try #require(try Self.json(response)["errors"] as? [[String: Any]])
                #expect(errors.map { $0["field"] as? String } == ["confirmLoweringRed"])
            }
            try await client.call(
                path, .post, token: vet, json: #"{"level":3,"reason":"  ","confirmLoweringRed":true}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                #expect(String(buffer: response.body).contains(#""field":"reason""#))
            }
            var rex = try #require(try await Self.board(client, token: reception, patient: patients[0].id.description))
            #expect(rex["level"] as? Int == 1, "a refused override changes nothing")
            try await client.call(
                path, .post, token: vet, json: #"{"level":3,"reason":"post-ictal, stable","confirmLoweringRed":true}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
            }
            rex = try #require(try await Self.board(client, token: reception, patient: patients[0].id.description))
            #expect(rex["level"] as? Int == 3)
            #expect(rex["loweredRedAwaitingCare"] as? Bool == true)
            let override = try #require(rex["override"] as? [String: Any])
            #expect(override["computedLevel"] as? Int == 1)
            #expect(override["lowersRedFinding"] as? Bool == true)
            try await client.call(
                "/api/v1/triage/queue/\(patients[0].id)/status", .post, token: vet, json: #"{"status":"inTreatment"}"#
            ) {
                #expect($0.status == .ok)
            }
            rex = try #require(try await Self.board(client, token: reception, patient: patients[0].id.description))
            #expect(rex["loweredRedAwaitingCare"] as? Bool == false)

            // The history keeps the computed level and every override.
            try await client.call("/api/v1/patients/\(patients[0].id)/assessments", token: vet) { response in
                let item = try #require((try Self.json(response)["items"] as? [[String: Any]])?.first)
                #expect(item["level"] as? Int == 1)
                #expect(item["currentLevel"] as? Int == 3)
                #expect((item["overrides"] as? [[String: Any]])?.count == 1)
            }
        }
        // Audited and published.
        let scope = AccessScope.system(fixture.practiceA.id)
        let audit = try await fixture.store.auditEntries(scope: scope, limit: 500, before: nil).items.filter {
            $0.action == "triage.override"
        }
        #expect(audit.count == 2)
        #expect(
            audit.contains {
                $0.detail?.contains("direction=lowered") == true
                    && $0.detail?.contains("lowers_red_finding=confirmed") == true
            })
        let events = try await fixture.store.events(practiceID: fixture.practiceA.id, after: 0, limit: 500).events
        #expect(events.filter { $0.kind == TriageEventKind.levelOverridden }.count == 2)
        // Counted in analytics.
        try await fixture.test { client in
            let admin = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/analytics/triage-overrides", token: admin) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try Self.json(response)
                #expect((body["raised"] as? [String: Any])?["count"] as? Int == 1)
                #expect((body["lowered"] as? [String: Any])?["count"] as? Int == 1)
                #expect(body["assessments"] as? Int == 2)
            }
        }
    }

    @Test(
        """
        a patient waiting past the maximum wait shows re-assess due; a new assessment re-triages in place and the \
        history keeps both
        """
    )
    func reassessment() async throws {
        let arrival = Timestamp.date("2026-06-10T08:59:00Z")!
        let clock = SteppedClock(arrival)
        let fixture = try await AppFixture.make(clock: clock.clock)
        let patient = try #require(try await TriageAPITests.patients(fixture, names: ["Milo"]).first)
        try await fixture.test { client in
            var token = try await client.login("technician@alpha.example")
            // Yellow (60 min), triaged on arrival.
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json: #"{"patientId":"\#(patient.id)","case":{"species":"dog","observations":{"pain":"moderate"}}}"#
            ) {
                #expect($0.status == .created, "\(String(buffer: $0.body))")
            }
            var row = try #require(try await Self.board(client, token: token, patient: patient.id.description))
            #expect(row["reassessmentDue"] as? Bool == false)
            #expect(Self.date(row["reassessmentDueAt"]) == arrival.addingTimeInterval(3600))
            // 61 minutes later, still waiting.
            clock.set(arrival.addingTimeInterval(61 * 60))
            token = try await client.login("technician@alpha.example") // the first session has idled out
            row = try #require(try await Self.board(client, token: token, patient: patient.id.description))
            #expect(row["level"] as? Int == 3)
            #expect(row["overdue"] as? Bool == true)
            #expect(row["reassessmentDue"] as? Bool == true)
            // Re-assessed from the board ten minutes later: worse now.
            let later = arrival.addingTimeInterval(71 * 60)
            clock.set(later)
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json: #"{"patientId":"\#(patient.id)","case":{"species":"dog","observations":{"pain":"severe"}}}"#
            ) {
                #expect($0.status == .created, "\(String(buffer: $0.body))")
            }
            let items = try await client.call("/api/v1/triage/queue", token: token) { Data(buffer: $0.body) }
            let board = try #require(
                (try JSONSerialization.jsonObject(with: items) as? [String: Any])?["items"] as? [[String: Any]])
            #expect(board.count == 1, "re-triaged in place, not a second entry")
            row = try #require(board.first)
            #expect(row["level"] as? Int == 2)
            #expect(Self.date(row["arrivalTime"]) == arrival, "the wait still counts from arrival")
            #expect(row["reassessmentDue"] as? Bool == false)
            #expect(Self.date(row["reassessmentDueAt"]) == later.addingTimeInterval(15 * 60))
            let history = try await client.call("/api/v1/patients/\(patient.id)/assessments", token: token) {
                Data(buffer: $0.body)
            }
            let assessed = try #require(
                (try JSONSerialization.jsonObject(with: history) as? [String: Any])?["items"] as? [[String: Any]])
            #expect(assessed.map { $0["level"] as? Int } == [2, 3])
        }
    }

    @Test("a patient on the board re-assessed at the desk follows the new assessment at any level, even through intake")
    func intakeOfBoardPatientRetriages() async throws {
        let fixture = try await AppFixture.make()
        let patient = try #require(try await TriageAPITests.patients(fixture, names: ["Nala"]).first)
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/intake", .post, token: token,
                json: #"{"patientId":"\#(patient.id)","case":{"species":"dog","vitals":{"spo2":85}}}"#
            ) {
                #expect($0.status == .ok, "\(String(buffer: $0.body))")
            }
            #expect(try await Self.board(client, token: token, patient: patient.id.description)?["level"] as? Int == 2)
            // Oxygen given, re-assessed through the intake form: now green. The board must not keep showing orange.
            let assessment = try await client.call(
                "/api/v1/intake", .post, token: token,
                json: #"{"patientId":"\#(patient.id)","case":{"species":"dog","onsetHoursAgo":2}}"#
            ) {
                #expect($0.status == .ok, "\(String(buffer: $0.body))")
                return try #require(try Self.json($0)["assessmentId"] as? String)
            }
            let row = try #require(try await Self.board(client, token: token, patient: patient.id.description))
            #expect(row["level"] as? Int == 4)
            #expect(row["assessmentId"] as? String == assessment)
        }
    }
}
