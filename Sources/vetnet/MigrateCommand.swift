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

    @Option(
        name: .customLong("runtime-role"),
        help:
            """
            PostgreSQL: the role `vetnet serve` connects as; granted what serving needs and nothing more (run as the \
            owner).
            """
    )
    var runtimeRole: String?

    func run() async throws {
        switch try store.databaseLocation() {
        case .postgres(let configuration):
            try await migratePostgres(configuration)
        case .sqlite(let directory):
            if runtimeRole != nil { throw ValidationError("--runtime-role: only a PostgreSQL database has roles") }
            let vetStore = try StoreOptions(copying: store, dataDirectory: directory.path).openStore()
            print("store at \(directory.path) is migrated (synchronous=\(try vetStore.synchronousLevel()))")
            try vetStore.close()
        }
    }

    private func migratePostgres(_ configuration: PostgresDatabaseConfiguration) async throws {
        var logger = Logger(label: "vetnet.migrate")
        logger.logLevel = .error
        let applied: [String]
        do {
            applied = try await PostgresSchema.migrate(configuration, runtimeRole: runtimeRole, logger: logger)
        } catch let refusal as RuntimeRoleRefused {
            throw ValidationError(refusal.description)
        }
        // The owner records the installation's key fingerprints (a runtime role only reads
        // them), and an upgrade that leaves audit heads unsigned has them signed.
        let postgres = PostgresStore(
            configuration: configuration, auditKey: try store.auditKey(), cipher: try store.recordCipher(),
            uploadDirectory: try store.uploadDirectory(), logger: logger)
        let running = Task { await postgres.run() }
        defer { running.cancel() }
        try await postgres.checkInstallationKeys()
        if PostgresSchema.leavesHeadsToSign(applied) { try await postgres.signAuditHeadsAfterUpgrade() }
        let sealed = try await postgres.sealLegacyValues()
        if sealed > 0 {
            print("sealed \(sealed) medical-record values and owners' contact details written before sealing")
        }
        print(
            "database \(configuration.redacted) is migrated"
                + (applied.isEmpty ? " (nothing to apply)" : ": applied \(applied.joined(separator: ", "))")
                + (runtimeRole.map { "; runtime role \($0) granted what serving needs" } ?? ""))
    }
}
