import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing
@testable import HTTPAPI

/// Uploads that must leave nothing behind, and bodies the server must not buffer.
@Suite("Document and body safety")
struct DocumentSafetyTests {
    static func documentsDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-docs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test("an upload for a made-up or another practice's patient is 404 and writes no file")
    func uploadForUnknownPatientWritesNothing() async throws {
        let directory = try Self.documentsDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await AppFixture.make(documentsDirectory: directory)
        let rex = try await MedicalRecordAPITests.patient(fixture)
        try await fixture.test { client in
            let outsider = try await client.login("admin@beta.example")
            for patient in [rex.id.description, UUID().uuidString.lowercased()] {
                try await client.execute(uri: "/api/v1/patients/\(patient)/documents?fileName=x.png", method: .post,
                                         headers: [.authorization: "Bearer \(outsider)", .contentType: "image/png"],
                                         body: ByteBuffer(bytes: DocumentAPITests.png)) { #expect($0.status == .notFound) }
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("files no document record names are swept; recorded ones stay")
    func orphansSwept() async throws {
        let directory = try Self.documentsDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await AppFixture.make(documentsDirectory: directory)
        let rex = try await MedicalRecordAPITests.patient(fixture)
        let kept = try await fixture.store.addDocument(patientID: rex.id, fileName: "a.png", declaredType: "image/png", data: DocumentAPITests.png,
                                                       scope: .system(fixture.practiceA.id))
        let orphan = directory.appendingPathComponent(String(repeating: "ab", count: 32))
        try Data("left by a crash".utf8).write(to: orphan)
        #expect(try await fixture.store.sweepOrphanDocuments() == 1)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(kept.sha256).path))
    }

    @Test("an anonymous body is refused before it is read, and only the upload route takes document-sized bodies")
    func bodiesBeforeAuthentication() async throws {
        let fixture = try await AppFixture.make()
        let big = ByteBuffer(bytes: [UInt8](repeating: 0x41, count: 200 * 1024))
        try await fixture.test { client in
            try await client.execute(uri: "/api/v1/patients/\(UUID())/documents?fileName=x.png", method: .post,
                                     headers: [.contentType: "image/png"], body: big) { #expect($0.status == .unauthorized) }
            let token = try await client.login("technician@alpha.example")
            // A path that merely ends in /documents gets the ordinary limit (64 KiB here).
            try await client.execute(uri: "/api/v1/owners/\(UUID())/documents", method: .post,
                                     headers: [.authorization: "Bearer \(token)", .contentType: "image/png"], body: big) {
                #expect($0.status == .contentTooLarge)
            }
        }
    }
}
