import ArgumentParser
import Foundation
import StoragePorts
import StorageSQLite
import StorageSupport

/// Options shared by every command that opens the store.
struct StoreOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: "Directory of the SQLite store and its keys (env VETNET_DATA_DIR).")
    var dataDirectory: String = ProcessInfo.processInfo.environment["VETNET_DATA_DIR"] ?? "./vetnet-data"

    @Option(
        name: .customLong("audit-checkpoint"),
        help:
            """
            File of the signed audit-chain head, best on another volume (env VETNET_AUDIT_CHECKPOINT; default: \
            audit.checkpoint in the data directory).
            """
    )
    var auditCheckpointOption: String?

    @Flag(
        name: .customLong("allow-shared-data-dir"),
        help:
            """
            Open the store even though the data directory grants group or other users access (env \
            VETNET_ALLOW_SHARED_DATA_DIR=1). The database files are made 0600 regardless.
            """
    )
    var allowSharedDataDirectoryFlag = false

    @Option(
        name: .customLong("database"),
        help:
            """
            The store: sqlite:PATH (a data directory) or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…] \
            (env VETNET_DATABASE_URL; default: the SQLite store in --data-dir).
            """
    )
    var databaseOption: String?

    /// The data directory as a URL.
    var dataURL: URL { URL(fileURLWithPath: dataDirectory) }

    /// The command that re-anchors this store's audit chain, for refusals to print.
    var reanchorCommand: String {
        var command = "vetnet audit re-anchor --data-dir \(dataDirectory)"
        if let auditCheckpointOption { command += " --audit-checkpoint \(auditCheckpointOption)" }
        return command + " --reason \"…\""
    }

    /// These options with another data directory (`--database sqlite:PATH`).
    init(copying other: StoreOptions, dataDirectory: String) {
        self = other
        self.dataDirectory = dataDirectory
    }

    init() {}

    /// The audit checkpoint file: the option, else VETNET_AUDIT_CHECKPOINT when set and not empty.
    var auditCheckpoint: String? {
        auditCheckpointOption
            ?? ProcessInfo.processInfo.environment["VETNET_AUDIT_CHECKPOINT"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether a data directory open to group or others is accepted (the flag or VETNET_ALLOW_SHARED_DATA_DIR=1).
    var allowSharedDataDirectory: Bool {
        allowSharedDataDirectoryFlag || ProcessInfo.processInfo.environment["VETNET_ALLOW_SHARED_DATA_DIR"] == "1"
    }

    /// The audit key from VETNET_AUDIT_KEY (base64) or the key file in the data directory.
    func auditKey() throws -> AuditKey {
        try AuditKey.load(configured: ProcessInfo.processInfo.environment["VETNET_AUDIT_KEY"], dataDirectory: dataURL)
    }

    /// The note and document cipher from VETNET_RECORD_KEY (base64, 32 bytes) or `record.key` in the data directory.
    func recordCipher() throws -> RecordCipher {
        try RecordCipher.load(
            configured: ProcessInfo.processInfo.environment["VETNET_RECORD_KEY"], dataDirectory: dataURL)
    }

    /// Opens (and migrates) the store. The data directory is checked (or created private)
    /// before the keys kept in it are read or created.
    func openStore() throws -> VetNetStore {
        try VetNetStore.prepareDataDirectory(dataURL, allowShared: allowSharedDataDirectory)
        return try VetNetStore.open(
            directory: dataURL, auditKey: try auditKey(), cipher: try recordCipher(),
            checkpoint: auditCheckpoint.map { URL(fileURLWithPath: $0) }, allowSharedDirectory: allowSharedDataDirectory
        )
    }
}

/// Writes a line to standard output at once. `print` is block-buffered when standard output
/// is not a terminal (a service manager, a log file, `| tee`), so a long-running command's
/// instructions would otherwise appear only when it exits.
func printNow(_ message: String) {
    FileHandle.standardOutput.write(Data((message + "\n").utf8))
}

/// Writes a line to standard error.
func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
