import Foundation
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

    /// Creates the value from its parts.
    public init(
        id: UUID, patientID: Identifier<Patient>, fileName: String, contentType: String, byteCount: Int, sha256: String,
        createdAt: Date
    ) {
        self.id = id
        self.patientID = patientID
        self.fileName = fileName
        self.contentType = contentType
        self.byteCount = byteCount
        self.sha256 = sha256
        self.createdAt = createdAt
    }
}

/// What may be uploaded, identified by content and not only by the declared type.
public enum DocumentKind: String, CaseIterable, Sendable {
    case pdf = "application/pdf"
    case png = "image/png"
    case jpeg = "image/jpeg"

    /// The kind whose signature starts `data`, if any.
    public static func detect(_ data: Data) -> DocumentKind? {
        if data.starts(with: [0x25, 0x50, 0x44, 0x46, 0x2D]) { return .pdf } // %PDF-
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }
}

extension DocumentKind {
    /// Checks what an upload says of itself before any byte is read: the trimmed file name
    /// (1 to 200 characters, no `/`) and the declared kind. Returns both, or throws the errors
    /// naming `fileName` and `Content-Type`.
    public static func checkDescription(fileName: String, declaredType: String) throws -> (String, DocumentKind) {
        var errors = FieldErrorCollector()
        let name = fileName.trimmingCharacters(in: .whitespaces)
        if name.isEmpty || name.count > 200 || name.contains("/") {
            errors.add("fileName", "must be 1 to 200 characters without '/'")
        }
        let declared = DocumentKind(rawValue: declaredType.lowercased())
        if declared == nil {
            errors.add(
                "Content-Type", "must be one of \(DocumentKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try errors.throwIfAny()
        guard let declared else { throw ValidationError(field: "Content-Type", message: "unsupported") }
        return (name, declared)
    }
}
