import Foundation
import Logging
import PatientRecords
import PostgresNIO
import SharedKernel
import StoragePorts
import StoragePostgres
import StorageSQLite
import StorageSupport
import Synchronization
import Testing

/// The store adapters every contract test runs against. PostgreSQL runs when
/// `VETNET_TEST_DATABASE_URL` names a server whose role may create databases (`.ci/run` and
/// `scripts/test` start one); each test gets a database of its own, dropped afterwards.
enum Adapter: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// Every adapter that can run here.
    static var available: [Adapter] { PostgresTestServer.url == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let instant: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { instant = Mutex(start) }
    var clock: Clock { Clock(now: { self.instant.withLock { $0 } }) }
    func advance(_ seconds: TimeInterval) { instant.withLock { $0 += seconds } }
}

/// One adapter's store, with what its tests need besides the ports.
struct StoreUnderTest: Sendable {
    let adapter: Adapter
    let accounts: any AccountRepository
    let audit: any AuditRepository
    let events: any EventLogRepository
    let signInAttempts: (any SignInAttemptLedger)?
    let records: any PatientDirectory
    let scheduling: any SchedulingRepository
    let practiceSettings: any PracticeSettingsRepository
    let staff: any StaffDirectory
    let analytics: any AnalyticsHistorySource
    let maintenance: any StoreMaintenance
    let population: any PopulationLoader
    let secondFactors: any SecondFactorRepository
    let sharedDevices: any SharedDeviceRepository
    let passkeys: any PasskeyRepository
    let clock: TestClock
    /// The PostgreSQL store and its database, for the tests of its schema and of a second
    /// instance on the same database (`nil` for SQLite). The store serves as the runtime role
    /// when the test server has one (as a deployment does); `owner` is the same database as the
    /// schema's owner, for what a test checks or breaks below the ports.
    let postgres: (store: PostgresStore, configuration: PostgresDatabaseConfiguration, owner: PostgresStore)?
    /// The SQLite store, for what the ports do not cover (its bookings need a registered patient).
    let sqlite: VetNetStore?

    /// A patient to book for, registered with an owner through the records port.
    func patient(scope: AccessScope, name: String = "Rex") async throws -> UUID {
        let owner = try await records.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        return try await records.createPatient(Patient(name: name, species: .dog, ownerID: owner.id), scope: scope).id
            .rawValue
    }
}

let testAuditKey = AuditKey(bytes: Array(repeating: 7, count: 32))
let testCipher = try! RecordCipher(keyBytes: Array(repeating: 9, count: 32))

/// Runs `body` with a fresh store of `adapter`, closing (and for PostgreSQL dropping) it after.
func withStore(_ adapter: Adapter, _ body: (StoreUnderTest) async throws -> Void) async throws {
    let clock = TestClock()
    // Where documents are received (and, for SQLite, kept): one directory per test.
    let documents = FileManager.default.temporaryDirectory.appendingPathComponent(
        "vetnet-contract-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: documents) }
    switch adapter {
    case .sqlite:
        let store = try VetNetStore.inMemory(auditKey: testAuditKey, clock: clock.clock, documentsDirectory: documents)
        try await body(
            StoreUnderTest(
                adapter: .sqlite, accounts: store, audit: store, events: store, signInAttempts: store, records: store,
                scheduling: store, practiceSettings: store, staff: store, analytics: store, maintenance: store,
                population: store, secondFactors: store, sharedDevices: store, passkeys: store, clock: clock,
                postgres: nil,
                sqlite: store))
    case .postgres:
        do {
            try await PostgresTestServer.withDatabase { configuration in
                try await withRunningStore(configuration, clock: clock, migrate: true, uploadDirectory: documents) {
                    owner in
                    func run(_ store: PostgresStore, _ serving: PostgresDatabaseConfiguration) async throws {
                        try await body(
                            StoreUnderTest(
                                adapter: .postgres, accounts: store, audit: store, events: store, signInAttempts: store,
                                records: store, scheduling: store, practiceSettings: store, staff: store,
                                analytics: store,
                                maintenance: store, population: store, secondFactors: store, sharedDevices: store,
                                passkeys: store,
                                clock: clock,
                                postgres: (store, serving, owner), sqlite: nil))
                    }
                    guard let runtime = PostgresTestServer.runtime(of: configuration) else {
                        return try await run(owner, configuration)
                    }
                    try await withRunningStore(runtime, clock: clock, migrate: false, uploadDirectory: documents) {
                        store in
                        try await run(store, runtime)
                    }
                }
            }
        } catch let error as PSQLError {
            // PSQLError describes itself generically (to keep data out of logs); a failed test needs the detail.
            throw PostgresFailure(detail: String(reflecting: error))
        }
    }
}

/// A PostgreSQL error with its detail, for a failed test's report.
struct PostgresFailure: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}

/// Runs a PostgreSQL store on `configuration` for the duration of `body`.
func withRunningStore(
    _ configuration: PostgresDatabaseConfiguration, clock: TestClock, migrate: Bool,
    uploadDirectory: URL = FileManager.default.temporaryDirectory,
    _ body: (PostgresStore) async throws -> Void
) async throws {
    var logger = Logger(label: "vetnet.contract")
    logger.logLevel = .error
    let store = PostgresStore(
        configuration: configuration, auditKey: testAuditKey, cipher: testCipher, clock: clock.clock,
        uploadDirectory: uploadDirectory, logger: logger)
    let running = Task { await store.run() }
    do {
        if migrate {
            // As `vetnet migrate` does: the owner migrates, grants the runtime role and records
            // the installation's key fingerprints.
            try await PostgresSchema.migrate(store.client, runtimeRole: PostgresTestServer.runtimeRole, logger: logger)
            try await store.checkInstallationKeys()
        }
        try await body(store)
    } catch {
        running.cancel()
        await running.value
        throw error
    }
    // Closed before the database is dropped under it.
    running.cancel()
    await running.value
}

/// The test server named by `VETNET_TEST_DATABASE_URL`.
enum PostgresTestServer {
    static let url: String? = {
        let text = ProcessInfo.processInfo.environment["VETNET_TEST_DATABASE_URL"] ?? ""
        return text.isEmpty ? nil : text
    }()

    /// The test server's runtime role (`VETNET_TEST_RUNTIME_DATABASE_URL`), which owns nothing.
    static let runtimeURL: PostgresDatabaseConfiguration? = {
        let text = ProcessInfo.processInfo.environment["VETNET_TEST_RUNTIME_DATABASE_URL"] ?? ""
        return text.isEmpty ? nil : try? PostgresDatabaseConfiguration(url: text)
    }()

    /// The runtime role's name, granted by each test database's migration.
    static var runtimeRole: String? { runtimeURL?.username }

    /// `configuration`'s database as the runtime role, when the test server has one.
    static func runtime(of configuration: PostgresDatabaseConfiguration) -> PostgresDatabaseConfiguration? {
        guard let runtimeURL else { return nil }
        var runtime = configuration
        runtime.username = runtimeURL.username
        runtime.password = runtimeURL.password
        return runtime
    }

    /// Creates a database of its own for one test, runs `body` with its configuration, drops it.
    static func withDatabase(_ body: (PostgresDatabaseConfiguration) async throws -> Void) async throws {
        guard let url else { return }
        var server = try PostgresDatabaseConfiguration(url: url)
        // Many tests run at once, each with its own pools: small pools keep them all inside the
        // server's connection limit (a refused connection leaves a pool backing off, and a
        // test waiting on it).
        server.maximumConnections = 2
        var logger = Logger(label: "vetnet.contract.admin")
        logger.logLevel = .error
        let admin = PostgresClient(configuration: server.clientConfiguration, backgroundLogger: logger)
        let running = Task { await admin.run() }
        defer { running.cancel() }
        let name = "vetnet_contract_" + UUID().uuidString.prefix(8).lowercased()
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
        var configuration = server
        configuration.database = name
        configuration.maximumConnections = 8
        do {
            try await body(configuration)
        } catch {
            _ = try? await admin.query(
                PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
            throw error
        }
        // Cleanup only: a drop that cannot end some server process now leaves a database for
        // the throwaway cluster to take with it, and is no test's failure.
        _ = try? await admin.query(
            PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: logger)
    }
}
