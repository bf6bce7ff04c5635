import Foundation
import HTTPTypes
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSQLite
import StorageSupport
import Synchronization
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// One answer on every path: the same patient and case get the same level, fired
/// discriminators and complexity through `POST /triage/evaluate?patientId=` (the web form's
/// live preview), `POST /triage/assessments`, `POST /intake` (the web form's submission) and
/// `vetnet triage --patient`. The patient's active problems count in the complexity on each.
@Suite("Five paths, one triage")
struct FivePathAgreementTests {
    struct Answer: Equatable, CustomStringConvertible {
        let level: Int
        let fired: [String]
        let complexity: Double
        var description: String { "level \(level), fired \(fired), complexity \(complexity)" }

        init(_ result: [String: Any]) {
            level = result["level"] as? Int ?? -1
            fired = ((result["fired"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
            complexity = (result["complexity"] as? [String: Any])?["score"] as? Double ?? -1
        }
    }

    static let cases = [
        #"{"species":"dog","observations":{"seizingNow":true}}"#,
        #"{"species":"dog","vitals":{"heartRate":190,"mucousMembranes":"pale","capillaryRefillSeconds":3}}"#,
        #"{"species":"dog","ageWeeks":6,"onsetHoursAgo":3,"observations":{"pain":"moderate","vomiting":"persistent"}}"#,
        #"""
        {"species":"dog","sex":"female_intact","vitals":{"temperature":{"value":104.9,"unit":"F"}},\#
        "complaint":"panting, lame"}
        """#,
        #"{"species":"dog","onsetHoursAgo":400}"#,
        #"{"species":"dog","findings":["toxin_ingestion"],"observations":{"pain":"mild"}}"#,
    ]

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(
        """
        evaluate with the patient, assessment, intake and the command-line tool agree on level, discriminators and \
        complexity
        """
    )
    func fivePaths() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vetnet-five-paths-\(UUID().uuidString.lowercased())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let migrated = try Self.runVetnet(["migrate", "--data-dir", directory.path])
        try #require(migrated.status == 0, "\(migrated.stderr)")
        let store = try VetNetStore.open(
            directory: directory, auditKey: try AuditKey.load(configured: nil, dataDirectory: directory),
            cipher: try RecordCipher.load(configured: nil, dataDirectory: directory))
        let fixture = try await AppFixture.make(store: store)
        let scope = AccessScope.system(fixture.practiceA.id)
        let owner = try await store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)

        var server: [(patient: Identifier<Patient>, answers: [Answer], bare: Answer)] = []
        for (index, body) in Self.cases.enumerated() {
            // Each case on a patient of its own with three chronic problems (and one resolved, which does not count).
            let patient = try await store.createPatient(
                Patient(name: "Case \(index)", species: .dog, ownerID: owner.id), scope: scope)
            for name in ["Chronic kidney disease", "Hypothyroidism", "Osteoarthritis"] {
                try await store.addRecordEntry(
                    .problem(PatientRecords.Problem(patientID: patient.id, name: name)), patientID: patient.id,
                    scope: scope)
            }
            try await store.addRecordEntry(
                .problem(
                    PatientRecords.Problem(
                        patientID: patient.id, name: "Otitis", status: .resolved,
                        onsetDate: Date().addingTimeInterval(-90 * 86_400),
                        resolvedDate: Date().addingTimeInterval(-60 * 86_400))),
                patientID: patient.id, scope: scope)
            let collected = Mutex<[Data]>([])
            try await fixture.test { client in
                let token = try await client.login("receptionist@alpha.example")
                let bare = try await client.call("/api/v1/triage/evaluate", .post, token: token, json: body) {
                    Data(buffer: $0.body)
                }
                let evaluated = try await client.call(
                    "/api/v1/triage/evaluate?patientId=\(patient.id)", .post, token: token, json: body
                ) {
                    #expect($0.status == .ok, "\(String(buffer: $0.body))")
                    return Data(buffer: $0.body)
                }
                let assessed = try await client.call(
                    "/api/v1/triage/assessments", .post, token: token,
                    json: #"{"patientId":"\#(patient.id)","case":\#(body)}"#
                ) {
                    #expect($0.status == .created, "\(String(buffer: $0.body))")
                    return Data(buffer: $0.body)
                }
                let intake = try await client.call(
                    "/api/v1/intake", .post, token: token, json: #"{"patientId":"\#(patient.id)","case":\#(body)}"#
                ) {
                    #expect($0.status == .ok, "\(String(buffer: $0.body))")
                    return Data(buffer: $0.body)
                }
                collected.withLock { $0 = [bare, evaluated, assessed, intake] }
            }
            let results = collected.withLock { $0 }
            try #require(results.count == 4)
            let answers = [
                Answer(try Self.object(results[1])),
                Answer(try #require(try Self.object(results[2])["result"] as? [String: Any])),
                Answer(try #require(try Self.object(results[3])["triage"] as? [String: Any])),
            ]
            server.append((patient.id, answers, Answer(try Self.object(results[0]))))
        }
        try store.close()

        for (index, body) in Self.cases.enumerated() {
            let file = directory.appendingPathComponent("case-\(index).json")
            try Data(body.utf8).write(to: file)
            let cli = try Self.runVetnet([
                "triage", file.path, "--patient", server[index].patient.description, "--data-dir", directory.path,
                "--practice", fixture.practiceA.name,
            ])
            try #require(cli.status == 0, "\(cli.stderr)")
            let answers = server[index].answers + [Answer(try Self.object(cli.stdout))]
            #expect(Set(answers.map(\.description)).count == 1, "case \(index): \(answers)")
            // The record counts: three chronic conditions add 0.10 to the bare case's score.
            #expect(
                abs(answers[0].complexity - server[index].bare.complexity - 0.10) < 1e-9 || answers[0].complexity == 1,
                "case \(index): \(answers[0]) vs bare \(server[index].bare)")
            #expect(answers[0].level == server[index].bare.level)
        }
    }

    /// Runs the `vetnet` executable built beside the test bundle, with no keys from the environment.
    static func runVetnet(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("vetnet")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for name in [
            "VETNET_DATA_DIR", "VETNET_DATABASE_URL", "VETNET_AUDIT_KEY", "VETNET_RECORD_KEY",
            "VETNET_AUDIT_CHECKPOINT",
        ] {
            environment[name] = nil
        }
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
    }
}
