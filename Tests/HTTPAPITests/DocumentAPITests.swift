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

@Suite("Documents")
struct DocumentAPITests {
    static let png =
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("radiograph of the left stifle".utf8)

    @Test(
        """
        an uploaded image is stored encrypted under its SHA-256 and downloads byte for byte; a mismatched type is \
        refused
        """
    )
    func roundTrip() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-docs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await AppFixture.make(documentsDirectory: directory)
        let rex = try await MedicalRecordAPITests.patient(fixture)
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            let id = try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents?fileName=stifle.png", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
                body: ByteBuffer(bytes: Self.png)
            ) { response in
                #expect(response.status == .created)
                return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
            }
            try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents?fileName=fake.pdf", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "application/pdf"],
                body: ByteBuffer(bytes: Self.png)
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field == "Content-Type")
            }
            try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents/\(id)", method: .get,
                headers: [.authorization: "Bearer \(token)"]
            ) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(Data(buffer: response.body) == Self.png)
            }
            let other = try await client.login("admin@beta.example")
            try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents/\(id)", method: .get,
                headers: [.authorization: "Bearer \(other)"]
            ) { #expect($0.status == .notFound) }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }
        #expect(files.count == 1)
        #expect(files[0].count == 64)
        let stored = try #require(FileManager.default.contents(atPath: directory.appendingPathComponent(files[0]).path))
        #expect(stored.range(of: Data("radiograph".utf8)) == nil)
    }
}
