import Foundation
import SharedKernel

/// A signed note of the audit chain's head — its last sequence number and hash — kept in a
/// file outside the SQLite database.
///
/// The hash chain alone cannot show that its newest entries were deleted: what remains is a
/// shorter chain that verifies. The checkpoint remembers how far the chain had reached, so
/// `verify` can tell a chain that ends early (entries deleted from the end) or whose entry at
/// the checkpoint changed (the tail rewritten). It is signed with a key derived from the
/// audit key, so someone who can write the file but does not hold the key cannot move it
/// back to match a truncated chain.
public struct AuditCheckpoint: Sendable, Equatable {
    /// The sequence number of the newest entry when the checkpoint was written.
    public let sequence: Int64
    /// That entry's hash.
    public let headHash: String
    /// When the checkpoint was written (RFC 3339, UTC).
    public let writtenAt: String
    /// HMAC-SHA256 over the fields above.
    package let signature: String

    /// Signs a checkpoint of `sequence` and `headHash` written at `writtenAt`.
    package init(sequence: Int64, headHash: String, writtenAt: String, key: AuditKey) {
        self.sequence = sequence
        self.headHash = headHash
        self.writtenAt = writtenAt
        self.signature = Self.sign(sequence: sequence, headHash: headHash, writtenAt: writtenAt, key: key)
    }

    private init(sequence: Int64, headHash: String, writtenAt: String, signature: String) {
        self.sequence = sequence
        self.headHash = headHash
        self.writtenAt = writtenAt
        self.signature = signature
    }

    /// Whether the signature was made with `key`.
    package func isSigned(by key: AuditKey) -> Bool {
        Self.sign(sequence: sequence, headHash: headHash, writtenAt: writtenAt, key: key) == signature
    }

    // A domain label keeps a checkpoint signature from ever equalling an entry hash made with the same key.
    private static func sign(sequence: Int64, headHash: String, writtenAt: String, key: AuditKey) -> String {
        let text = "vetnet-audit-checkpoint-v1\u{1F}\(sequence)\u{1F}\(headHash)\u{1F}\(writtenAt)"
        return key.authenticationCode(of: text)
    }

    /// The file form: one line of text, `vetnet-audit-checkpoint-v1 SEQ HASH TIME SIGNATURE`.
    package var fileText: String { "vetnet-audit-checkpoint-v1 \(sequence) \(headHash) \(writtenAt) \(signature)\n" }

    /// Reads the file form; `nil` when the text is not a checkpoint.
    package static func parse(_ text: String) -> AuditCheckpoint? {
        let parts = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard parts.count == 5, parts[0] == "vetnet-audit-checkpoint-v1", let sequence = Int64(parts[1]), sequence >= 0,
            parts[2].count == 64, parts[4].count == 64
        else { return nil }
        return AuditCheckpoint(sequence: sequence, headHash: parts[2], writtenAt: parts[3], signature: parts[4])
    }
}

/// Where the checkpoint lives and how it is written: to a temporary name, flushed, renamed
/// over the old one and the directory flushed, so a crash leaves the old or the new
/// checkpoint, never a torn one. The file is created readable by its owner only.
public struct AuditCheckpointFile: Sendable {
    /// The checkpoint file.
    public let url: URL

    /// Errors reading the checkpoint.
    public enum ReadError: Error, CustomStringConvertible {
        /// The file exists but is not a checkpoint.
        case malformed(path: String)
        /// The signature does not match: written without the audit key, or edited.
        case badSignature(path: String)
        /// The chain no longer holds the entry the checkpoint recorded.
        case chainDoesNotExtend(path: String, sequence: Int64)

        public var description: String {
            switch self {
            case .malformed(let path): return "the audit checkpoint \(path) is not a checkpoint file"
            case .badSignature(let path):
                return
                    "the audit checkpoint \(path) is not signed with this store's audit key: it was edited or replaced"
            case .chainDoesNotExtend(let path, let sequence):
                return
                    """
                    the audit chain no longer holds entry #\(sequence) as the checkpoint \(path) recorded it; run \
                    `vetnet audit verify`
                    """
            }
        }
    }

    /// A checkpoint file at `url`.
    public init(url: URL) { self.url = url }

    /// The checkpoint, or `nil` when the file does not exist.
    package func read(key: AuditKey) throws -> AuditCheckpoint? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        guard let text = String(data: data, encoding: .utf8), let checkpoint = AuditCheckpoint.parse(text) else {
            throw ReadError.malformed(path: url.path)
        }
        guard checkpoint.isSigned(by: key) else { throw ReadError.badSignature(path: url.path) }
        return checkpoint
    }

    /// Replaces the checkpoint durably.
    package func write(_ checkpoint: AuditCheckpoint) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString.lowercased()).tmp")
        try DurableFile.create(Data(checkpoint.fileText.utf8), at: temporary, mode: 0o600)
        try DurableFile.replace(url, with: temporary)
    }
}
