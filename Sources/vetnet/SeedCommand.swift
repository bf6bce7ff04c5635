import ArgumentParser
import Foundation
import HTTPAPI
import SharedKernel
import StorageSQLite

/// `vetnet seed --demo` seeds the demo practice into an empty store; `vetnet seed --scale`
/// adds a large generated practice for performance work.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Seed data into the store.",
        discussion: """
            --demo: VETNET_DEMO_PASSWORD sets the demo accounts' password; otherwise a random one is printed.
            --scale: creates a practice of generated owners and patients (the same --seed gives the same data), \
            loaded in one transaction with its search index.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Seed the demo practice (only into an empty store).")
    var demo = false

    @Flag(help: "Seed a large generated practice for performance work.")
    var scale = false
    @Option(help: "With --scale: number of patients.") var patients = 100_000
    @Option(help: "With --scale: number of owners.") var owners = 60_000
    @Option(help: "With --scale: name of the practice to create.") var practiceName = "Scale Test Veterinary Group"
    @Option(help: "With --scale: generator seed.") var seed: UInt64 = 1

    func validate() throws {
        guard demo != scale else { throw ValidationError("choose what to seed: --demo or --scale") }
        if scale {
            guard patients >= 0, owners >= 0 else { throw ValidationError("--patients and --owners must not be negative") }
            guard owners > 0 || patients == 0 else { throw ValidationError("patients need owners: give --owners") }
        }
    }

    func run() async throws {
        let vetStore = try store.openStore()
        defer { try? vetStore.close() }
        if scale { try await seedScale(vetStore) } else { try await seedDemo(vetStore) }
    }

    private func seedDemo(_ vetStore: VetNetStore) async throws {
        let accounts = AccountService(store: vetStore)
        guard let summary = try await DemoPractice.seedIfEmpty(store: vetStore, accounts: accounts,
                                                               password: ProcessInfo.processInfo.environment["VETNET_DEMO_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }, now: Date()) else {
            printError("The store at \(store.dataURL.path) already holds a practice; the demo is only seeded into an empty store.")
            throw ExitCode(1)
        }
        print(DemoBanner.text(summary, host: "127.0.0.1", port: 8080))
    }

    private func seedScale(_ vetStore: VetNetStore) async throws {
        if try await vetStore.allPractices().contains(where: { $0.name == practiceName }) {
            printError("The store already holds a practice named '\(practiceName)'; choose another --practice-name.")
            throw ExitCode(1)
        }
        let start = ContinuousClock.now
        // A fixed reference day keeps birth dates, and so the whole data set, reproducible.
        let reference = min(Date(timeIntervalSince1970: 1_767_225_600), Date())  // 2026-01-01
        // Mix the practice name into the seed so two generated practices never share ids.
        let mixed = practiceName.unicodeScalars.reduce(seed) { ($0 &* 31) &+ UInt64($1.value) }
        let data = ScaleSeed(ownerCount: owners, patientCount: patients, seed: mixed, reference: reference)
        let generated = ContinuousClock.now
        var idSource = SplitMix64(seed: mixed ^ 0xA5A5)
        let profile = PracticeProfile(id: PracticeID(idSource.uuid()), name: practiceName, timeZone: "Europe/London",
                                      openingHours: (1...6).map { OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: $0 == 6 ? 13 * 60 : 19 * 60) })
        try await vetStore.createPractice(profile, requestID: "cli-seed-scale")
        let numbers = try await vetStore.bulkLoad(owners: data.owners, patients: data.patients, scope: .system(profile.id, requestID: "cli-seed-scale"),
                                                  progress: ProgressBar(unit: "rows").handler)
        let end = ContinuousClock.now
        print("Seeded \(profile.name) (\(profile.id)): \(data.owners.count) owners, \(data.patients.count) patients"
              + (numbers.map { ", record numbers \($0.first) to \($0.last)" } ?? "") + ".")
        print("seed time: \(Self.seconds(end - start)) s (generate \(Self.seconds(generated - start)) s, store \(Self.seconds(end - generated)) s)")
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
