import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing
import Triage

@testable import HTTPAPI

/// Requests that once stopped the server or answered 500: each now gets a problem naming the
/// field (or, for search, results), and the server keeps answering.
@Suite("Hardening: no request can stop the server")
struct HardeningTests {
    /// `/health` still answers: the process survived whatever came before.
    private static func expectAlive(_ client: some TestClientProtocol) async throws {
        try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
    }

    @Test("an optimize call with no open requests returns an empty plan")
    func emptyOptimize() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/schedule/optimize", .post, token: token,
                json: #"{"from":"2000-01-01T00:00:00Z","days":1,"requests":[],"timeLimitSeconds":0.1,"seed":0}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(PlanBody.self, from: Data(buffer: response.body))
                #expect(body.assigned == 0)
                #expect(body.plan.isEmpty)
                #expect(body.unassigned.isEmpty)
            }
            try await Self.expectAlive(client)
        }
    }

    @Test(
        """
        every list refuses what is not one of its cursors naming cursor (422), and an id of nothing here as any id \
        (404); its own cursor still pages
        """)
    func strayCursors() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let patient = fixture.patient.id
            let byID = ["/api/v1/patients", "/api/v1/users", "/api/v1/patients/\(patient)/appointments"]
            let byPlace = ["/api/v1/audit", "/api/v1/patients/\(patient)/assessments"]
            // A word, a negative place and a place too long for a number are no cursor of any
            // list; an id is none of a list of places.
            for (list, stray) in (byID + byPlace).flatMap({ list in
                ["rex", "-5", "12345678901234567890"].map { (list, $0) }
            }) + byPlace.map({ ($0, UUID().uuidString) }) {
                try await client.call("\(list)?limit=1&cursor=\(stray)", token: token) { response in
                    #expect(response.status == .unprocessableContent, "\(list) cursor \(stray)")
                    let fields = try Problem(response).errors?.map(\.field)
                    #expect(fields == ["cursor"], "\(list) cursor \(stray)")
                }
            }
            // An id that names nothing of the list here is not found, as any other id.
            for list in byID {
                try await client.call("\(list)?limit=1&cursor=\(UUID())", token: token) { response in
                    #expect(response.status == .notFound, "\(list)")
                    #expect(String(buffer: response.body).contains("No such cursor"), "\(list)")
                }
            }
            // The cursor a list gives still pages it.
            let next = try await client.call("/api/v1/audit?limit=1", token: token) { response in
                try JSONDecoder().decode(AuditPageBody.self, from: Data(buffer: response.body)).nextCursor
            }
            try await client.call("/api/v1/audit?limit=1&cursor=\(try #require(next))", token: token) { response in
                #expect(response.status == .ok)
            }
            try await Self.expectAlive(client)
        }
    }

    @Test(
        "a match with an absurd maximum wait is refused naming maxWaitMinutes",
        arguments: ["3771934246754820", "-1", "10081"])
    func absurdWait(_ wait: String) async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/matching", .post, token: token,
                json:
                    #"{"specialties":["general_practice"],"species":"dog","complexity":0.2,"maxWaitMinutes":\#(wait)}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["maxWaitMinutes"])
            }
            try await Self.expectAlive(client)
        }
    }

    @Test(
        "search text is matched literally: quotes, operators, symbols and emoji find names or nothing, never an error",
        arguments: [
            ("\"Bélla", ["Bélla"]), ("o'brien", ["O'Brien"]), ("O\"Brien", ["O'Brien"]), ("bel*", ["Bélla"]),
            ("AND", ["And"]),
            ("NEAR(bel", []), ("-bel", ["Bélla"]), ("🐶", []), ("\"", []), ("bel OR zzz", []), ("^bel", ["Bélla"]),
            ("\"\u{0345}", []), ("o\"\u{0301}brien", ["O'Brien"]),
        ])
    func literalSearch(_ text: String, _ expected: [String]) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let owner = try await RecordsAPITests.createOwner(client, token: token)
            for name in ["Bélla", "O'Brien", "And"] {
                try await client.call(
                    "/api/v1/patients", .post, token: token,
                    json: #"{"name":"\#(name)","species":"dog","ownerId":"\#(owner)"}"#
                ) {
                    #expect($0.status == .created)
                }
            }
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&+=?#")
            let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed)!
            try await client.call("/api/v1/patients?q=\(encoded)", token: token) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let page = try JSONDecoder().decode(SearchBody.self, from: Data(buffer: response.body))
                #expect(page.items.map(\.patient.name) == expected)
            }
            try await Self.expectAlive(client)
        }
    }

    @Test("changing a patient's microchip to another patient's is refused naming microchip, and nothing changes")
    func duplicateMicrochip() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let owner = try await RecordsAPITests.createOwner(client, token: token)
            _ = try await client.call(
                "/api/v1/patients", .post, token: token,
                json: #"{"name":"Rex","species":"dog","ownerId":"\#(owner)","microchip":"826012345678901"}"#
            ) { $0.status }
            let second = try await client.call(
                "/api/v1/patients", .post, token: token, json: #"{"name":"Fido","species":"dog","ownerId":"\#(owner)"}"#
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            try await client.call(
                "/api/v1/patients/\(second)", .put, token: token,
                json: #"{"name":"Fido","species":"dog","ownerId":"\#(owner)","microchip":"826012345678901"}"#
            ) { response in
                #expect(response.status == .unprocessableContent || response.status == .conflict)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["microchip"])
            }
            try await client.call("/api/v1/patients/\(second)", token: token) { response in
                #expect(response.headers[.eTag] == "\"1\"")
                #expect(!String(buffer: response.body).contains("826012345678901"))
            }
            try await Self.expectAlive(client)
        }
    }

    @Test("a method the document does not declare on a path is 405 with Allow")
    func undeclaredMethod() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/me", .delete, token: token) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET")
            }
            try await client.call("/api/v1/patients", .patch, token: token) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, POST")
            }
            try await client.call("/api/v1/no-such-thing", .delete, token: token) { #expect($0.status == .notFound) }
        }
    }

    @Test("bounds the document states are enforced: out-of-range values are 422 naming every field")
    func documentedBounds() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/schedule/optimize", .post, token: token,
                json: #"{"from":"2026-01-01T00:00:00Z","days":100000,"requests":[],"timeLimitSeconds":1e9}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["days", "timeLimitSeconds"])
            }
            try await client.call("/api/v1/patients?limit=0", token: token) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["limit"])
            }
            try await client.call("/api/v1/patients?limit=ten", token: token) { response in
                #expect(response.status == .badRequest)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["limit"])
            }
            try await Self.expectAlive(client)
        }
    }

    @Test("a row damaged outside VetNet fails the request that reads it with a 500, and the server keeps serving")
    func damagedRow() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.store.writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(
                sql: "UPDATE patient SET owner_id = 'not-a-uuid' WHERE id = ?",
                arguments: [fixture.patient.id.description])
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/patients/\(fixture.patient.id)", token: token) { response in
                #expect(response.status == .internalServerError)
                #expect(!String(buffer: response.body).contains("not-a-uuid"))
            }
            try await Self.expectAlive(client)
        }
    }

    @Test(
        "text with a NUL character is refused naming the field (the store would cut it short)",
        arguments: [
            #"{"firstName":"Jo","lastName":"Bloggs","email":"jo\u0000@example.com"}"#,
            #"{"firstName":"Jo","lastName":"Bloggs","notes":"gate code \u0000 1234"}"#,
            #"{"firstName":"Jo\u0000","lastName":"Bloggs"}"#,
        ])
    func nulRefused(_ json: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/owners", .post, token: token, json: json) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field) ?? []
                #expect(fields.count == 1 && ["email", "notes", "firstName"].contains(fields[0]))
            }
        }
        #expect(try await fixture.store.ownerCount(scope: .system(fixture.practiceA.id)) == 0)
    }

    // MARK: - One case, one answer

    /// Cases the API and the command line must answer identically, refusals included.
    static let cases = [
        #"{"species":"dog","vitals":{"heartRate":150,"temperature":{"value":39.1,"unit":"C"}}}"#,
        #"{"species":"dog","species":"cat"}"#,
        #"{"species":"cat","vitals":{"heartRate":100,"heartRate":180}}"#,
        #"{"vitals":{"heartrate":90},"species":"dog"}"#,
        #"{"species":"dog","vitals":{"mucousMembranes":"cyanotic"}}"#,
        #"{"species":"dog","findings":["no_such_finding"],"observations":{"mentation":"asleep"}}"#,
    ]

    @Test(
        "a case gets the same answer over HTTP as from `vetnet triage`, byte for byte once keys are sorted",
        arguments: cases)
    func sameAnswerAsCommandLine(_ json: String) async throws {
        let cli = try Self.runTriageCommand(json)
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/triage/evaluate", .post, token: token, json: json) { response in
                if cli.status == 0 {
                    #expect(response.status == .ok)
                    let api = try Self.canonical(
                        Data(buffer: response.body), dropping: ["assessedAt", "arrival", "targetTime"])
                    let command = try Self.canonical(cli.stdout, dropping: ["assessedAt", "arrival", "targetTime"])
                    #expect(
                        api == command,
                        "\(String(decoding: api, as: UTF8.self))\n\(String(decoding: command, as: UTF8.self))")
                } else {
                    #expect(cli.status == 2)
                    let problem = try Problem(response)
                    let lines = problem.errors?.map { "  \($0.field): \($0.message)" } ?? []
                    let cliLines = String(decoding: cli.stderr, as: UTF8.self).split(separator: "\n").dropFirst().map(
                        String.init)
                    if cliLines.first?.hasPrefix("  $: malformed JSON") == true {
                        // Not JSON that means one thing (a duplicate key): every body is refused
                        // so, with 400 and the same words; the body is the case here.
                        #expect(response.status == .badRequest)
                        #expect(lines == cliLines.map { $0.replacingOccurrences(of: "  $:", with: "  body:") })
                    } else {
                        #expect(response.status == .unprocessableContent)
                        #expect(lines == cliLines)
                    }
                }
            }
        }
    }

    @Test("a duplicate key inside a stored assessment's case is refused, as it is for a bare case")
    func duplicateKeyInAssessment() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json:
                    #"""
                    {"patientId":"\#(fixture.patient.id)","case":{"species":"dog","vitals":{"heartRate":100,\#
                    "heartRate":250}}}
                    """#
            ) { response in
                #expect(response.status == .badRequest)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["body"])
            }
            try await client.call(
                "/api/v1/triage/assessments", .post, token: token,
                json: #"{"patientId":"\#(fixture.patient.id)","case":{"species":"dog","vitals":{"heartrate":100}}}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["case.vitals.heartrate"])
            }
        }
        let stored = try await fixture.app.store.assessments(
            scope: .system(fixture.app.practiceA.id), patientID: fixture.patient.id.rawValue, limit: 10, before: nil)
        #expect(stored.items.isEmpty)
    }

    /// Runs the built `vetnet triage -` on `json`.
    static func runTriageCommand(_ json: String) throws -> (status: Int32, stdout: Data, stderr: Data) {
        // The test bundle and the executable are built side by side.
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
            "vetnet")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["triage", "-"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(json.utf8))
        try input.fileHandleForWriting.close()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, stderr)
    }

    /// JSON with sorted keys and no whitespace, without the members named in `dropping` (times of evaluation).
    static func canonical(_ data: Data, dropping: Set<String>) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        for key in dropping { object[key] = nil }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

/// The part of an audit page these tests read.
private struct AuditPageBody: Decodable {
    let nextCursor: String?
}
