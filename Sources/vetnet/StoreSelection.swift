import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import StoragePorts
import StoragePostgres
import StorageSQLite

/// Which store a command works on: the embedded SQLite database in the data directory (the
/// default), or a PostgreSQL database that several `vetnet serve` instances share.
enum DatabaseLocation: Equatable, CustomStringConvertible {
    case sqlite(URL)
    case postgres(PostgresDatabaseConfiguration)

    /// Parses `--database`: `sqlite:PATH` (a data directory) or `postgres://…` /
    /// `postgresql://…`. Errors name the option and never echo a password.
    init(_ text: String) throws {
        if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ValidationError("--database sqlite:PATH needs the data directory's path") }
            self = .sqlite(URL(fileURLWithPath: path))
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            do { self = .postgres(try PostgresDatabaseConfiguration(url: text)) } catch {
                throw ValidationError("--database: \(error)")
            }
        } else {
            throw ValidationError("--database must be sqlite:PATH or a postgres:// URL")
        }
    }

    /// Where the store is, for logs and messages (a URL without its password).
    var description: String {
        switch self {
        case .sqlite(let url): return "sqlite:\(url.path)"
        case .postgres(let configuration): return configuration.redacted
        }
    }

    static func == (lhs: DatabaseLocation, rhs: DatabaseLocation) -> Bool { lhs.description == rhs.description }
}

/// An open store with what its adapter needs kept running beside the server, and how to
/// close it when a command is done.
struct OpenedStore: Sendable {
    /// The store, seen through its ports.
    let store: any PracticeStore
    /// The adapter's own services (the embedded store's checkpoint and close, the PostgreSQL
    /// pool), started before the server and stopped after it.
    let services: [any Service]
    /// Where it is (no password).
    let location: String
    /// The embedded store, for the commands that only it supports (its audit checkpoint).
    let embedded: VetNetStore?
    /// On PostgreSQL, what the connected role may do beyond serving (checked before serving).
    var servingRole: PostgresStore.ServingRole? = nil
    /// Closes the store after a command (the server closes it through ``services``): the
    /// embedded store writes its audit checkpoint; PostgreSQL's pool is told to stop.
    let close: @Sendable () -> Void
}

extension StoreOptions {
    /// The configured location: `--database`, else VETNET_DATABASE_URL, else the data directory.
    func databaseLocation() throws -> DatabaseLocation {
        if let text = databaseOption
            ?? ProcessInfo.processInfo.environment["VETNET_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 })
        {
            return try DatabaseLocation(text)
        }
        return .sqlite(dataURL)
    }

    /// Opens and migrates the configured store. PostgreSQL's pool starts running at once and
    /// stops when ``OpenedStore/close`` is called or the server's services shut down.
    func openPracticeStore(logger: Logger) async throws -> OpenedStore {
        switch try databaseLocation() {
        case .sqlite(let directory):
            let options = StoreOptions(copying: self, dataDirectory: directory.path)
            let store = try options.openStore()
            return OpenedStore(
                store: store,
                services: [
                    StoreLifecycleService(store: store, logger: logger),
                    AuditCheckpointService(store: store, interval: .seconds(1), logger: logger),
                ],
                location: "sqlite:\(directory.path)", embedded: store, close: { try? store.close() })
        case .postgres(let configuration):
            // The driver's own chatter (a lease asked for while the pool is starting) stays out
            // of the server's log; its errors still reach it.
            var quiet = logger
            quiet.logLevel = max(logger.logLevel, .error)
            let applied = try await PostgresSchema.migrate(configuration, logger: quiet)
            // Every instance on the database must share the installation's keys: the audit
            // chain and sealed notes are only readable with them.
            let store = PostgresStore(
                configuration: configuration, auditKey: try auditKey(), cipher: try recordCipher(),
                uploadDirectory: try uploadDirectory(), logger: quiet)
            let running = Task { await store.run() }
            let role: PostgresStore.ServingRole
            do {
                try await store.checkInstallationKeys()
                if PostgresSchema.leavesHeadsToSign(applied) { try await store.signAuditHeadsAfterUpgrade() }
                // Values written before sealing began are sealed once (by the schema owner: a
                // runtime role sees no practice to seal and leaves it to `vetnet migrate`).
                try await store.sealLegacyValues()
                role = try await store.servingRole()
            } catch {
                running.cancel()
                throw error
            }
            return OpenedStore(
                store: store, services: [PostgresPoolService(running: running, logger: logger)],
                location: configuration.redacted, embedded: nil, servingRole: role, close: { running.cancel() })
        }
    }
}

extension StoreOptions {
    /// Where a PostgreSQL-backed instance receives uploads before their content goes into the
    /// database: `uploads` in the (private) data directory.
    func uploadDirectory() throws -> URL {
        try VetNetStore.prepareDataDirectory(dataURL, allowShared: allowSharedDataDirectory)
        let directory = dataURL.appendingPathComponent("uploads")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }
}

/// Keeps the PostgreSQL pool running for the server and closes it after the server has
/// drained (it is the first service added, so the last stopped).
struct PostgresPoolService: Service {
    let running: Task<Void, Never>
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        running.cancel()
        await running.value
        logger.info("database connections closed")
    }
}

/// The logger of a one-shot command: warnings and errors only, on standard error.
let commandLogger: Logger = {
    var logger = Logger(label: "vetnet.command")
    logger.logLevel = .warning
    return logger
}()
