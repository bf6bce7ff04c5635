import Foundation
import SharedKernel
import StoragePorts
import StorageSQLite
import StorageSupport
import Testing

/// The store holds password hashes and medical records: its directory and files are private.
@Suite("Data directory permissions")
struct DataDirectoryTests {
    /// A fresh path under the temporary directory (not created).
    static func path(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "vetnet-\(name)-\(UUID().uuidString.lowercased())")
    }

    static func mode(_ url: URL) throws -> Int {
        try #require((FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue)
    }

    static func open(_ directory: URL, allowShared: Bool = false) throws -> VetNetStore {
        try VetNetStore.open(
            directory: directory, auditKey: AuditKey(bytes: Array(repeating: 1, count: 32)),
            cipher: try RecordCipher(keyBytes: Array(repeating: 2, count: 32)), allowSharedDirectory: allowShared)
    }

    @Test(
        """
        an existing directory open to other users is refused, naming the directory and its mode, and nothing is \
        written there
        """
    )
    func sharedDirectoryRefused() throws {
        let directory = Self.path("shared")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try Self.mode(directory) == 0o755)

        let error = try #require(throws: VetNetStore.OpenError.self) { _ = try Self.open(directory) }
        #expect(error == .sharedDataDirectory(path: directory.path, mode: 0o755))
        #expect(error.description.contains(directory.path))
        #expect(error.description.contains("0755"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("allowed explicitly, a shared directory is opened and the database, WAL and shared-memory files are 0600")
    func sharedDirectoryAllowed() async throws {
        let directory = Self.path("allowed")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: directory) }

        let store = try Self.open(directory, allowShared: true)
        try await store.createPractice(PracticeProfile(id: PracticeID(), name: "P", timeZone: "UTC", openingHours: []))
        for name in ["vetnet.sqlite", "vetnet.sqlite-wal", "vetnet.sqlite-shm"] {
            #expect(try Self.mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
        }
        #expect(try Self.mode(directory.appendingPathComponent("documents")) == 0o700)
        #expect(try Self.mode(directory) == 0o755) // the operator's choice is left alone
        try store.close()
    }

    @Test("a missing directory is created 0700 with its files 0600, and the keys created first do not make it shared")
    func newDirectory() async throws {
        let directory = Self.path("new")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try AuditKey.load(configured: nil, dataDirectory: directory)
        #expect(try Self.mode(directory) == 0o700)
        let store = try Self.open(directory)
        try await store.createPractice(PracticeProfile(id: PracticeID(), name: "P", timeZone: "UTC", openingHours: []))
        #expect(try Self.mode(directory.appendingPathComponent("vetnet.sqlite")) == 0o600)
        #expect(try Self.mode(directory.appendingPathComponent("vetnet.sqlite-wal")) == 0o600)
        try store.close()
    }

    @Test("a database file left readable by an earlier version is made 0600 when opened")
    func existingFilesTightened() throws {
        let directory = Self.path("old")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("vetnet.sqlite")
        #expect(
            FileManager.default.createFile(atPath: database.path, contents: nil, attributes: [.posixPermissions: 0o644])
        )
        let store = try Self.open(directory)
        #expect(try Self.mode(database) == 0o600)
        try store.close()
    }

    @Test(
        """
        `vetnet migrate` refuses a shared data directory before creating keys there, and opens it with \
        --allow-shared-data-dir
        """
    )
    func commandLine() throws {
        let directory = Self.path("cli")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o750])
        defer { try? FileManager.default.removeItem(at: directory) }

        let refused = try Self.runVetnet(["migrate", "--data-dir", directory.path])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains(directory.path) && refused.stderr.contains("0750"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)

        let allowed = try Self.runVetnet(["migrate", "--data-dir", directory.path, "--allow-shared-data-dir"])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(try Self.mode(directory.appendingPathComponent("vetnet.sqlite")) == 0o600)
        #expect(try Self.mode(directory.appendingPathComponent("audit.key")) == 0o600)

        let byEnvironment = try Self.runVetnet(
            ["migrate", "--data-dir", directory.path], environment: ["VETNET_ALLOW_SHARED_DATA_DIR": "1"])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
    }

    /// Runs the `vetnet` executable built beside the test bundle.
    static func runVetnet(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("vetnet")
        process.arguments = arguments
        var inherited = ProcessInfo.processInfo.environment
        for name in [
            "VETNET_DATA_DIR", "VETNET_ALLOW_SHARED_DATA_DIR", "VETNET_AUDIT_KEY", "VETNET_RECORD_KEY",
            "VETNET_AUDIT_CHECKPOINT",
        ] {
            inherited[name] = nil
        }
        process.environment = inherited.merging(environment) { $1 }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
    }
}
