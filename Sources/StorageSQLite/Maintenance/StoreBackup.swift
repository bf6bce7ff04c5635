import Crypto
import Foundation
import GRDB
import SharedKernel
import StoragePorts
import StorageSupport

/// A copy of an embedded store taken while it serves, and bringing one back.
///
/// A backup is a directory `vetnet-backup-<UTC time>` holding the database as of one moment
/// (SQLite's online backup, a consistent snapshot however many writers are busy), the audit
/// checkpoint copied just before it (so the copy's chain is never shorter than its checkpoint:
/// restoring it is not mistaken for a trail cut short), the encrypted documents copied just
/// after it (every document the snapshot names is there), and `backup.json`: what each file is,
/// its size and SHA-256, sealed with an HMAC under a key derived from the audit key, so a
/// backup altered or assembled from parts does not restore. The keys are not in it unless
/// asked for: whoever holds the backup alone then holds sealed notes and documents they cannot
/// open, and a chain they cannot re-sign.
public enum StoreBackup {
    /// The label and contents of a backup (`backup.json`).
    public struct Manifest: Codable, Sendable, Equatable {
        /// `vetnet-backup/1`.
        public var format: String
        /// When the snapshot was taken.
        public var createdAt: String
        /// Each file by its path inside the backup: its size and SHA-256 (hex).
        public var files: [String: FileEntry]
        /// Whether `audit.key` and `record.key` are in it.
        public var includesKeys: Bool
        /// The HMAC-SHA256 (hex) of everything above, under the audit key's backup key.
        public var seal: String

        /// A file's size and digest.
        public struct FileEntry: Codable, Sendable, Equatable {
            public var bytes: Int
            public var sha256: String
        }
    }

    /// A backup that cannot be taken or restored, and why.
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    static let format = "vetnet-backup/1"
    static let manifestName = "backup.json"
    static let keyNames = ["audit.key", "record.key"]

    /// Takes a backup of the store in `dataDirectory` (its checkpoint at `checkpoint`, by
    /// default `audit.checkpoint` there) into a new directory inside `destination`; returns
    /// the backup's directory and manifest.
    public static func take(
        dataDirectory: URL, checkpoint: URL?, auditKey: AuditKey, into destination: URL, includeKeys: Bool,
        now: Date = Date()
    ) throws -> (directory: URL, manifest: Manifest) {
        let fileManager = FileManager.default
        let database = dataDirectory.appendingPathComponent("vetnet.sqlite")
        guard fileManager.fileExists(atPath: database.path) else {
            throw Refusal("\(dataDirectory.path) holds no VetNet store (no vetnet.sqlite)")
        }
        try fileManager.createDirectory(
            at: destination, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stamp = Timestamp.string(now)
        let name = "vetnet-backup-" + stamp.filter { $0.isNumber || $0 == "T" || $0 == "Z" }
        let directory = destination.appendingPathComponent(name)
        guard !fileManager.fileExists(atPath: directory.path) else { throw Refusal("\(directory.path) already exists") }
        try fileManager.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])

        // 1. The checkpoint first: the snapshot taken next holds at least the entries it signs.
        let checkpointFile = checkpoint ?? dataDirectory.appendingPathComponent("audit.checkpoint")
        if fileManager.fileExists(atPath: checkpointFile.path) {
            try copyPrivately(checkpointFile, to: directory.appendingPathComponent("audit.checkpoint"))
        }
        // 2. The database as of one moment, while the server goes on writing.
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(10)
        let source = try DatabasePool(path: database.path, configuration: readOnly)
        let copyURL = directory.appendingPathComponent("vetnet.sqlite")
        guard
            FileManager.default.createFile(atPath: copyURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw Refusal("cannot create \(copyURL.path)")
        }
        let copy = try DatabaseQueue(path: copyURL.path)
        try source.backup(to: copy)
        try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try copy.close()
        try source.close()
        // 3. The documents after it: every one the snapshot names was written before it.
        let documents = dataDirectory.appendingPathComponent("documents")
        if fileManager.fileExists(atPath: documents.path) {
            let target = directory.appendingPathComponent("documents")
            try fileManager.createDirectory(
                at: target, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for item in try fileManager.contentsOfDirectory(atPath: documents.path) where !item.hasPrefix(".") {
                try copyPrivately(documents.appendingPathComponent(item), to: target.appendingPathComponent(item))
            }
        }
        if includeKeys {
            for key in keyNames where fileManager.fileExists(atPath: dataDirectory.appendingPathComponent(key).path) {
                try copyPrivately(dataDirectory.appendingPathComponent(key), to: directory.appendingPathComponent(key))
            }
        }
        var manifest = Manifest(
            format: format, createdAt: stamp, files: try inventory(of: directory), includesKeys: includeKeys, seal: "")
        manifest.seal = try seal(manifest, auditKey: auditKey)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try writePrivately(try encoder.encode(manifest), to: directory.appendingPathComponent(manifestName))
        return (directory, manifest)
    }

    /// Reads a backup's manifest and checks it: the seal under `auditKey` (a different
    /// installation's key, or an edited label, is refused) and every file's size and digest.
    public static func verify(_ backup: URL, auditKey: AuditKey) throws -> Manifest {
        guard let data = FileManager.default.contents(atPath: backup.appendingPathComponent(manifestName).path),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data), manifest.format == format
        else { throw Refusal("\(backup.path) is not a VetNet backup (no readable \(manifestName))") }
        guard try seal(manifest, auditKey: auditKey) == manifest.seal else {
            throw Refusal(
                "the backup's seal does not match this audit key: it was altered, or belongs to another installation")
        }
        let found = try inventory(of: backup)
        for (path, entry) in manifest.files where found[path] != entry {
            throw Refusal("\(path) in the backup is missing or changed since the backup was taken")
        }
        if let extra = found.keys.first(where: { manifest.files[$0] == nil }) {
            throw Refusal("\(extra) in the backup was not in it when it was taken")
        }
        return manifest
    }

    /// Copies a verified backup into `dataDirectory`, which must hold no store yet; the keys
    /// go along when the backup has them. Opening and verifying the store is the caller's next step.
    public static func restore(_ backup: URL, manifest: Manifest, into dataDirectory: URL) throws {
        let fileManager = FileManager.default
        if fileManager.fileExists(atPath: dataDirectory.appendingPathComponent("vetnet.sqlite").path) {
            throw Refusal("\(dataDirectory.path) already holds a store; restore into an empty directory")
        }
        try fileManager.createDirectory(
            at: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for path in manifest.files.keys.sorted() {
            let target = dataDirectory.appendingPathComponent(path)
            if keyNames.contains(path), fileManager.fileExists(atPath: target.path) {
                throw Refusal("\(target.path) exists; the backup's key would replace it")
            }
            try fileManager.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try copyPrivately(backup.appendingPathComponent(path), to: target)
        }
    }

    // MARK: - Files

    /// Every file below `directory` but the manifest, by relative path.
    static func inventory(of directory: URL) throws -> [String: Manifest.FileEntry] {
        var files: [String: Manifest.FileEntry] = [:]
        let root = directory.standardizedFileURL.path
        guard
            let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        else {
            return files
        }
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.count + 1))
            guard path != manifestName else { continue }
            files[path] = try digest(of: url)
        }
        return files
    }

    /// A file's size and SHA-256, read a megabyte at a time (a store of many gigabytes is
    /// never held in memory whole).
    static func digest(of url: URL) throws -> Manifest.FileEntry {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw Refusal("cannot read \(url.path)") }
        defer { try? handle.close() }
        var hash = SHA256()
        var bytes = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
            bytes += chunk.count
        }
        return Manifest.FileEntry(bytes: bytes, sha256: hash.finalize().map { String(format: "%02x", $0) }.joined())
    }

    static func seal(_ manifest: Manifest, auditKey: AuditKey) throws -> String {
        var unsealed = manifest
        unsealed.seal = ""
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: auditKey.symmetricKey, info: Data("vetnet backup seal v1".utf8), outputByteCount: 32)
        return HMAC<SHA256>.authenticationCode(for: try encoder.encode(unsealed), using: key).map {
            String(format: "%02x", $0)
        }
        .joined()
    }

    /// Copies a file, readable by its owner only from the moment it exists (created 0600
    /// empty, then filled a megabyte at a time).
    static func copyPrivately(_ source: URL, to target: URL) throws {
        guard let input = FileHandle(forReadingAtPath: source.path) else { throw Refusal("cannot read \(source.path)") }
        defer { try? input.close() }
        try writePrivately(Data(), to: target)
        guard let output = FileHandle(forWritingAtPath: target.path) else {
            throw Refusal("cannot write \(target.path)")
        }
        defer { try? output.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try output.write(contentsOf: chunk) }
        try output.synchronize()
    }

    static func writePrivately(_ data: Data, to target: URL) throws {
        guard
            FileManager.default.createFile(atPath: target.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw Refusal("cannot write \(target.path)")
        }
    }
}

extension VetNetStore {
    /// Opens the sealed text of up to `limit` notes, addenda and appointment notes with this
    /// store's record key, and returns how many opened: a store restored with the wrong
    /// `record.key` fails here, before it serves a record nobody can read.
    public func checkRecordCipher(limit: Int = 20) async throws -> Int {
        try await writer.read { db in
            var opened = 0
            for row in try Row.fetchAll(
                db, sql: "SELECT id, practice_id, sealed_text FROM clinical_note LIMIT ?", arguments: [limit])
            {
                guard let practice = PracticeID(uuidString: try row.read("practice_id")) else { continue }
                _ = try SealedClinicalText.openNote(
                    try row.read("sealed_text"), noteID: try row.read("id"), practiceID: practice, cipher: cipher)
                opened += 1
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT id, practice_id, sealed_text FROM appointment_note LIMIT ?", arguments: [limit])
            {
                guard let practice = PracticeID(uuidString: try row.read("practice_id")) else { continue }
                _ = try SealedClinicalText.openAppointmentNote(
                    try row.read("sealed_text"), noteID: try row.read("id"), practiceID: practice, cipher: cipher)
                opened += 1
            }
            return opened
        }
    }
}
