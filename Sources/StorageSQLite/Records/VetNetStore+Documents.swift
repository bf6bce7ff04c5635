import Foundation
import GRDB
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSupport

extension VetNetStore {

    /// Begins receiving a document for a patient. The file name, the declared type and the
    /// patient are checked first, so a refused upload (another practice's or a made-up patient,
    /// a bad name or type) writes nothing. The returned upload encrypts the bytes into a
    /// temporary file as they arrive; ``addDocument(_:patientID:fileName:declaredType:scope:)``
    /// records it.
    public func beginDocument(
        patientID: Identifier<Patient>, fileName: String, declaredType: String, scope: AccessScope
    ) async throws -> DocumentUpload {
        _ = try DocumentKind.checkDescription(fileName: fileName, declaredType: declaredType)
        guard let directory = documentsDirectory else { throw DomainError.conflict("this store keeps no documents") }
        try await writer.read { db in try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue) }
        return try DocumentUpload(directory: directory, keyBytes: cipher.keyBytes, limit: maxDocumentBytes)
    }

    /// Keeps a received document, checked and decided by
    /// ``DocumentRepository/addDocument(_:patientID:fileName:declaredType:scope:)``: publishes
    /// the file under the SHA-256 of its content (flushed, then renamed, then the directory
    /// flushed: a crash leaves the whole file or none), then writes the record with its audit
    /// entry and event. Should the record not commit, the file is an orphan that
    /// ``sweepOrphanDocuments()`` removes.
    public func storeDocument(_ upload: DocumentUpload, as document: FinishedDocument, scope: AccessScope)
        async throws
    {
        let info = document.info
        let patientID = info.patientID
        guard let directory = documentsDirectory else { throw DomainError.conflict("this store keeps no documents") }
        let fileURL = directory.appendingPathComponent(info.sha256)
        // Identical uploads share one file; the temporary copy of a repeat is simply dropped.
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            try DurableFile.replace(fileURL, with: upload.temporaryURL)
            upload.keep()
        }
        try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue)
            try db.insert(
                RecordRows.insert(info, practiceID: scope.practiceID, uploadedBy: scope.actorID?.description))
            try self.appendAudit(document.audit, scope: scope, db: db)
            try self.appendEvent(document.event, scope: scope, db: db)
        }
    }

    /// A patient's documents, newest first (audited).
    public func documents(patientID: Identifier<Patient>, scope: AccessScope) async throws -> [DocumentInfo] {
        try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue)
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM document WHERE patient_id = ? AND practice_id = ? ORDER BY created_at DESC",
                arguments: [patientID.description, scope.practiceID.description])
            try self.appendAudit(
                AuditRecord.patient(.recordDocumentList, patientID.rawValue),
                scope: scope, db: db)
            return try rows.map(RecordRows.document(from:))
        }
    }

    /// A document's metadata and decrypted bytes (audited download).
    public func document(id: UUID, patientID: Identifier<Patient>, scope: AccessScope) async throws -> (
        DocumentInfo, Data
    ) {
        let info = try await write { db -> DocumentInfo in
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM document WHERE id = ? AND patient_id = ? AND practice_id = ?",
                arguments: [UUIDText.lowercase(id), patientID.description, scope.practiceID.description]
            ).orNotFound("document")
            try self.appendAudit(
                AuditRecord.document(.recordDocumentDownload, id),
                scope: scope, db: db)
            return try RecordRows.document(from: row)
        }
        guard let directory = documentsDirectory,
            let sealed = FileManager.default.contents(atPath: directory.appendingPathComponent(info.sha256).path)
        else {
            throw DomainError.notFound(resource: "document content")
        }
        return (info, try DocumentUpload.content(of: sealed, sha256: info.sha256, cipher: cipher))
    }

    /// Removes files in the documents directory that no document record names — left by an
    /// upload whose record did not commit, or by a purge — and temporary files older than an
    /// hour. Returns how many were removed. Runs when the server starts.
    @discardableResult
    public func sweepOrphanDocuments() async throws -> Int {
        guard let directory = documentsDirectory else { return 0 }
        let referenced = Set(
            try await writer.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM document") })
        let cutoff = clock.now().addingTimeInterval(-3600)
        var removed = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(name)
            let isTemporary = name.hasPrefix(".")
            if isTemporary {
                // A temporary file may belong to an upload in progress: only old ones go.
                let modified =
                    (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
                    ?? .distantPast
                guard modified < cutoff else { continue }
            } else if referenced.contains(name) || name.count != 64 {
                continue
            }
            // A file recorded between the read above and here keeps its name; only unrecorded ones go.
            if !isTemporary,
                try await writer.read({ db in
                    try Bool.fetchOne(
                        db, sql: "SELECT EXISTS(SELECT 1 FROM document WHERE sha256 = ?)", arguments: [name])
                }) == true
            {
                continue
            }
            try FileManager.default.removeItem(at: url)
            removed += 1
        }
        if removed > 0 { try DurableFile.syncDirectory(directory) }
        return removed
    }
}
