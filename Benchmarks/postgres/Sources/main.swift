import Foundation
import Logging
import PatientRecords
import PostgresNIO
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StoragePostgres
import StorageSQLite
import StorageSupport

// Booking under concurrent clients on each store, side by side in one run:
//   SQLite (a file store, as `vetnet serve` opens it), PostgreSQL through one store instance,
//   and PostgreSQL through two instances on one database (as two `vetnet serve` processes).
// Two workloads per store:
//   spread    — each client books its own clinician's day, slot after slot (no conflicts:
//               the throughput of the booking transaction itself);
//   contended — clients in groups of 8 race for the same clinician's slots in the same
//               order (one booking per slot, the rest refused: the cost of a conflict).
// The booking decision reads the clinician's day and checks it, as the HTTP booking does.
//
// Environment: VETNET_BENCH_DATABASE_URL (or VETNET_TEST_DATABASE_URL) names a PostgreSQL server
// whose role may create databases; BENCH_CLIENTS (32), BENCH_BOOKINGS (40 per client).

/// The run's settings, read once.
enum Bench {
    static let environment = ProcessInfo.processInfo.environment
    static let clients = max(1, Int(environment["BENCH_CLIENTS"] ?? "") ?? 32)
    static let perClient = max(1, Int(environment["BENCH_BOOKINGS"] ?? "") ?? 40)
    static let auditKey = AuditKey(bytes: Array(repeating: 7, count: 32))
    static let cipher = try! RecordCipher(keyBytes: Array(repeating: 9, count: 32))
    static let logger: Logger = {
        var logger = Logger(label: "vetnet.bench")
        logger.logLevel = .error
        return logger
    }()
}

/// What one run measured.
struct Figures {
    let label: String
    let attempts: Int
    let booked: Int
    let conflicts: Int
    let failures: Int
    let seconds: Double
    let latencies: [Double]

    func percentile(_ p: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
    }

    var line: String {
        func f(_ value: Double) -> String { String(format: "%8.1f", value) }
        return label.padding(toLength: 30, withPad: " ", startingAt: 0)
            + f(Double(attempts) / seconds) + f(Double(booked) / seconds) + f(percentile(0.5)) + f(percentile(0.99))
            + String(format: "%8d%8d%6d", booked, conflicts, failures)
    }
}

/// A practice to book in: its scope, clinicians (one per client), a type and a patient.
struct Setup: Sendable {
    let scope: AccessScope
    let clinicians: [UUID]
    let type: AppointmentType
    let patient: UUID
    let firstSlot: Date
}

func prepare(_ repository: any SchedulingRepository, accounts: any AccountRepository, sqlite: VetNetStore?) async throws -> Setup {
    let (profile, admin) = try await accounts.createPractice(
        PracticeProfile(id: PracticeID(), name: "Bench \(UUID().uuidString.prefix(6))", timeZone: "Europe/London", openingHours: []),
        administrator: FirstAdministrator(email: "bench@example.com", displayName: "Bench", passwordHash: "h"), requestID: nil)
    let scope = AccessScope(practiceID: profile.id, actorID: admin.id, role: .administrator, requestID: nil)
    var clinicians: [UUID] = []
    for index in 0..<Bench.clients {
        clinicians.append(try await repository.createClinician(
            Clinician(displayName: "Dr \(index)", credentials: "BVSc", expertise: [], species: [.dog], maxAppointmentsPerDay: 60,
                      complexityCeiling: 1), scope: scope).id.rawValue)
    }
    let type = try await repository.createAppointmentType(
        AppointmentType(name: "Consultation", defaultDurationMinutes: 15, bufferAfterMinutes: 5, fee: Money(minorUnits: 4000, currency: "GBP")),
        scope: scope)
    var patient = UUID()
    if let sqlite {
        let owner = try await sqlite.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        patient = try await sqlite.createPatient(Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope).id.rawValue
    }
    let start = Date().addingTimeInterval(2 * 86_400)
    return Setup(scope: scope, clinicians: clinicians, type: type, patient: patient,
                 firstSlot: Date(timeIntervalSince1970: (start.timeIntervalSince1970 / 86_400).rounded(.up) * 86_400))
}

/// Client `client` books `Bench.perClient` slots through `repositories[client % count]`.
func run(_ label: String, repositories: [any SchedulingRepository], setup: Setup, contended: Bool) async -> Figures {
    let begin = ContinuousClock.now
    let results = await withTaskGroup(of: [(Double, Int)].self) { group in
        for client in 0..<Bench.clients {
            let repository = repositories[client % repositories.count]
            // Contended: groups of 8 clients share a clinician and walk the same slots.
            let clinicianID = setup.clinicians[contended ? client / 8 : client]
            group.addTask {
                var measured: [(Double, Int)] = []
                for slot in 0..<Bench.perClient {
                    let start = setup.firstSlot.addingTimeInterval(Double(slot) * 20 * 60)
                    let began = ContinuousClock.now
                    var outcome = 0
                    do {
                        _ = try await repository.bookAppointment(
                            scope: setup.scope, patientID: setup.patient, clinicianID: clinicianID, appointmentTypeID: setup.type.id,
                            reason: nil, staffNotes: nil, assessmentID: nil, idempotencyKey: nil,
                            reads: { _, _ in
                                BookingReads(clinicianPeriod: TimeRange(start: setup.firstSlot, end: setup.firstSlot.addingTimeInterval(86_400))!,
                                             roomWindow: TimeRange(start: start, end: start.addingTimeInterval(20 * 60))!)
                            },
                            decide: { data in
                                let booking = try Appointment.book(practiceID: setup.scope.practiceID, patientID: setup.patient, clinicianID: clinicianID,
                                                                   type: setup.type, start: start, now: Date()).current
                                if let taken = data.appointments.first(where: { $0.status.holdsTime && $0.occupiedTime.overlaps(booking.occupiedTime) }) {
                                    throw BookingConflict(resource: "clinician", conflictingTime: taken.time)
                                }
                                return booking
                            })
                    } catch is BookingConflict {
                        outcome = 1
                    } catch {
                        outcome = 2
                        FileHandle.standardError.write(Data("\(label): \(String(reflecting: error))\n".utf8))
                    }
                    let elapsed = ContinuousClock.now - began
                    measured.append((Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15, outcome))
                }
                return measured
            }
        }
        var all: [(Double, Int)] = []
        for await part in group { all += part }
        return all
    }
    let elapsed = ContinuousClock.now - begin
    return Figures(label: label, attempts: results.count, booked: results.filter { $0.1 == 0 }.count,
                   conflicts: results.filter { $0.1 == 1 }.count, failures: results.filter { $0.1 == 2 }.count,
                   seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, latencies: results.map(\.0))
}

/// A fresh database on the server for one run, dropped afterwards.
func withDatabase(_ server: PostgresDatabaseConfiguration, _ body: (PostgresDatabaseConfiguration) async throws -> Void) async throws {
    let admin = PostgresClient(configuration: server.clientConfiguration, backgroundLogger: Bench.logger)
    let running = Task { await admin.run() }
    defer { running.cancel() }
    let name = "vetnet_bench_" + UUID().uuidString.prefix(8).lowercased()
    try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Bench.logger)
    var configuration = server
    configuration.database = name
    configuration.maximumConnections = Bench.clients
    do { try await body(configuration) } catch {
        _ = try? await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: Bench.logger)
        throw error
    }
    try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"), logger: Bench.logger)
}

/// PostgreSQL stores on one fresh database, running while `body` does.
func withPostgres(_ server: PostgresDatabaseConfiguration, instances: Int,
                  _ body: ([PostgresStore]) async throws -> Void) async throws {
    try await withDatabase(server) { configuration in
        // Each instance gets its share of the connections, as processes would be sized.
        var share = configuration
        share.maximumConnections = max(1, Bench.clients / instances)
        let stores = (0..<instances).map { _ in PostgresStore(configuration: share, auditKey: Bench.auditKey, cipher: Bench.cipher, logger: Bench.logger) }
        let tasks = stores.map { store in Task { await store.run() } }
        defer { tasks.forEach { $0.cancel() } }
        try await PostgresSchema.migrate(stores[0].client, logger: Bench.logger)
        try await body(stores)
        for task in tasks { task.cancel(); await task.value }
    }
}

func sqliteRun(contended: Bool) async throws -> Figures {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vetnet-bench-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = try VetNetStore.open(directory: directory, auditKey: Bench.auditKey, cipher: try RecordCipher(keyBytes: Array(repeating: 9, count: 32)))
    let setup = try await prepare(store, accounts: store, sqlite: store)
    return await run("sqlite (file, 1 process)", repositories: [store], setup: setup, contended: contended)
}

func postgresRun(_ server: PostgresDatabaseConfiguration, instances: Int, contended: Bool) async throws -> Figures {
    var figures: Figures?
    try await withPostgres(server, instances: instances) { stores in
        let setup = try await prepare(stores[0], accounts: stores[0], sqlite: nil)
        figures = await run("postgres (\(instances) instance\(instances == 1 ? "" : "s"))", repositories: stores, setup: setup, contended: contended)
    }
    guard let figures else { throw CancellationError() }
    return figures
}

/// Runs every store and workload and prints the table.
func main() async throws {
    let url = Bench.environment["VETNET_BENCH_DATABASE_URL"] ?? Bench.environment["VETNET_TEST_DATABASE_URL"]
    let server = try url.map { try PostgresDatabaseConfiguration(url: $0) }
    print("booking: \(Bench.clients) concurrent clients × \(Bench.perClient) bookings each; latency per attempt in ms")
    for contended in [false, true] {
        print("")
        print(contended ? "contended (8 clients per clinician, same slots)" : "spread (each client its own clinician)")
        print("store".padding(toLength: 30, withPad: " ", startingAt: 0) + "   att/s  book/s     p50     p99  booked conflct  fail")
        print(try await sqliteRun(contended: contended).line)
        if let server {
            print(try await postgresRun(server, instances: 1, contended: contended).line)
            print(try await postgresRun(server, instances: 2, contended: contended).line)
        } else {
            print("postgres: skipped (set VETNET_BENCH_DATABASE_URL)")
        }
    }
}

do {
    try await main()
} catch {
    // A bad URL or an unreachable server is reported, not trapped on.
    FileHandle.standardError.write(Data("vetnet-booking-bench: \(error)\n".utf8))
    exit(1)
}
