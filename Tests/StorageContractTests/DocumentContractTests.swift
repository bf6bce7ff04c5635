import Foundation
import Logging
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import StoragePostgres
import StorageSupport
import Testing

/// Documents attached to records — sealed at rest, checked on the way in and on the way out —
/// held to every store adapter alike.
@Suite("Document contract (every store adapter)")
struct DocumentContractTests {
    /// Deterministic filler after a signature, so a content mix-up cannot go unnoticed.
    static func content(_ signature: [UInt8], bytes: Int) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var data = Data(signature)
        data.reserveCapacity(bytes)
        while data.count < bytes {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            data.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return data
    }

    static func png(bytes: Int) -> Data { content([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], bytes: bytes) }
    static func pdf(bytes: Int) -> Data { content(Array("%PDF-1.7\n".utf8), bytes: bytes) }

    /// Where the store receives uploads (its temporary files are there while they last).
    static func uploadDirectory(_ store: StoreUnderTest, _ scope: AccessScope, _ patient: Identifier<Patient>)
        async throws -> URL
    {
        let upload = try await store.documents.beginDocument(
            patientID: patient, fileName: "probe.png", declaredType: "image/png", scope: scope)
        return upload.temporaryURL.deletingLastPathComponent()
    }

    static func leftoverUploads(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".upload.") }
    }

    @Test(
        "a document goes in streamed or whole and comes out byte for byte, listed newest first, audited and announced",
        arguments: Adapter.available)
    func roundTrip(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await MedicalRecordContractTests.rex(store)
            let id = rex.value.id
            let documents = store.documents
            // Larger than one stored row (1 MiB) and not a whole number of sealed chunks (64 KiB).
            let scan = Self.pdf(bytes: 5 * 512 * 1024 + 7)
            let whole = try await documents.addDocument(
                patientID: id, fileName: "  referral scan.pdf ", declaredType: "application/pdf", data: scan,
                scope: scope)
            #expect(
                whole.fileName == "referral scan.pdf" && whole.contentType == "application/pdf"
                    && whole.byteCount == scan.count)
            #expect(whole.patientID == id && whole.createdAt == store.clock.clock.now() && whole.sha256.count == 64)

            store.clock.advance(60)
            let image = Self.png(bytes: 200_003)
            let upload = try await documents.beginDocument(
                patientID: id, fileName: "x-ray.png", declaredType: "IMAGE/PNG", scope: scope)
            for start in stride(from: 0, to: image.count, by: 10_000) {
                try upload.append(image[start..<min(start + 10_000, image.count)])
            }
            let streamed = try await documents.addDocument(
                upload, patientID: id, fileName: "x-ray.png", declaredType: "IMAGE/PNG", scope: scope)
            #expect(streamed.contentType == "image/png" && streamed.byteCount == image.count)

            let listed = try await documents.documents(patientID: id, scope: scope)
            #expect(listed.map(\.id) == [streamed.id, whole.id])
            #expect(
                listed.map(\.sha256) == [streamed.sha256, whole.sha256]
                    && listed.map(\.fileName) == ["x-ray.png", "referral scan.pdf"])
            let (info, data) = try await documents.document(id: whole.id, patientID: id, scope: scope)
            #expect(data == scan && info.sha256 == whole.sha256 && info.byteCount == scan.count)
            #expect(try await documents.document(id: streamed.id, patientID: id, scope: scope).1 == image)
            // The same content twice is two documents, each readable.
            let again = try await documents.addDocument(
                patientID: id, fileName: "copy.png", declaredType: "image/png", data: image, scope: scope)
            #expect(again.sha256 == streamed.sha256 && again.id != streamed.id)
            #expect(try await documents.document(id: again.id, patientID: id, scope: scope).1 == image)

            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events
                .filter { $0.kind == RecordEventKind.entryAdded && $0.payload["entryType"] == "document" }
            #expect(
                events.compactMap { $0.payload["entryID"] }
                    == [whole, streamed, again].map { UUIDText.lowercase($0.id) })
            let audit = try await store.audit.auditEntries(
                scope: scope, limit: 100, before: nil, resourceType: ResourceKind.document.rawValue, resourceID: nil
            ).items
            #expect(audit.filter { $0.action == "record.document.upload" }.count == 3)
            #expect(audit.filter { $0.action == "record.document.download" }.count == 3)
            #expect(audit.first { $0.action == "record.document.upload" }?.detail == "patient=\(id)")
            #expect(try await store.audit.verifyAuditChain().isIntact)

            if let (postgres, configuration) = store.postgres.map({ ($0.owner, $0.configuration) }) {
                // The content lives in the database, in rows of at most 1 MiB…
                #expect(
                    try await countRows(postgres, "SELECT count(*) FROM document_chunk WHERE document_id = \(whole.id)")
                        == 3)
                #expect(
                    try await countRows(postgres, "SELECT max(length(bytes))::bigint FROM document_chunk") == 1 << 20)
                // …so another instance, with an upload directory of its own, serves it.
                let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "vetnet-other-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: elsewhere) }
                try await withRunningStore(
                    configuration, clock: store.clock, migrate: false, uploadDirectory: elsewhere
                ) { other in
                    let (_, served) = try await other.document(id: whole.id, patientID: id, scope: scope)
                    #expect(served == scan)
                }
            }
        }
    }

    @Test(
        """
        a wrong type, a bad name, an empty or oversized body, another practice's or an unknown patient are refused, \
        writing nothing
        """,
        arguments: Adapter.available)
    func refusals(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await MedicalRecordContractTests.rex(store)
            let (otherScope, otherRex) = try await MedicalRecordContractTests.rex(store, practice: "Hillside")
            let id = rex.value.id
            let documents = store.documents
            func fields(_ body: () async throws -> Void) async -> [String] {
                do { try await body() } catch let error as ValidationError { return error.errors.map(\.field) } catch {
                    return ["\(error)"]
                }
                return []
            }
            // The content decides, not the declared type.
            let disguised = await fields {
                _ = try await documents.addDocument(
                    patientID: id, fileName: "photo.png", declaredType: "image/png", data: Self.pdf(bytes: 2000),
                    scope: scope)
            }
            #expect(disguised == ["Content-Type"])
            let unknownContent = await fields {
                _ = try await documents.addDocument(
                    patientID: id, fileName: "notes.pdf", declaredType: "application/pdf",
                    data: Data("just text".utf8), scope: scope)
            }
            #expect(unknownContent == ["Content-Type"])
            // Refused before any byte is read.
            let unsupported = await fields {
                _ = try await documents.beginDocument(
                    patientID: id, fileName: "notes.txt", declaredType: "text/plain", scope: scope)
            }
            #expect(unsupported == ["Content-Type"])
            let badName = await fields {
                _ = try await documents.beginDocument(
                    patientID: id, fileName: "../etc/x.pdf", declaredType: "application/pdf", scope: scope)
            }
            #expect(badName == ["fileName"])
            let empty = await fields {
                _ = try await documents.addDocument(
                    patientID: id, fileName: "empty.pdf", declaredType: "application/pdf", data: Data(), scope: scope)
            }
            #expect(empty == ["body"])
            let oversized = await fields {
                _ = try await documents.addDocument(
                    patientID: id, fileName: "huge.pdf", declaredType: "application/pdf",
                    data: Self.pdf(bytes: maxDocumentBytes + 1), scope: scope)
            }
            #expect(oversized == ["body"])
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await documents.beginDocument(
                    patientID: otherRex.value.id, fileName: "x.png", declaredType: "image/png", scope: scope)
            }
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await documents.addDocument(
                    patientID: Identifier(), fileName: "x.png", declaredType: "image/png", data: Self.png(bytes: 100),
                    scope: scope)
            }
            #expect(try await documents.documents(patientID: id, scope: scope).isEmpty)
            let events = try await store.events.events(practiceID: scope.practiceID, after: 0, limit: 100).events
            #expect(!events.contains { $0.kind == RecordEventKind.entryAdded })

            // Stored for Rex: not found through another practice, nor under another patient.
            let stored = try await documents.addDocument(
                patientID: id, fileName: "x.png", declaredType: "image/png", data: Self.png(bytes: 100),
                scope: scope)
            await #expect(throws: DomainError.notFound(resource: "document")) {
                _ = try await documents.document(id: stored.id, patientID: id, scope: otherScope)
            }
            await #expect(throws: DomainError.notFound(resource: "document")) {
                _ = try await documents.document(id: stored.id, patientID: otherRex.value.id, scope: otherScope)
            }
            let tom = Identifier<Patient>(try await store.patient(scope: scope, name: "Tom"))
            await #expect(throws: DomainError.notFound(resource: "document")) {
                _ = try await documents.document(id: stored.id, patientID: tom, scope: scope)
            }
            await #expect(throws: DomainError.notFound(resource: "patient")) {
                _ = try await documents.documents(patientID: id, scope: otherScope)
            }
            #expect(try await documents.documents(patientID: otherRex.value.id, scope: otherScope).isEmpty)
            // No refused upload left a temporary file behind (the probe's own is the one there).
            #expect(try Self.leftoverUploads(in: try await Self.uploadDirectory(store, scope, id)).count <= 1)
        }
    }

    @Test(
        "stored content that was changed, cut short or moved under another document is refused",
        arguments: Adapter.available)
    func tampering(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await MedicalRecordContractTests.rex(store)
            let id = rex.value.id
            let documents = store.documents
            let scan = Self.pdf(bytes: 1_500_000)
            let stored = try await documents.addDocument(
                patientID: id, fileName: "scan.pdf", declaredType: "application/pdf", data: scan, scope: scope)
            let other = try await documents.addDocument(
                patientID: id, fileName: "other.pdf", declaredType: "application/pdf",
                data: Self.pdf(bytes: 1_500_000 - 1), scope: scope)
            #expect(try await documents.document(id: stored.id, patientID: id, scope: scope).1 == scan)

            switch adapter {
            case .postgres:
                let postgres = try #require(store.postgres).owner
                func sql(_ query: PostgresQuery) async throws {
                    try await asInstallation(postgres) { connection in
                        _ = try await connection.query(query, logger: Logger(label: "test"))
                    }
                }
                // One bit of the second row flipped.
                try await sql(
                    """
                    UPDATE document_chunk SET bytes = set_byte(bytes, 1000, get_byte(bytes, 1000) # 1) WHERE \
                    document_id = \(stored.id) AND seq = 1
                    """)
                await #expect(throws: RecordCipher.CipherError.cannotOpen) {
                    _ = try await documents.document(id: stored.id, patientID: id, scope: scope)
                }
                try await sql(
                    """
                    UPDATE document_chunk SET bytes = set_byte(bytes, 1000, get_byte(bytes, 1000) # 1) WHERE \
                    document_id = \(stored.id) AND seq = 1
                    """)
                #expect(try await documents.document(id: stored.id, patientID: id, scope: scope).1 == scan)
                // Another document's rows put in its place (the sealed chunks name their file).
                try await sql(
                    """
                    UPDATE document_chunk c SET bytes = o.bytes FROM document_chunk o
                    WHERE c.document_id = \(stored.id) AND o.document_id = \(other.id) AND o.seq = c.seq
                    """)
                await #expect(throws: RecordCipher.CipherError.cannotOpen) {
                    _ = try await documents.document(id: stored.id, patientID: id, scope: scope)
                }
                // The last row missing.
                try await sql("DELETE FROM document_chunk WHERE document_id = \(other.id) AND seq = 1")
                await #expect(throws: RecordCipher.CipherError.cannotOpen) {
                    _ = try await documents.document(id: other.id, patientID: id, scope: scope)
                }
            case .sqlite:
                let directory = try #require(store.sqlite?.documentsDirectory)
                let file = directory.appendingPathComponent(stored.sha256)
                var bytes = try Data(contentsOf: file)
                bytes[1_100_000] ^= 1
                try bytes.write(to: file)
                await #expect(throws: RecordCipher.CipherError.cannotOpen) {
                    _ = try await documents.document(id: stored.id, patientID: id, scope: scope)
                }
                let otherFile = directory.appendingPathComponent(other.sha256)
                try Data(try Data(contentsOf: otherFile).prefix(1_200_000)).write(to: otherFile)
                await #expect(throws: RecordCipher.CipherError.cannotOpen) {
                    _ = try await documents.document(id: other.id, patientID: id, scope: scope)
                }
            }
        }
    }

    @Test(
        "the sweep removes uploads cut off more than an hour ago and keeps younger ones", arguments: Adapter.available)
    func sweep(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let (scope, rex) = try await MedicalRecordContractTests.rex(store)
            let documents = store.documents
            let now = store.clock.clock.now()
            let abandoned = try await documents.beginDocument(
                patientID: rex.value.id, fileName: "a.pdf", declaredType: "application/pdf", scope: scope)
            try abandoned.append(Self.pdf(bytes: 100_000))
            let inProgress = try await documents.beginDocument(
                patientID: rex.value.id, fileName: "b.pdf", declaredType: "application/pdf", scope: scope)
            try inProgress.append(Self.pdf(bytes: 1000))
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-7200)], ofItemAtPath: abandoned.temporaryURL.path)
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-600)], ofItemAtPath: inProgress.temporaryURL.path)
            let kept = try await documents.addDocument(
                patientID: rex.value.id, fileName: "kept.png", declaredType: "image/png",
                data: Self.png(bytes: 5000), scope: scope)

            #expect(try await documents.sweepOrphanDocuments() == 1)
            #expect(!FileManager.default.fileExists(atPath: abandoned.temporaryURL.path))
            #expect(FileManager.default.fileExists(atPath: inProgress.temporaryURL.path))
            #expect(try await documents.sweepOrphanDocuments() == 0)
            // Recorded documents are never swept.
            #expect(
                try await documents.document(id: kept.id, patientID: rex.value.id, scope: scope).1
                    == Self.png(bytes: 5000))
            // The upload still in progress finishes normally.
            try inProgress.append(Self.pdf(bytes: 1000).dropFirst(9))
            let finished = try await documents.addDocument(
                inProgress, patientID: rex.value.id, fileName: "b.pdf", declaredType: "application/pdf",
                scope: scope)
            #expect(finished.byteCount == 1991)
        }
    }
}
