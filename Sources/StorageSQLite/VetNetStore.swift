import Foundation
import GRDB
import SharedKernel

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

    /// Errors raised while opening the store.
    public enum OpenError: Error, CustomStringConvertible {
        case synchronousNotFull(Int)

        public var description: String {
            switch self {
            case .synchronousNotFull(let value):
                return "SQLite reported synchronous=\(value) after opening; VetNet refuses to run without synchronous=FULL (2)"
            }
        }
    }

    /// Opens (creating if needed) `vetnet.sqlite` in `directory`, enforces durability and runs migrations.
    /// The audit checkpoint is `checkpoint`, by default `audit.checkpoint` in `directory`
    /// (docs/audit.md explains why it is better kept elsewhere).
    public static func open(directory: URL, auditKey: AuditKey, cipher: RecordCipher, clock: Clock = .system,
                            checkpoint: URL? = nil) throws -> VetNetStore {
        // Medical records: the directory is private to the service account.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        let pool = try DatabasePool(path: directory.appendingPathComponent("vetnet.sqlite").path, configuration: configuration)
        // GRDB sets synchronous=NORMAL on the writer when it opens a pool in WAL mode; a
        // medical record must survive power loss, so raise it afterwards and verify.
        let level = try pool.barrierWriteWithoutTransaction { db -> Int in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            return try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
        }
        guard level == 2 else { throw OpenError.synchronousNotFull(level) }
        let documents = directory.appendingPathComponent("documents")
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let checkpointFile = AuditCheckpointFile(url: checkpoint ?? directory.appendingPathComponent("audit.checkpoint"))
        let store = VetNetStore(writer: pool, auditKey: auditKey, cipher: cipher, documentsDirectory: documents, clock: clock,
                                auditCheckpoint: checkpointFile)
        try store.migrate()
        return store
    }

    /// An in-memory store for tests, migrated.
    /// Documents go to `documentsDirectory` when given (tests of uploads pass a temporary one).
    public static func inMemory(auditKey: AuditKey = AuditKey(bytes: Array(repeating: 7, count: 32)), clock: Clock = .system,
                                documentsDirectory: URL? = nil, auditCheckpoint: AuditCheckpointFile? = nil) throws -> VetNetStore {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let cipher = try RecordCipher(keyBytes: Array(repeating: 9, count: 32))
        let store = VetNetStore(writer: try DatabaseQueue(configuration: configuration), auditKey: auditKey, cipher: cipher,
                                documentsDirectory: documentsDirectory, clock: clock, auditCheckpoint: auditCheckpoint)
        try store.migrate()
        return store
    }

    init(writer: any DatabaseWriter, auditKey: AuditKey, cipher: RecordCipher, documentsDirectory: URL?, clock: Clock,
         auditCheckpoint: AuditCheckpointFile? = nil) {
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
