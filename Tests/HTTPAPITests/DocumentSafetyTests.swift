import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StoragePorts
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

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
                try await client.execute(
                    uri: "/api/v1/patients/\(patient)/documents?fileName=x.png", method: .post,
                    headers: [.authorization: "Bearer \(outsider)", .contentType: "image/png"],
                    body: ByteBuffer(bytes: DocumentAPITests.png)
                ) { #expect($0.status == .notFound) }
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
        let kept = try await fixture.store.addDocument(
            patientID: rex.id, fileName: "a.png", declaredType: "image/png", data: DocumentAPITests.png,
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
            try await client.execute(
                uri: "/api/v1/patients/\(UUID())/documents?fileName=x.png", method: .post,
                headers: [.contentType: "image/png"], body: big
            ) { #expect($0.status == .unauthorized) }
            let token = try await client.login("technician@alpha.example")
            // A path that merely ends in /documents gets the ordinary limit (64 KiB here).
            try await client.execute(
                uri: "/api/v1/owners/\(UUID())/documents", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"], body: big
            ) {
                #expect($0.status == .contentTooLarge)
            }
        }
    }

    /// A PNG of `count` bytes: the signature, then reproducible noise.
    static func largePNG(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + (8..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test(
        """
        a 3 MB upload is received in encrypted chunks and downloads byte for byte; the stored file is not the plaintext
        """
    )
    func streamedUploadRoundTrip() async throws {
        let directory = try Self.documentsDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await AppFixture.make(documentsDirectory: directory)
        let rex = try await MedicalRecordAPITests.patient(fixture)
        let image = Self.largePNG(3 * 1024 * 1024 + 17)
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            let id = try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents?fileName=stifle.png", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
                body: ByteBuffer(bytes: image)
            ) { response in
                #expect(response.status == .created)
                return try JSONDecoder().decode(UploadedBody.self, from: Data(buffer: response.body)).id
            }
            try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents/\(id)", method: .get,
                headers: [.authorization: "Bearer \(token)"]
            ) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView) == image)
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 1, "one file under the content's hash, no temporary left: \(files)")
        let stored = try Data(contentsOf: directory.appendingPathComponent(files[0]))
        #expect(stored.starts(with: Array("VNDOC2".utf8)))
        #expect(stored.range(of: Data(image[1000..<1064])) == nil, "the plaintext must not be on disk")
    }

    @Test("an upload over the limit is 413 part-way through and leaves no file, temporary or final")
    func oversizedUploadLeavesNothing() async throws {
        let directory = try Self.documentsDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await AppFixture.make(documentsDirectory: directory)
        let rex = try await MedicalRecordAPITests.patient(fixture)
        let image = Self.largePNG(maxDocumentBytes + 1)
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            try await client.execute(
                uri: "/api/v1/patients/\(rex.id)/documents?fileName=big.png", method: .post,
                headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
                body: ByteBuffer(bytes: image)
            ) { #expect($0.status == .contentTooLarge) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(try await fixture.store.documents(patientID: rex.id, scope: .system(fixture.practiceA.id)).isEmpty)
    }

    @Test(
        """
        a stored document whose chunks were cut, reordered or swapped with another document's file is refused, never \
        served
        """
    )
    func tamperedDocumentRefused() async throws {
        let directory = try Self.documentsDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try await AppFixture.make(documentsDirectory: directory)
        let rex = try await MedicalRecordAPITests.patient(fixture)
        let scope = AccessScope.system(fixture.practiceA.id)
        let first = try await fixture.store.addDocument(
            patientID: rex.id, fileName: "a.png", declaredType: "image/png",
            data: Data(Self.largePNG(200_000)), scope: scope)
        let second = try await fixture.store.addDocument(
            patientID: rex.id, fileName: "b.png", declaredType: "image/png",
            data: Data(Self.largePNG(1000)), scope: scope)
        let firstURL = directory.appendingPathComponent(first.sha256)
        let original = try Data(contentsOf: firstURL)
        let id = UUIDText.parse(UUIDText.lowercase(first.id))!
        // Cut after the first chunk (the last chunk is gone, so the rest reads as truncated).
        let firstChunkLength =
            Int(original[22]) << 24 | Int(original[23]) << 16 | Int(original[24]) << 8 | Int(original[25])
        try original.prefix(22 + 4 + firstChunkLength).write(to: firstURL)
        await #expect(throws: (any Error).self) {
            _ = try await fixture.store.document(id: id, patientID: rex.id, scope: scope)
        }
        // Another document's file under this one's name.
        try Data(contentsOf: directory.appendingPathComponent(second.sha256)).write(to: firstURL)
        await #expect(throws: (any Error).self) {
            _ = try await fixture.store.document(id: id, patientID: rex.id, scope: scope)
        }
        // Restored, it reads again.
        try original.write(to: firstURL)
        #expect(try await fixture.store.document(id: id, patientID: rex.id, scope: scope).1.count == 200_000)
    }
}

private struct UploadedBody: Decodable { let id: String }
