import ArgumentParser
import Foundation
import Logging
import StoragePostgres

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Create or upgrade the store's schema.",
        discussion: """
            Without --database, migrates the embedded SQLite store in the data directory. With
            --database postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (or VETNET_DATABASE_URL),
            applies the PostgreSQL schema: accounts and sessions, the audit trail, the event log and
            appointments with their exclusion constraints, under row-level security. Instances
            starting together take turns (an advisory lock), so running it twice is harmless.
            """)

    @OptionGroup var store: StoreOptions

    @Option(name: .long, help: "A postgres:// URL to migrate instead of the SQLite store (also VETNET_DATABASE_URL).")
    var database: String?

    func run() async throws {
        if let url = database ?? ProcessInfo.processInfo.environment["VETNET_DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            try await migratePostgres(url)
            return
        }
        let vetStore = try store.openStore()
        print("store at \(store.dataURL.path) is migrated (synchronous=\(try vetStore.synchronousLevel()))")
        try vetStore.close()
    }

    private func migratePostgres(_ url: String) async throws {
        let configuration: PostgresDatabaseConfiguration
        do { configuration = try PostgresDatabaseConfiguration(url: url) } catch {
            throw ValidationError("\(error)")
        }
        var logger = Logger(label: "vetnet.migrate")
        logger.logLevel = .error
        let applied = try await PostgresSchema.migrate(configuration, logger: logger)
        print("database \(configuration.redacted) is migrated" + (applied.isEmpty ? " (nothing to apply)" : ": applied \(applied.joined(separator: ", "))"))
    }
}
