import Crypto
import Foundation
import SharedKernel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A document larger than the store accepts; nothing of it is kept.
public struct DocumentTooLarge: Error, Sendable {
    /// The limit, in bytes.
    public let limit: Int

    /// Creates the value from its parts.
    public init(limit: Int) {
        self.limit = limit
    }
}

/// A document being received: its bytes are encrypted chunk by chunk into a temporary file
/// as they arrive, so an upload holds one chunk in memory however large the document.
///
/// The file format (`VNDOC2`): a 6-byte magic and a 16-byte random file id, then chunks of
/// at most 64 KiB of plaintext, each stored as a 4-byte big-endian length and an AES-256-GCM
/// box (nonce, ciphertext, tag) whose associated data names the file id, the chunk's index
/// and whether it is the last. Reordering, dropping, truncating or appending chunks therefore
/// fails to open, and a file moved under another document's name fails the SHA-256 check
/// made after opening (the name is the hash of the plaintext).
///
/// Not thread-safe: one upload belongs to the request receiving it.
public final class DocumentUpload {
    package static let magic: [UInt8] = Array("VNDOC2".utf8)
    package static let chunkSize = 64 * 1024

    /// The temporary file, renamed to the document's hash when the record commits.
    package let temporaryURL: URL
    private let descriptor: Int32
    private let key: SymmetricKey
    private let fileID: [UInt8]
    private let limit: Int
    private var pending: [UInt8] = []
    private var chunkIndex: UInt64 = 0
    private var hasher = SHA256()
    private var prefix: [UInt8] = []
    private(set) var byteCount = 0
    private var finished = false
    private var kept = false

    /// What a finished upload holds.
    package struct Summary {
        package let sha256: String
        package let byteCount: Int
        /// The content's first bytes (up to 16), which show its kind.
        package let leadingBytes: Data
    }

    package init(directory: URL, keyBytes: [UInt8], limit: Int) throws {
        temporaryURL = directory.appendingPathComponent(".upload.\(UUID().uuidString).tmp")
        key = SymmetricKey(data: keyBytes)
        fileID = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        self.limit = limit
        descriptor = open(temporaryURL.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw DurableFile.Failure(operation: "create", path: temporaryURL.path, code: errno)
        }
        try write(Self.magic + fileID)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !kept { unlink(temporaryURL.path) }
    }

    /// Takes the next bytes of the document; throws ``DocumentTooLarge`` past the limit.
    public func append(_ bytes: some Collection<UInt8>) throws {
        guard !finished else { throw RecordCipher.CipherError.cannotOpen }
        byteCount += bytes.count
        guard byteCount <= limit else { throw DocumentTooLarge(limit: limit) }
        if prefix.count < 16 { prefix += bytes.prefix(16 - prefix.count) }
        pending += bytes
        while pending.count >= Self.chunkSize {
            try seal(Array(pending.prefix(Self.chunkSize)), last: false)
            pending.removeFirst(Self.chunkSize)
        }
    }

    /// Seals the last chunk and flushes the file to disk.
    package func finish() throws -> Summary {
        if !finished {
            try seal(pending, last: true)
            pending = []
            finished = true
            guard fsync(descriptor) == 0 else {
                throw DurableFile.Failure(operation: "fsync", path: temporaryURL.path, code: errno)
            }
        }
        return Summary(sha256: Hex.encode(hasher.finalize()), byteCount: byteCount, leadingBytes: Data(prefix))
    }

    /// Marks the temporary file as taken over (renamed), so it is not removed on release.
    package func keep() { kept = true }

    private func seal(_ chunk: [UInt8], last: Bool) throws {
        hasher.update(data: chunk)
        let box = try AES.GCM.seal(
            chunk, using: key, authenticating: Self.associatedData(fileID: fileID, index: chunkIndex, last: last))
        guard let combined = box.combined else { throw RecordCipher.CipherError.cannotOpen }
        let length = UInt32(combined.count)
        try write(
            [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + Array(combined))
        chunkIndex += 1
    }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try DurableFile.writeAll($0, to: descriptor, path: temporaryURL.path) }
    }

    package static func associatedData(fileID: [UInt8], index: UInt64, last: Bool) -> Data {
        Data("document-chunk/\(Hex.encode(fileID))/\(index)/\(last ? 1 : 0)".utf8)
    }

    /// The content of the document whose SHA-256 is `sha256`, opened from its sealed `file`.
    /// Both stores keep a document under its hash, so content that hashes otherwise (a file
    /// moved under another document's name, rows swapped) is refused as unopenable.
    package static func content(of file: Data, sha256: String, cipher: RecordCipher) throws -> Data {
        let content = try plaintext(of: file, cipher: cipher, legacyContext: "document/\(sha256)")
        guard Hex.encode(SHA256.hash(data: content)) == sha256 else { throw RecordCipher.CipherError.cannotOpen }
        return content
    }

    /// The plaintext of a stored document file: the chunked format above, or a whole-file
    /// box sealed under `legacyContext` (files written before uploads were streamed).
    package static func plaintext(of file: Data, cipher: RecordCipher, legacyContext: String) throws -> Data {
        let bytes = [UInt8](file)
        guard bytes.starts(with: magic), bytes.count >= magic.count + 16 else {
            return try cipher.open(file, context: legacyContext)
        }
        let key = SymmetricKey(data: cipher.keyBytes)
        let fileID = Array(bytes[magic.count..<(magic.count + 16)])
        var offset = magic.count + 16
        var index: UInt64 = 0
        var plaintext = Data()
        var sawLast = false
        while offset < bytes.count {
            guard !sawLast, offset + 4 <= bytes.count else { throw RecordCipher.CipherError.cannotOpen }
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            offset += 4
            guard length >= 28, offset + length <= bytes.count else { throw RecordCipher.CipherError.cannotOpen }
            let combined = Data(bytes[offset..<(offset + length)])
            offset += length
            // A box that opens as a middle chunk is not the last, and the other way round.
            let isLast = offset == bytes.count
            do {
                let box = try AES.GCM.SealedBox(combined: combined)
                plaintext += try AES.GCM.open(
                    box, using: key, authenticating: associatedData(fileID: fileID, index: index, last: isLast))
            } catch {
                throw RecordCipher.CipherError.cannotOpen
            }
            sawLast = isLast
            index += 1
        }
        guard sawLast else { throw RecordCipher.CipherError.cannotOpen }
        return plaintext
    }
}
