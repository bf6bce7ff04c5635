import Crypto
import Foundation

/// Encrypts clinical note text and documents at rest with AES-256-GCM. Each value gets a
/// fresh random nonce; the practice and record ids are bound as associated data, so a sealed
/// value copied onto another row or practice fails to open.
public struct RecordCipher: Sendable {
    /// The key (the document format seals chunk by chunk with it).
    package let keyBytes: [UInt8]
    /// The same key as the cipher takes it, made once: a record read opens dozens of values,
    /// and building the key for each was a measurable part of the read.
    private let key: SealingKey

    /// An immutable `SymmetricKey`, shareable across tasks (the type itself is not marked
    /// `Sendable`, but nothing mutates it after it is made).
    private final class SealingKey: @unchecked Sendable {
        let key: SymmetricKey
        init(_ bytes: [UInt8]) { key = SymmetricKey(data: bytes) }
    }

    /// Errors from sealing or opening.
    public enum CipherError: Error, CustomStringConvertible {
        case keyTooShort
        case cannotOpen

        public var description: String {
            switch self {
            case .keyTooShort: return "the record encryption key must be 32 bytes"
            case .cannotOpen: return "a sealed record could not be opened: wrong key or tampered data"
            }
        }
    }

    /// A cipher from a 32-byte key.
    public init(keyBytes: [UInt8]) throws {
        guard keyBytes.count == 32 else { throw CipherError.keyTooShort }
        self.keyBytes = keyBytes
        self.key = SealingKey(keyBytes)
    }

    /// Loads the key from `VETNET_RECORD_KEY` text (base64) when given, else from `record.key`
    /// in the data directory, generated with mode 0600 on first run.
    public static func load(configured base64: String?, dataDirectory: URL) throws -> RecordCipher {
        if let base64, !base64.isEmpty {
            guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw AuditKey.LoadError.notBase64(source: "VETNET_RECORD_KEY")
            }
            return try RecordCipher(keyBytes: Array(data))
        }
        return try RecordCipher(
            keyBytes: try SecretFile.loadOrCreate(named: "record.key", in: dataDirectory, byteCount: 32))
    }

    /// Seals `plaintext`, binding `context` (e.g. "practice/note-id") as associated data.
    public func seal(_ plaintext: Data, context: String) throws -> Data {
        let box = try AES.GCM.seal(plaintext, using: key.key, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw CipherError.cannotOpen }
        return combined
    }

    /// Opens a value sealed with the same key and context.
    public func open(_ sealed: Data, context: String) throws -> Data {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: key.key, authenticating: Data(context.utf8))
        } catch {
            throw CipherError.cannotOpen
        }
    }
}
