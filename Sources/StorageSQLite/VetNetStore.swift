import Foundation
import GRDB
import SharedKernel
import StoragePorts
import StorageSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The embedded store: one SQLite file in WAL mode with `synchronous = FULL`, opened once per
/// process, migrated before use. Every repository of the SQLite adapter is an extension of it.
///
/// `@unchecked Sendable` is not needed: all stored properties are immutable and `Sendable`
/// (GRDB's `DatabaseWriter` is `Sendable`).
public final class VetNetStore: Sendable {
    /// The underlying GRDB writer (a `DatabasePool` on disk, a `DatabaseQueue` in memory for tests).
    public let writer: any DatabaseWriter
    /// Key of the audit hash chain.
    let auditKey: AuditKey
    /// Encrypts note text and documents at rest.
    let cipher: RecordCipher

    /// Seals and opens `practiceID`'s medical-record and contact fields.
    func fieldSeal(_ practiceID: PracticeID) -> FieldSeal { FieldSeal(cipher: cipher, practiceID: practiceID) }

    /// The seal of the practice a row read back belongs to (its `practice_id`).
    func fieldSeal(row: Row) throws -> FieldSeal {
        guard let text: String = try row.read("practice_id"), let practiceID = PracticeID(uuidString: text) else {
            throw StoreCorruption(column: "practice_id", reason: "not a practice id")
        }
        return fieldSeal(practiceID)
    }
    /// Where document files are kept (`nil` for in-memory stores, which keep none).
    public let documentsDirectory: URL?
    /// Time source for audit entries and session expiry.
    public let clock: Clock
    /// Each practice's scheduling configuration, valid while `practice.config_version` is unchanged.
    let schedulingCache = SchedulingConfigurationCache()
    /// Bookings that arrive together share one commit.
    let bookingCommits: GroupCommit
    /// Where the signed head of the audit chain is kept, outside the database (`nil`: none).
    public let auditCheckpoint: AuditCheckpointFile?
    /// Tells observers (the live stream) that a transaction appending events has committed.
    public let eventCommits = EventCommitSignal()
    /// Writes the audit checkpoint one at a time, off the cooperative threads (it flushes to disk).
    let anchorQueue = DispatchQueue(label: "vetnet.audit-anchor")

    /// Errors raised while opening the store.
    public enum OpenError: Error, Equatable, CustomStringConvertible {
        case synchronousNotFull(Int)
        /// The data directory grants group or other users access (`mode` is its permission bits).
        case sharedDataDirectory(path: String, mode: Int)
        /// The data directory's path names something that is not a directory.
        case notADirectory(path: String)
        /// A file of the store could not be created or given owner-only permissions.
        case permissions(path: String, reason: String)

        public var description: String {
            switch self {
            case .synchronousNotFull(let value):
                return
                    """
                    SQLite reported synchronous=\(value) after opening; VetNet refuses to run without \
                    synchronous=FULL (2)
                    """
            case .sharedDataDirectory(let path, let mode):
                return
                    "The data directory \(path) has mode \(String(format: "%04o", mode)): other users may read or "
                    + "change it, and it holds "
                    + "password hashes and medical records. Run `chmod 700 \(path)`, or, if access is controlled "
                    + "some other way, "
                    + "allow it explicitly (vetnet: --allow-shared-data-dir or VETNET_ALLOW_SHARED_DATA_DIR=1)."
            case .notADirectory(let path):
                return "The data directory \(path) exists but is not a directory."
            case .permissions(let path, let reason):
                return "Could not make \(path) private to its owner: \(reason)"
            }
        }
    }

    /// The names of the database file and the files SQLite keeps beside it.
    static let databaseFileNames = ["vetnet.sqlite", "vetnet.sqlite-wal", "vetnet.sqlite-shm", "vetnet.sqlite-journal"]

    /// Makes sure `directory` is fit to hold the store before anything is written there:
    /// created with mode 0700 when missing; refused when it exists and grants group or other
    /// users any access, unless `allowShared` (access controlled some other way, e.g. a group
    /// of administrators on purpose). Called by
    /// ``open(directory:auditKey:cipher:clock:checkpoint:allowSharedDirectory:)``,
    /// and by the command line before it reads or creates the keys kept in the directory.
    public static func prepareDataDirectory(_ directory: URL, allowShared: Bool) throws {
        var info = stat()
        if stat(directory.path, &info) != 0 {
            guard errno == ENOENT else {
                throw OpenError.permissions(path: directory.path, reason: String(cString: strerror(errno)))
            }
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard chmod(directory.path, 0o700) == 0 else {
                throw OpenError.permissions(path: directory.path, reason: String(cString: strerror(errno)))
            }
            return
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw OpenError.notADirectory(path: directory.path) }
        let mode = Int(info.st_mode & 0o7777)
        if mode & 0o077 != 0, !allowShared { throw OpenError.sharedDataDirectory(path: directory.path, mode: mode) }
    }

    /// Creates the database file with mode 0600 if it is missing, and sets 0600 on it and on
    /// the files SQLite keeps beside it if they exist (stores made by earlier versions were
    /// 0644). Creating the file first, rather than letting SQLite create it, means it is never
    /// readable by others, not even for a moment; SQLite then gives its WAL, shared-memory and
    /// journal files the database file's mode. (Setting the process umask instead would also
    /// affect every other thread creating files meanwhile.)
    static func makeDatabaseFilesPrivate(in directory: URL) throws {
        let database = directory.appendingPathComponent(databaseFileNames[0]).path
        guard createIfMissing(database, mode: 0o600) else {
            throw OpenError.permissions(path: database, reason: String(cString: strerror(errno)))
        }
        for name in databaseFileNames {
            let path = directory.appendingPathComponent(name).path
            if chmod(path, 0o600) != 0, errno != ENOENT {
                throw OpenError.permissions(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    /// Opens (creating if needed) `vetnet.sqlite` in `directory`, enforces durability and runs migrations.
    /// The audit checkpoint is `checkpoint`, by default `audit.checkpoint` in `directory`
    /// (docs/audit.md explains why it is better kept elsewhere).
    ///
    /// Password hashes and medical records: the directory must be private to the service
    /// account (created 0700; an existing one that grants group or others access is refused
    /// unless `allowSharedDirectory`), and the database files are 0600 in any case.
    public static func open(
        directory: URL, auditKey: AuditKey, cipher: RecordCipher, clock: Clock = .system,
        checkpoint: URL? = nil, allowSharedDirectory: Bool = false
    ) throws -> VetNetStore {
        try prepareDataDirectory(directory, allowShared: allowSharedDirectory)
        try makeDatabaseFilesPrivate(in: directory)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        let pool = try DatabasePool(
            path: directory.appendingPathComponent("vetnet.sqlite").path, configuration: configuration)
        // GRDB sets synchronous=NORMAL on the writer when it opens a pool in WAL mode; a
        // medical record must survive power loss, so raise it afterwards and verify.
        let level = try pool.barrierWriteWithoutTransaction { db -> Int in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
        }
        guard level == 2 else { throw OpenError.synchronousNotFull(level) }
        // The WAL and shared-memory files exist now; they follow the database file's mode, and
        // this covers any left 0644 by an earlier version.
        try makeDatabaseFilesPrivate(in: directory)
        let documents = directory.appendingPathComponent("documents")
        try FileManager.default.createDirectory(
            at: documents, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard chmod(documents.path, 0o700) == 0 else {
            throw OpenError.permissions(path: documents.path, reason: String(cString: strerror(errno)))
        }
        let checkpointFile = AuditCheckpointFile(
            url: checkpoint ?? directory.appendingPathComponent("audit.checkpoint"))
        let store = VetNetStore(
            writer: pool, auditKey: auditKey, cipher: cipher, documentsDirectory: documents, clock: clock,
            auditCheckpoint: checkpointFile)
        try store.migrate()
        // Values written before sealing began are sealed once; the file is then rewritten so
        // no free page keeps their plain text, and the rewrite is copied from the write-ahead
        // log into the file at once (until then the file's old pages still hold the text).
        if try store.sealLegacyValues() > 0 {
            try pool.vacuum()
            _ = try pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        // A new store is anchored at its start before its first entry, so a crash before any
        // later checkpoint never leaves entries without one; an anchored chain's checkpoint
        // catches up; a chain that lost its anchor is left for the operator (it throws).
        _ = try? store.writeAuditCheckpoint()
        return store
    }

    /// An in-memory store for tests, migrated.
    /// Documents go to `documentsDirectory` when given (tests of uploads pass a temporary one).
    public static func inMemory(
        auditKey: AuditKey = AuditKey(bytes: Array(repeating: 7, count: 32)), clock: Clock = .system,
        documentsDirectory: URL? = nil, auditCheckpoint: AuditCheckpointFile? = nil
    ) throws -> VetNetStore {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let cipher = try RecordCipher(keyBytes: Array(repeating: 9, count: 32))
        let store = VetNetStore(
            writer: try DatabaseQueue(configuration: configuration), auditKey: auditKey, cipher: cipher,
            documentsDirectory: documentsDirectory, clock: clock, auditCheckpoint: auditCheckpoint)
        try store.migrate()
        return store
    }

    init(
        writer: any DatabaseWriter, auditKey: AuditKey, cipher: RecordCipher, documentsDirectory: URL?, clock: Clock,
        auditCheckpoint: AuditCheckpointFile? = nil
    ) {
        self.auditCheckpoint = auditCheckpoint
        self.writer = writer
        self.auditKey = auditKey
        self.cipher = cipher
        self.documentsDirectory = documentsDirectory
        self.clock = clock
        self.bookingCommits = GroupCommit(writer: writer)
    }

    /// Applies every pending migration (they are frozen history: never edited once shipped).
    public func migrate() throws {
        try Migrations.migrator.migrate(writer)
    }

    /// The value of `PRAGMA synchronous` on the writer connection (2 = FULL).
    public func synchronousLevel() throws -> Int {
        try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// Whether the store answers a trivial query (readiness probe).
    public func isReady() async -> Bool {
        (try? await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }) == 1
    }

    /// Records the audit checkpoint, then closes the store; later calls fail. Called on
    /// graceful shutdown and when a command finishes.
    public func close() throws {
        // A checkpoint that cannot advance (the chain was cut) is left as it is for `verify`.
        _ = try? writeAuditCheckpoint()
        if let pool = writer as? DatabasePool { try pool.close() }
        if let queue = writer as? DatabaseQueue { try queue.close() }
    }
}

/// Creates the file at `path` with `mode` (less the umask) unless it exists; `false` with
/// `errno` set if it could not. (At file scope: inside ``VetNetStore``, `open` and `close`
/// name the store's own methods.)
private func createIfMissing(_ path: String, mode: mode_t) -> Bool {
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
}
