import ArgumentParser
import Foundation
import PatientRecords
import PracticeServices
import Scheduling
import SharedKernel
import StoragePorts
import StoragePostgres
import StorageSQLite
import StorageSupport
import Synchronization

extension BenchCommand {
    /// `vetnet bench booking`: booking throughput on each store, with one practice and with
    /// four, on PostgreSQL with one instance and with two, printed as one table with the ratios
    /// the scale-out story rests on.
    struct Booking: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "booking",
            abstract:
                """
                Measure booking throughput: the embedded store, PostgreSQL with one and two instances, one practice \
                and four.
                """,
            discussion: """
                Each configuration creates its practices (clinicians with full-time hours, rooms, the demo's \
                appointment \
                types, patients), plans consultations that are all free when planned (no clinician or exam room double \
                booked), and has --clients clients book them at once through the booking use case (the slot rule \
                decided \
                in the store's transaction, audited, with its event), each client in one practice, the clients spread \
                over \
                the instances. A few may be refused where bookings arriving out of order leave the exam rooms \
                fragmented (each booking keeps the room it was given). Throughput is bookings per second of wall \
                time; latency is per booking call. No HTTP: the \
                figures are the store's and the use case's. Two instances are two stores with pools of their own on \
                one \
                database, in this process. Targets: PostgreSQL with one instance at least 40 % of the embedded store's \
                bookings/s for one practice; four practices at once at least 2.5 times one practice on PostgreSQL; two \
                instances not slower than one. Build with -c release; give --postgres an empty database (its \
                practices stay).
                """)

        @Option(
            help: ArgumentHelp(
                """
                postgres://… URL of an empty database the benchmark may fill; without it only the embedded store runs.
                """,
                valueName: "url"))
        var postgres: String?
        @Option(help: "Clients booking at once.") var clients = 32
        @Option(help: "Bookings per configuration, shared among its practices.") var bookings = 1_200
        @Option(help: "Clinicians in each practice.") var clinicians = 8
        @Option(
            help: """
                Runs of each configuration, on practices of their own (on PostgreSQL in turns with the other \
                configurations); the median is shown.
                """)
        var rounds = 3

        func validate() throws {
            guard (1...256).contains(clients) else { throw ValidationError("--clients must be between 1 and 256") }
            guard (40...20_000).contains(bookings) else {
                throw ValidationError("--bookings must be between 40 and 20000")
            }
            guard (1...40).contains(clinicians) else { throw ValidationError("--clinicians must be between 1 and 40") }
            guard (1...15).contains(rounds) else { throw ValidationError("--rounds must be between 1 and 15") }
        }

        func run() async throws {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
                "vetnet-bench-booking-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let bench = BookingBench(clients: clients, bookings: bookings, clinicians: clinicians, rounds: rounds)
            var rows: [BookingBench.Row] = []
            for practices in [1, 4] {
                let directory = scratch.appendingPathComponent("sqlite-\(practices)")
                try VetNetStore.prepareDataDirectory(directory, allowShared: false)
                let store = try VetNetStore.open(
                    directory: directory, auditKey: BookingBench.randomAuditKey(),
                    cipher: try BookingBench.randomCipher(),
                    checkpoint: nil, allowSharedDirectory: false)
                defer { try? store.close() }
                rows.append(
                    try await bench.measure(store: "embedded (SQLite)", instances: [store], practices: practices))
                printNow(rows.last!.line)
            }
            if let postgres {
                guard case .postgres(let configuration) = try DatabaseLocation(postgres) else {
                    throw ValidationError("--postgres must be a postgres:// URL")
                }
                rows += try await Self.onPostgres(configuration, bench: bench, uploads: scratch)
            }
            print("")
            print(BookingBench.table(rows))
            print("")
            for line in BookingBench.verdicts(rows) { print(line) }
        }

        /// The four PostgreSQL configurations, on two stores sharing the database and its keys.
        private static func onPostgres(
            _ configuration: PostgresDatabaseConfiguration, bench: BookingBench, uploads: URL
        ) async throws -> [BookingBench.Row] {
            var quiet = commandLogger
            quiet.logLevel = .error
            try await PostgresSchema.migrate(configuration, logger: quiet)
            // A throwaway installation: keys of its own, recorded by the first store.
            let auditKey = BookingBench.randomAuditKey()
            let cipher = try BookingBench.randomCipher()
            try FileManager.default.createDirectory(
                at: uploads, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let stores = (0..<2).map { _ in
                PostgresStore(
                    configuration: configuration, auditKey: auditKey, cipher: cipher, uploadDirectory: uploads,
                    logger: quiet)
            }
            let running = stores.map { store in Task { await store.run() } }
            defer { for task in running { task.cancel() } }
            for store in stores { try await store.checkInstallationKeys() }
            let rows = try await bench.measureInTurns(
                [(1, 1), (1, 4), (2, 1), (2, 4)].map { instances, practices in
                    BookingBench.Configuration(
                        store: "PostgreSQL", instances: Array(stores.prefix(instances)), practices: practices)
                })
            for row in rows { printNow(row.line) }
            return rows
        }
    }
}

/// One run of the booking benchmark: how many clients, bookings and clinicians.
struct BookingBench: Sendable {
    let clients: Int
    let bookings: Int
    let clinicians: Int
    /// Runs of each configuration: a run lasts a second or two, at the mercy of whatever else
    /// the machine does then, so the table shows the median run.
    var rounds = 1

    /// A consultation planned for a client to book.
    struct Planned: Sendable {
        let scope: AccessScope
        let patientID: UUID
        let clinicianID: UUID
        let typeID: Identifier<AppointmentType>
        let start: Date
    }

    /// The planned bookings of one practice, handed out once each to whichever client asks next.
    final class Queue: Sendable {
        private let items: [Planned]
        private let next = Atomic<Int>(0)
        init(_ items: [Planned]) { self.items = items }
        func take() -> Planned? {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            return index < items.count ? items[index] : nil
        }
    }

    /// What one client saw.
    struct Tally: Sendable {
        var booked = 0
        var refused = 0
        var failed = 0
        var firstFailure: String?
        var firstRefusal: String?
        var latencies: [Double] = []
    }

    /// One configuration's figures.
    struct Row: Sendable {
        let store: String
        let instances: Int
        let practices: Int
        let clients: Int
        let booked: Int
        let refused: Int
        let failed: Int
        let seconds: Double
        let p50: Double
        let p99: Double
        let firstFailure: String?
        let firstRefusal: String?
        /// Bookings per second of every run of the configuration, when it ran more than once.
        var runs: [Double] = []

        var perSecond: Double { seconds > 0 ? Double(booked) / seconds : 0 }

        /// The row as the table prints it.
        var line: String {
            let cells = [
                store.padding(toLength: 18, withPad: " ", startingAt: 0), String(format: "%9d", instances),
                String(format: "%9d", practices), String(format: "%7d", clients), String(format: "%7d", booked),
                String(format: "%7d", refused + failed), String(format: "%10.0f", perSecond),
                String(format: "%7.1f", p50), String(format: "%7.1f", p99),
            ]
            let spread =
                runs.count > 1 ? "  runs: " + runs.map { String(format: "%.0f", $0) }.joined(separator: " ") : ""
            return cells.joined(separator: "  ") + spread + (firstFailure.map { "  first failure: \($0)" } ?? "")
                + (firstRefusal.map { "  first refusal: \($0)" } ?? "")
        }
    }

    /// The configuration run ``rounds`` times, each on practices of its own: the median run,
    /// with every run's bookings per second.
    func measure(store label: String, instances: [any PracticeStore], practices count: Int) async throws -> Row {
        try await measureInTurns([Configuration(store: label, instances: instances, practices: count)])[0]
    }

    /// A store, the instances booking through it and how many practices book at once.
    struct Configuration {
        let store: String
        let instances: [any PracticeStore]
        let practices: Int
    }

    /// Each configuration run ``rounds`` times in turns — the first run of each, then the
    /// second of each… — each run on practices of its own: configurations sharing a database
    /// see it grow alike, instead of the first having every run on the emptiest database.
    /// The median run of each, with every run's bookings per second, in the order given.
    func measureInTurns(_ configurations: [Configuration]) async throws -> [Row] {
        var runs = Array(repeating: [Row](), count: configurations.count)
        for _ in 0..<max(1, rounds) {
            for (index, configuration) in configurations.enumerated() {
                runs[index].append(
                    try await measureOnce(
                        store: configuration.store, instances: configuration.instances,
                        practices: configuration.practices))
            }
        }
        return runs.map { rows in
            var median = rows.sorted { $0.perSecond < $1.perSecond }[rows.count / 2]
            median.runs = rows.count > 1 ? rows.map(\.perSecond) : []
            return median
        }
    }

    /// Creates `practices` practices on the first instance, plans their share of the bookings,
    /// and lets the clients book them through the instances at once.
    private func measureOnce(store label: String, instances: [any PracticeStore], practices count: Int) async throws
        -> Row
    {
        var queues: [Queue] = []
        for index in 0..<count {
            let planned = try await plan(
                on: instances[0], practice: "Booking bench \(UUID().uuidString.prefix(8)) \(index + 1)",
                share: bookings / count)
            queues.append(Queue(planned))
        }
        let clock = ContinuousClock()
        let began = clock.now
        let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
            for client in 0..<clients {
                // Client i books in practice i mod P, through instance ⌊i / P⌋ mod N: each
                // practice's clients are spread over the instances.
                let queue = queues[client % count]
                let store = instances[(client / count) % instances.count]
                group.addTask { try await Self.book(from: queue, through: store) }
            }
            var all: [Tally] = []
            for try await tally in group { all.append(tally) }
            return all
        }
        let elapsed = clock.now - began
        let latencies = tallies.flatMap(\.latencies).sorted()
        return Row(
            store: label, instances: instances.count, practices: count, clients: clients,
            booked: tallies.map(\.booked).reduce(0, +), refused: tallies.map(\.refused).reduce(0, +),
            failed: tallies.map(\.failed).reduce(0, +),
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            p50: Self.percentile(latencies, 0.50), p99: Self.percentile(latencies, 0.99),
            firstFailure: tallies.lazy.compactMap(\.firstFailure).first,
            firstRefusal: tallies.lazy.compactMap(\.firstRefusal).first)
    }

    /// One client: books what its practice's queue hands it until the queue is empty.
    private static func book(from queue: Queue, through store: any PracticeStore) async throws -> Tally {
        let service = SchedulingService(store: store, clock: store.clock)
        var tally = Tally()
        let clock = ContinuousClock()
        while let planned = queue.take() {
            let began = clock.now
            do {
                _ = try await service.book(
                    scope: planned.scope, patientID: planned.patientID, clinicianID: planned.clinicianID,
                    typeID: planned.typeID, start: planned.start, durationMinutes: 15, reason: nil,
                    idempotencyKey: nil)
                tally.booked += 1
            } catch let refusal as SlotUnavailable {
                tally.refused += 1
                tally.firstRefusal = tally.firstRefusal ?? refusal.detail
            } catch {
                tally.failed += 1
                tally.firstFailure = tally.firstFailure ?? String(describing: type(of: error))
            }
            let took = clock.now - began
            tally.latencies.append(
                Double(took.components.seconds) * 1_000 + Double(took.components.attoseconds) / 1e15)
        }
        return tally
    }

    /// A new practice with its clinicians, rooms, types and patients, and `share` consultations
    /// over the next weeks that are all free together: no clinician booked twice at once
    /// (buffer included) and never more at one time than the practice has exam rooms.
    private func plan(on store: any PracticeStore, practice name: String, share: Int) async throws -> [Planned] {
        let profile = PracticeProfile(
            id: PracticeID(), name: name, timeZone: "Europe/London",
            openingHours: (1...6).map {
                OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: $0 == 6 ? 13 * 60 : 19 * 60)
            })
        try await store.createPractice(profile, requestID: "cli-bench-booking")
        let scope = AccessScope.system(profile.id, requestID: "cli-bench-booking")
        try await PracticeHistorySeed.addSchedule(store: store, scope: scope, clinicians: clinicians)
        let population = ScaleSeed(
            ownerCount: 60, patientCount: 120, seed: UInt64.random(in: 1...UInt64.max), reference: Date())
        try await store.bulkLoad(owners: population.owners, patients: population.patients, scope: scope, progress: nil)
        let patients = population.patients.filter { $0.status == .active }.map(\.id.rawValue)

        let service = SchedulingService(store: store, clock: store.clock)
        let tomorrow = RecordCalendar.utc.startOfDay(for: store.clock.now()).addingTimeInterval(86_400)
        var planned: [Planned] = []
        var windowStart = tomorrow
        // Four weeks at a time until the share is planned (a practice of few clinicians needs more).
        while planned.count < share, windowStart < tomorrow.addingTimeInterval(365 * 86_400) {
            let range = TimeRange(start: windowStart, end: windowStart.addingTimeInterval(28 * 86_400))!
            let snapshot = try await service.snapshot(scope: scope, range: range)
            guard let type = snapshot.types.first(where: { $0.name == "Consultation" }) else {
                throw ValidationError("the practice has no Consultation type")
            }
            let examRooms = snapshot.rooms.filter { $0.type == .exam && $0.isActive }.count
            let slots = try snapshot.finder.slots(for: SlotQuery(range: range, appointmentType: type))
            var clinicianFree: [UUID: Date] = [:]
            var roomUse: [Int: Int] = [:]
            let block = TimeInterval((15 + type.bufferAfterMinutes) * 60)
            for slot in slots where planned.count < share {
                if let free = clinicianFree[slot.clinicianID], free > slot.start { continue }
                let first = Int(slot.start.timeIntervalSince1970) / 300
                let buckets = first..<(first + Int(block) / 300)
                if buckets.contains(where: { roomUse[$0, default: 0] >= examRooms }) { continue }
                for bucket in buckets { roomUse[bucket, default: 0] += 1 }
                clinicianFree[slot.clinicianID] = slot.start.addingTimeInterval(block)
                planned.append(
                    Planned(
                        scope: scope, patientID: patients[planned.count % patients.count],
                        clinicianID: slot.clinicianID, typeID: type.id, start: slot.start))
            }
            windowStart = range.end
        }
        return planned
    }

    /// A throwaway installation's audit key.
    static func randomAuditKey() -> AuditKey { AuditKey(bytes: (0..<32).map { _ in UInt8.random(in: 0...255) }) }

    /// A throwaway installation's record key.
    static func randomCipher() throws -> RecordCipher {
        try RecordCipher(keyBytes: (0..<32).map { _ in UInt8.random(in: 0...255) })
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }

    /// The table of every configuration measured.
    static func table(_ rows: [Row]) -> String {
        let header = [
            "store".padding(toLength: 18, withPad: " ", startingAt: 0), "instances", "practices", "clients",
            " booked", "refused", "bookings/s", "p50 ms", "p99 ms",
        ].joined(separator: "  ")
        return ([header] + rows.map(\.line)).joined(separator: "\n")
    }

    /// Each target with its ratio, met or missed (a configuration not run says so).
    static func verdicts(_ rows: [Row]) -> [String] {
        func rate(_ store: String, _ instances: Int, _ practices: Int) -> Double? {
            rows.first { $0.store.hasPrefix(store) && $0.instances == instances && $0.practices == practices }?
                .perSecond
        }
        func verdict(_ name: String, _ numerator: Double?, _ denominator: Double?, target: Double) -> String {
            guard let numerator, let denominator, denominator > 0 else { return "\(name): not measured" }
            let ratio = numerator / denominator
            return String(
                format: "%@: %.2f (target ≥ %.2f): %@", name, ratio, target, ratio >= target ? "met" : "MISSED")
        }
        return [
            verdict(
                "PostgreSQL one instance ÷ embedded store, one practice", rate("PostgreSQL", 1, 1),
                rate("embedded", 1, 1), target: 0.40),
            verdict(
                "PostgreSQL four practices ÷ one practice, one instance", rate("PostgreSQL", 1, 4),
                rate("PostgreSQL", 1, 1), target: 2.5),
            verdict(
                "PostgreSQL two instances ÷ one instance, one practice", rate("PostgreSQL", 2, 1),
                rate("PostgreSQL", 1, 1), target: 1.0),
            verdict(
                "PostgreSQL two instances ÷ one instance, four practices", rate("PostgreSQL", 2, 4),
                rate("PostgreSQL", 1, 4), target: 1.0),
            verdict(
                "embedded store four practices ÷ one practice", rate("embedded", 1, 4), rate("embedded", 1, 1),
                target: 1.0),
        ]
    }
}
