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

        let sha = Hex.encode(SHA256.hash(data: data))
        let fileURL = directory.appendingPathComponent(sha)
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            let sealed = try cipher.seal(data, context: "document/\(sha)")
            // Write then rename, so a crash never leaves a half-written file under the final name.
            let temporary = directory.appendingPathComponent(".\(sha).\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: temporary.path, contents: sealed, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            _ = try? FileManager.default.replaceItemAt(fileURL, withItemAt: temporary)
            if !FileManager.default.fileExists(atPath: fileURL.path) { try FileManager.default.moveItem(at: temporary, to: fileURL) }
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
            return rows.map(Self.document(from:))
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
            return Self.document(from: row)
        }
        guard let directory = documentsDirectory,
              let sealed = FileManager.default.contents(atPath: directory.appendingPathComponent(info.sha256).path) else {
            throw DomainError.notFound(resource: "document content")
        }
        return (info, try cipher.open(sealed, context: "document/\(info.sha256)"))
    }

    static func document(from row: Row) -> DocumentInfo {
        DocumentInfo(id: UUIDText.parse(row["id"])!, patientID: Identifier(uuidString: row["patient_id"])!, fileName: row["file_name"],
                     contentType: row["content_type"], byteCount: row["byte_count"], sha256: row["sha256"],
                     createdAt: Timestamp.date(row["created_at"] as String) ?? .distantPast)
    }
}
