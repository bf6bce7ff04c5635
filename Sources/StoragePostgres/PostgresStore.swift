import Foundation
import Logging
import PostgresNIO
import SharedKernel
import StoragePorts
import StorageSupport

/// The PostgreSQL store: the storage ports on a database that several `vetnet serve`
/// instances share. Invariants hold in the schema across instances (see ``PostgresSchema``):
/// sessions live in the database, the audit chain is appended under a row lock, each
/// practice's event numbers come from a locked head row, and every transaction runs under
/// row-level security keyed by the practice it acts for.
///
/// The connection pool and the `NOTIFY` relay run in ``run()``, which the caller keeps
/// running for the store's lifetime (a service of the server's service group, or a task in
/// a test).
public final class PostgresStore: Sendable {
    /// The pooled client.
    public let client: PostgresClient
    /// Key of the audit hash chain (the same key as the installation's SQLite store, so a
    /// practice moved between them keeps a verifiable trail).
    let auditKey: AuditKey
    /// Time source for audit entries and session expiry.
    public let clock: Clock
    /// Seals note text and document content at rest (the installation's record key).
    let cipher: RecordCipher

    /// Seals and opens `practiceID`'s medical-record and contact fields.
    func fieldSeal(_ practiceID: PracticeID) -> FieldSeal { FieldSeal(cipher: cipher, practiceID: practiceID) }

    /// The search tokens of `practiceID`'s owners' phone numbers and email addresses.
    func contactIndex(_ practiceID: PracticeID) -> ContactSearchIndex {
        ContactSearchIndex(cipher: cipher, practiceID: practiceID)
    }
    /// Where uploads are received, encrypted, before their content goes into the database.
    let uploadDirectory: URL
    /// Relays `NOTIFY` of committed events to this process's observers.
    public let eventCommits = EventCommitSignal()
    let logger: Logger
    /// The booking path's JSON columns, decoded once per distinct text.
    let bookingColumns = DecodedColumnMemo()

    /// The channel on which a transaction that appended events notifies, with the practice id.
    static let eventChannel = "vetnet_events"

    /// Creates the store for `configuration`; nothing connects until ``run()`` starts.
    public init(
        configuration: PostgresDatabaseConfiguration, auditKey: AuditKey, cipher: RecordCipher, clock: Clock = .system,
        uploadDirectory: URL = FileManager.default.temporaryDirectory, logger: Logger = Logger(label: "vetnet.postgres")
    ) {
        self.client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.auditKey = auditKey
        self.cipher = cipher
        self.uploadDirectory = uploadDirectory
        self.clock = clock
        self.logger = logger
    }

    /// Runs the connection pool and relays event notifications until the task is cancelled.
    /// Cancelling it closes every connection.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.client.run() }
            group.addTask { await self.relayNotifications() }
            await group.next()
            group.cancelAll()
        }
    }

    /// Listens on ``eventChannel`` on a connection of its own and signals every notification;
    /// reconnects after a failure (a restarted database), and stops when cancelled.
    private func relayNotifications() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.eventChannel) { notifications in
                        for try await notification in notifications {
                            if let id = PracticeID(uuidString: notification.payload) { self.eventCommits.notify(id) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "event notifications interrupted; listening again",
                    metadata: ["error": "\(String(reflecting: type(of: error)))"])
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
    }

    // MARK: - Transactions

    /// Who a transaction acts for: row-level security shows it the rows of one practice, or —
    /// for sign-in before the practice is known, housekeeping and the audit chain's walk —
    /// every practice.
    enum Tenant {
        case practice(PracticeID)
        case installation

        var setting: String {
            switch self {
            case .practice(let id): return id.description
            case .installation: return "installation"
            }
        }
    }

    /// Runs `body` in one transaction acting for `tenant` (`SET LOCAL`, so a pooled
    /// connection never carries the setting into another transaction).
    func transaction<Result: Sendable>(_ tenant: Tenant, _ body: (PostgresConnection) async throws -> Result)
        async throws -> Result
    {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.prepared(
                    "SELECT set_config('vetnet.practice_id', \(tenant.setting), true)", logger: logger)
                return try await body(connection)
            }
        } catch let error as PostgresTransactionError {
            // The caller cares what went wrong inside (a refusal, a constraint), not the wrapper.
            let inner = error.closureError ?? error.commitError ?? error.beginError ?? error
            throw Self.missingReference(inner) ?? Self.unreadable(inner) ?? inner
        }
    }

    /// A cell the row's reader could not read as the type it asked for: the same error naming
    /// the column as a row the embedded store cannot read, never the cell's bytes.
    static func unreadable(_ error: any Error) -> StoreCorruption? {
        guard let error = error as? PostgresDecodingError else { return nil }
        return StoreCorruption(
            column: error.columnName, reason: "not the kind of value the column holds (\(error.targetType))")
    }

    /// A row naming a record that is missing or another practice's, refused by a composite
    /// foreign key (``PracticeReference``): the same 404 as the embedded store's.
    static func missingReference(_ error: any Error) -> DomainError? {
        guard let error = error as? PSQLError, error.sqlState == "23503",
            let reference = PracticeReference.named(error.serverInfo?[.constraintName])
        else { return nil }
        return .notFound(resource: reference.resource)
    }
}
