import ArgumentParser
import Foundation
import StoragePorts
import StorageSQLite
import StorageSupport

/// `vetnet backup --to DIR`: a consistent copy of the embedded store while it serves.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract:
            """
            Copy the embedded store while it serves: the database as of one moment, its audit checkpoint and documents.
            """,
        discussion: """
            Writes DIR/vetnet-backup-<UTC time>/ with backup.json (each file's size and SHA-256, sealed with a key \
            derived \
            from the audit key). The keys (audit.key, record.key) are left out unless --include-keys: keep them apart \
            from \
            the backups. PostgreSQL is backed up with its own tools (docs/operations.md).
            """)
    @OptionGroup var store: StoreOptions

    @Option(help: "Directory to write the backup into (created 0700 if missing).")
    var to: String

    @Flag(help: "Put audit.key and record.key into the backup too (then whoever holds it can read it).")
    var includeKeys = false

    func run() async throws {
        guard case .sqlite(let directory) = try store.databaseLocation() else {
            printError(
                """
                vetnet backup copies the embedded store; back up PostgreSQL with pg_dump or base backups \
                (docs/operations.md).
                """
            )
            throw ExitCode(1)
        }
        let options = StoreOptions(copying: store, dataDirectory: directory.path)
        do {
            let (backup, manifest) = try StoreBackup.take(
                dataDirectory: directory, checkpoint: options.auditCheckpoint.map { URL(fileURLWithPath: $0) },
                auditKey: try options.auditKey(), into: URL(fileURLWithPath: to), includeKeys: includeKeys)
            let bytes = manifest.files.values.reduce(0) { $0 + $1.bytes }
            printNow("Backed up \(directory.path) to \(backup.path): \(manifest.files.count) files, \(bytes) bytes.")
            if !includeKeys {
                printNow(
                    "The keys are not in it: keep audit.key and record.key safe apart from it; a restore needs them.")
            }
        } catch let refusal as StoreBackup.Refusal {
            printError("Backup refused: \(refusal)")
            throw ExitCode(1)
        }
    }
}

/// `vetnet restore --from BACKUP --data-dir NEW`: a backup back into an empty data directory,
/// checked before anything serves it.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract:
            """
            Bring a backup back into an empty data directory and verify it (audit chain, record key) before it is \
            served.
            """,
        discussion: """
            The audit key comes from the backup (--include-keys), VETNET_AUDIT_KEY, or audit.key already placed in \
            the new \
            data directory; the record key likewise. The backup's seal and every file's digest are checked first; \
            after \
            copying, the store is opened, its audit chain verified and sealed notes opened with the record key.
            """)
    @OptionGroup var store: StoreOptions

    @Option(help: "The backup directory (vetnet-backup-…).")
    var from: String

    func run() async throws {
        guard case .sqlite(let directory) = try store.databaseLocation() else {
            printError(
                """
                vetnet restore brings back an embedded store; restore PostgreSQL with its own tools \
                (docs/operations.md).
                """
            )
            throw ExitCode(1)
        }
        let backup = URL(fileURLWithPath: from)
        let options = StoreOptions(copying: store, dataDirectory: directory.path)
        let environment = ProcessInfo.processInfo.environment
        let keyHome =
            FileManager.default.fileExists(atPath: backup.appendingPathComponent("audit.key").path) ? backup : directory
        guard
            environment["VETNET_AUDIT_KEY"].map({ !$0.isEmpty }) == true
                || FileManager.default.fileExists(atPath: keyHome.appendingPathComponent("audit.key").path)
        else {
            printError(
                """
                Restore refused: the backup holds no keys; set VETNET_AUDIT_KEY and VETNET_RECORD_KEY or put \
                audit.key and record.key into \(directory.path).
                """
            )
            throw ExitCode(1)
        }
        do {
            let auditKey = try AuditKey.load(configured: environment["VETNET_AUDIT_KEY"], dataDirectory: keyHome)
            let manifest = try StoreBackup.verify(backup, auditKey: auditKey)
            try StoreBackup.restore(backup, manifest: manifest, into: directory)
            let restored = try options.openStore()
            defer { try? restored.close() }
            let chain = try await restored.verifyAuditChain()
            guard chain.isIntact else {
                printError(
                    "Restored, but the audit chain does not verify: \(chain.description). Do not serve this store.")
                throw ExitCode(1)
            }
            let opened = try await restored.checkRecordCipher()
            printNow(
                """
                Restored \(backup.lastPathComponent) (taken \(manifest.createdAt)) into \(directory.path): audit \
                chain intact (\(chain.checked) entries), \(opened) sealed notes opened with the record key.
                """
            )
        } catch let refusal as StoreBackup.Refusal {
            printError("Restore refused: \(refusal)")
            throw ExitCode(1)
        }
    }
}
