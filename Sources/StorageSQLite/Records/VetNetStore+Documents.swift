import Crypto
import Foundation
import GRDB
import PatientRecords
import SharedKernel

/// A document attached to a patient's record.
public struct DocumentInfo: Sendable {
    /// Identifier.
    public let id: UUID
    /// The patient.
    public let patientID: Identifier<Patient>
    /// Name as uploaded.
    public let fileName: String
    /// `application/pdf`, `image/png` or `image/jpeg`.
    public let contentType: String
    /// Size in bytes.
    public let byteCount: Int
    /// SHA-256 of the content, hex (also the stored file's name).
    public let sha256: String
    /// When it was uploaded.
    public let createdAt: Date
}

/// What may be uploaded, identified by content and not only by the declared type.
public enum DocumentKind: String, CaseIterable, Sendable {
    case pdf = "application/pdf"
    case png = "image/png"
    case jpeg = "image/jpeg"

    /// The kind whose signature starts `data`, if any.
    public static func detect(_ data: Data) -> DocumentKind? {
        if data.starts(with: [0x25, 0x50, 0x44, 0x46, 0x2D]) { return .pdf }            // %PDF-
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}

extension VetNetStore {
    /// Largest accepted document.
    public static let maxDocumentBytes = 20 * 1024 * 1024

    /// Stores a document: checks the declared type against the content's signature and the
    /// size, writes the bytes encrypted under `documents/<sha256>`, then records it (audited).
    public func addDocument(patientID: Identifier<Patient>, fileName: String, declaredType: String, data: Data, scope: AccessScope) async throws -> DocumentInfo {
        var errors = FieldErrorCollector()
        let name = fileName.trimmingCharacters(in: .whitespaces)
        if name.isEmpty || name.count > 200 || name.contains("/") { errors.add("fileName", "must be 1 to 200 characters without '/'") }
        guard let declared = DocumentKind(rawValue: declaredType.lowercased()) else {
            errors.add("Content-Type", "must be one of \(DocumentKind.allCases.map(\.rawValue).joined(separator: ", "))")
            try errors.throwIfAny()
            throw ValidationError(field: "Content-Type", message: "unsupported")
        }
        if data.isEmpty { errors.add("body", "is empty") }
        if data.count > Self.maxDocumentBytes { errors.add("body", "exceeds \(Self.maxDocumentBytes / 1_048_576) MB") }
        if !data.isEmpty, DocumentKind.detect(data) != declared { errors.add("Content-Type", "does not match the file's content") }
        try errors.throwIfAny()
        guard let directory = documentsDirectory else { throw DomainError.conflict("this store keeps no documents") }
        // The patient first: an upload for another practice's or a made-up patient writes nothing.
        try await writer.read { db in try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue) }

        let sha = Hex.encode(SHA256.hash(data: data))
        let fileURL = directory.appendingPathComponent(sha)
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            let sealed = try cipher.seal(data, context: "document/\(sha)")
            // Written under a temporary name and flushed, then renamed and the directory
            // flushed: a crash leaves the whole file or none, never a torn one under the final
            // name. Should the record below not commit, the file is an orphan that
            // `sweepOrphanDocuments` removes.
            let temporary = directory.appendingPathComponent(".\(sha).\(UUID().uuidString).tmp")
            try DurableFile.create(sealed, at: temporary, mode: 0o600)
            try DurableFile.replace(fileURL, with: temporary)
        }
        let info = DocumentInfo(id: UUID(), patientID: patientID, fileName: name, contentType: declared.rawValue, byteCount: data.count,
                                sha256: sha, createdAt: clock.now())
        try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue)
            try db.execute(sql: """
                INSERT INTO document (id, practice_id, patient_id, file_name, content_type, byte_count, sha256, uploaded_by, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [UUIDText.lowercase(info.id), scope.practiceID.description, patientID.description, info.fileName,
                                 info.contentType, info.byteCount, sha, scope.actorID?.description, Timestamp.string(info.createdAt)])
            try self.appendAudit(AuditRecord(action: "record.document.upload", resourceType: "document", resourceID: UUIDText.lowercase(info.id),
                                             detail: "patient=\(patientID)"), scope: scope, db: db)
            try self.appendEvent(.recordEntryAdded(patientID: patientID, entryType: "document", entryID: UUIDText.lowercase(info.id),
                                                   practiceID: scope.practiceID, occurredAt: info.createdAt), scope: scope, db: db)
        }
        return info
    }

    /// A patient's documents, newest first (audited).
    public func documents(patientID: Identifier<Patient>, scope: AccessScope) async throws -> [DocumentInfo] {
        try await write { db in
            try Self.requirePatient(db: db, scope: scope, patientID: patientID.rawValue)
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM document WHERE patient_id = ? AND practice_id = ? ORDER BY created_at DESC",
                                        arguments: [patientID.description, scope.practiceID.description])
            try self.appendAudit(AuditRecord(action: "record.document.list", resourceType: "patient", resourceID: patientID.description), scope: scope, db: db)
            return try rows.map(Self.document(from:))
        }
    }

    /// A document's metadata and decrypted bytes (audited download).
    public func document(id: UUID, patientID: Identifier<Patient>, scope: AccessScope) async throws -> (DocumentInfo, Data) {
        let info = try await write { db -> DocumentInfo in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM document WHERE id = ? AND patient_id = ? AND practice_id = ?",
                                             arguments: [UUIDText.lowercase(id), patientID.description, scope.practiceID.description]) else {
                throw DomainError.notFound(resource: "document")
            }
            try self.appendAudit(AuditRecord(action: "record.document.download", resourceType: "document", resourceID: UUIDText.lowercase(id)),
                                 scope: scope, db: db)
            return try Self.document(from: row)
        }
        guard let directory = documentsDirectory,
              let sealed = FileManager.default.contents(atPath: directory.appendingPathComponent(info.sha256).path) else {
            throw DomainError.notFound(resource: "document content")
        }
        return (info, try cipher.open(sealed, context: "document/\(info.sha256)"))
    }

    /// Removes files in the documents directory that no document record names — left by an
    /// upload whose record did not commit, or by a purge — and temporary files older than an
    /// hour. Returns how many were removed. Runs when the server starts.
    @discardableResult
    public func sweepOrphanDocuments() async throws -> Int {
        guard let directory = documentsDirectory else { return 0 }
        let referenced = Set(try await writer.read { db in try String.fetchAll(db, sql: "SELECT DISTINCT sha256 FROM document") })
        let cutoff = clock.now().addingTimeInterval(-3600)
        var removed = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(name)
            let isTemporary = name.hasPrefix(".")
            if isTemporary {
                // A temporary file may belong to an upload in progress: only old ones go.
                let modified = (try? FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? .distantPast
                guard modified < cutoff else { continue }
            } else if referenced.contains(name) || name.count != 64 {
                continue
            }
            // A file recorded between the read above and here keeps its name; only unrecorded ones go.
            if !isTemporary, try await writer.read({ db in try Bool.fetchOne(db, sql: "SELECT EXISTS(SELECT 1 FROM document WHERE sha256 = ?)", arguments: [name]) }) == true {
                continue
            }
            try FileManager.default.removeItem(at: url)
            removed += 1
        }
        if removed > 0 { try DurableFile.syncDirectory(directory) }
        return removed
    }

    static func document(from row: Row) throws -> DocumentInfo {
        DocumentInfo(id: try row.uuid("id"), patientID: try row.identifier("patient_id"), fileName: row["file_name"],
                     contentType: row["content_type"], byteCount: row["byte_count"], sha256: row["sha256"],
                     createdAt: Timestamp.date(row["created_at"] as String) ?? .distantPast)
    }
}
