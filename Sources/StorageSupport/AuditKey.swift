import Crypto
import Foundation

/// The secret key of the audit hash chain. Without it an attacker who edits the database
/// cannot recompute valid hashes, so every edit, deletion, insertion or reordering shows.
public struct AuditKey: Sendable {
    let bytes: [UInt8]

    /// The key in swift-crypto's form (built on use: `SymmetricKey` is not `Sendable`).
    package var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    /// Errors raised while loading the key.
    public enum LoadError: Error, CustomStringConvertible {
        case tooShort(source: String)
        case notBase64(source: String)
        case unreadable(path: String)

        public var description: String {
            switch self {
            case .tooShort(let source): return "the audit key from \(source) must be at least 32 bytes"
            case .notBase64(let source): return "the audit key from \(source) is not valid base64"
            case .unreadable(let path): return "cannot read the audit key file at \(path)"
            }
        }
    }

    /// A key from raw bytes (at least 32).
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Loads the key: from `base64` configuration text when given, else from `audit.key` in
    /// `dataDirectory`, generating it there (32 random bytes, mode 0600) on first run.
    public static func load(configured base64: String?, dataDirectory: URL) throws -> AuditKey {
        if let base64, !base64.isEmpty {
            guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw LoadError.notBase64(source: "VETNET_AUDIT_KEY")
            }
            guard data.count >= 32 else { throw LoadError.tooShort(source: "VETNET_AUDIT_KEY") }
            return AuditKey(bytes: Array(data))
        }
        let bytes = try SecretFile.loadOrCreate(named: "audit.key", in: dataDirectory, byteCount: 32)
        guard bytes.count >= 32 else { throw LoadError.tooShort(source: "audit.key") }
        return AuditKey(bytes: bytes)
    }
}

/// A secret kept as a file in the data directory, readable by the owner only.
public enum SecretFile {
    /// Reads the secret named `name` in `directory`, creating it from the system CSPRNG with
    /// permissions 0600 if it does not exist. The file holds the bytes base64-encoded.
    public static func loadOrCreate(named name: String, in directory: URL, byteCount: Int) throws -> [UInt8] {
        // Private like the store beside it (an existing directory is checked when the store opens).
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) {
            guard let text = try? String(contentsOf: url, encoding: .utf8),
                let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { throw AuditKey.LoadError.unreadable(path: url.path) }
            return Array(data)
        }
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: byteCount * 8))
        let data = key.withUnsafeBytes { Data($0) }
        // Create with 0600 from the start so the secret is never briefly world-readable.
        guard
            FileManager.default.createFile(
                atPath: url.path, contents: Data(data.base64EncodedString().utf8),
                attributes: [.posixPermissions: 0o600])
        else {
            throw AuditKey.LoadError.unreadable(path: url.path)
        }
        return Array(data)
    }
}
