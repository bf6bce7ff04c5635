import Foundation
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import StorageSupport

extension PostgresStore: DocumentRepository {
    /// Rows of `document_chunk` hold this much of a sealed document each: few rows per
    /// document (20 MiB at most), and a row well below the protocol's and TOAST's limits.
    static let documentChunkBytes = 1 << 20

    /// Begins receiving a document. The file name, the declared type and the patient are
    /// checked first, so a refused upload writes nothing; the upload then seals the bytes into
    /// a temporary file in ``uploadDirectory`` as they arrive (one 64 KiB chunk in memory).
    public func beginDocument(
        patientID: Identifier<Patient>, fileName: String, declaredType: String, scope: AccessScope
    ) async throws -> DocumentUpload {
        _ = try DocumentKind.checkDescription(fileName: fileName, declaredType: declaredType)
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.requireRecordPatient(
                patientID.rawValue, practiceID: scope.practiceID, connection: connection)
        }
        try FileManager.default.createDirectory(
            at: uploadDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try DocumentUpload(directory: uploadDirectory, keyBytes: cipher.keyBytes, limit: maxDocumentBytes)
    }

    /// Keeps a received document, checked and decided by
    /// ``DocumentRepository/addDocument(_:patientID:fileName:declaredType:scope:)``: in one
    /// transaction writes the document's row, its sealed content (the upload file as it is,
    /// read back in rows of ``documentChunkBytes``), its audit entry and its event. Every
    /// instance sharing the database can serve it from then on; nothing of it stays on this
    /// machine (the temporary file goes with the upload).
    public func storeDocument(_ upload: DocumentUpload, as document: FinishedDocument, scope: AccessScope)
        async throws
    {
        let info = document.info
        let patientID = info.patientID
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.requireRecordPatient(
                patientID.rawValue, practiceID: scope.practiceID, connection: connection)
            try await connection.insert(
                RecordRows.insert(info, practiceID: scope.practiceID, uploadedBy: scope.actorID?.description),
                logger: self.logger)
            let file = try FileHandle(forReadingFrom: upload.temporaryURL)
            defer { try? file.close() }
            var index: Int32 = 0
            while let chunk = try file.read(upToCount: Self.documentChunkBytes), !chunk.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO document_chunk (document_id, practice_id, seq, bytes)
                    VALUES (\(info.id), \(scope.practiceID.rawValue), \(index), \(chunk))
                    """, logger: self.logger)
                index += 1
            }
            try await self.appendAudit(
                document.audit, events: [document.event], scope: scope, connection: connection)
        }
    }

    /// A patient's documents, newest first (audited).
    public func documents(patientID: Identifier<Patient>, scope: AccessScope) async throws -> [DocumentInfo] {
        try await transaction(.practice(scope.practiceID)) { connection in
            try await self.requireRecordPatient(
                patientID.rawValue, practiceID: scope.practiceID, connection: connection)
            let documents: [DocumentInfo] = try await connection.rows(
                """
                SELECT \(unescaped: Self.documentColumns) FROM document
                WHERE practice_id = \(scope.practiceID.rawValue) AND patient_id = \(patientID.rawValue)
                    ORDER BY created_at_ms DESC, id DESC
                """, logger: self.logger
            ) { try RecordRows.document(from: $0) }
            try await self.appendAudit(
                AuditRecord.patient(.recordDocumentList, patientID.rawValue),
                scope: scope, connection: connection)
            return documents
        }
    }

    /// A document's metadata and content (audited download). The rows are put back together
    /// in order and opened with the record key: a changed, missing, reordered or foreign chunk
    /// fails to open, and content whose SHA-256 is not the recorded one is refused.
    public func document(id: UUID, patientID: Identifier<Patient>, scope: AccessScope) async throws -> (
        DocumentInfo, Data
    ) {
        let (info, sealed, inOrder) = try await transaction(.practice(scope.practiceID)) {
            connection -> (DocumentInfo, Data, Bool) in
            let info = try await connection.firstRow(
                """
                SELECT \(unescaped: Self.documentColumns) FROM document
                WHERE id = \(id) AND patient_id = \(patientID.rawValue) AND practice_id = \(scope.practiceID.rawValue)
                """, logger: self.logger
            ) { try RecordRows.document(from: $0) }.orNotFound("document")
            var sealed = Data()
            var expected: Int32 = 0
            var inOrder = true
            for try await (index, bytes) in try await connection.query(
                """
                SELECT seq,
                    bytes FROM document_chunk WHERE document_id = \(id) AND practice_id = \(scope.practiceID.rawValue)
                    ORDER BY seq
                """, logger: self.logger
            ).decode((Int32, Data).self) {
                // Read to the end whatever is found: the connection serves the audit append next.
                if index != expected { inOrder = false }
                sealed.append(bytes)
                expected += 1
            }
            // Audited last: the append locks the installation's audit head until commit, and
            // other writers should not wait while megabytes are read.
            try await self.appendAudit(
                AuditRecord.document(.recordDocumentDownload, id),
                scope: scope, connection: connection)
            return (info, sealed, inOrder)
        }
        guard inOrder else { throw RecordCipher.CipherError.cannotOpen }
        guard !sealed.isEmpty else { throw DomainError.notFound(resource: "document content") }
        return (info, try DocumentUpload.content(of: sealed, sha256: info.sha256, cipher: cipher))
    }

    /// Removes uploads left in ``uploadDirectory`` by requests cut off mid-way (`.upload.*.tmp`
    /// files older than an hour: a younger one may belong to an upload in progress). Content
    /// in the database always has its document row (it is written in the same transaction and
    /// deleted with it), so nothing there is ever left over. Returns how many files went.
    @discardableResult
    public func sweepOrphanDocuments() async throws -> Int {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: uploadDirectory.path) else { return 0 }
        let cutoff = clock.now().addingTimeInterval(-3600)
        var removed = 0
        for name in names where name.hasPrefix(".upload.") && name.hasSuffix(".tmp") {
            let url = uploadDirectory.appendingPathComponent(name)
            guard let modified = try? manager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            do {
                try manager.removeItem(at: url)
                removed += 1
            } catch  where !manager.fileExists(atPath: url.path) {
                continue // another instance sharing the directory swept it first
            }
        }
        return removed
    }

    /// The columns ``RecordRows/document(from:)`` reads.
    static let documentColumns =
        "id, patient_id, file_name, content_type, byte_count, sha256, created_at_ms AS created_at"
}
