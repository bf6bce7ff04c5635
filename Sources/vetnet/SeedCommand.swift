import ArgumentParser
import Foundation
import PracticeServices
import SharedKernel
import StoragePorts

/// `vetnet seed --demo` seeds the demo practice into an empty store; `vetnet seed --scale`
/// adds a large generated practice for performance work.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Seed data into the store.",
        discussion: """
            --demo: VETNET_DEMO_PASSWORD sets the demo accounts' password; otherwise a random one is printed.
            --scale: creates a practice of generated owners and patients (the same --seed gives the same data), \
            loaded in one transaction with its search index, on either store; --clinicians N adds N clinicians with \
            working hours, rooms and \
            appointment types to it.
            --history DAYS: adds DAYS local days of generated past up to now to a practice (the new one with --demo or \
            --scale, else --practice or the store's only practice): bookings made ahead, completions with actual \
            durations, \
            no-shows, late and early cancellations, triage arrivals with first-seen times and weighings, plus \
            bookings for \
            the next --ahead-days days. Built from the practice's own clinicians, rota, rooms, types and patients; \
            the same \
            practice, --seed and --now give the same history. Written in one transaction; refused where the practice \
            already \
            has appointments or arrivals in those days.
            """)

    @OptionGroup var store: StoreOptions

    @Flag(help: "Seed the demo practice (only into an empty store).")
    var demo = false

    @Flag(help: "Seed a large generated practice for performance work.")
    var scale = false
    @Option(help: "With --scale: number of patients.") var patients = 100_000
    @Option(help: "With --scale: number of owners.") var owners = 60_000
    @Option(help: "With --scale: name of the practice to create.") var practiceName = "Scale Test Veterinary Group"
    @Option(help: "With --scale or --history: generator seed.") var seed: UInt64 = 1
    @Option(help: "With --scale: clinicians (with working hours), rooms and appointment types to add.") var clinicians =
        0

    @Option(help: "Add this many local days of generated past up to now.") var history: Int?
    @Option(help: "With --history: days after today that get bookings.") var aheadDays = 14
    @Option(help: "With --history: the present, RFC 3339 (default: now); fixes the history for reproducible runs.")
    var now: String?
    @Option(help: "With --history alone: practice id or exact name (may be omitted when the store holds one practice).")
    var practice: String?

    func validate() throws {
        guard !(demo && scale) else { throw ValidationError("choose what to seed: --demo or --scale") }
        guard demo || scale || history != nil else {
            throw ValidationError("choose what to seed: --demo, --scale or --history DAYS")
        }
        if scale {
            guard patients >= 0, owners >= 0 else {
                throw ValidationError("--patients and --owners must not be negative")
            }
            guard owners > 0 || patients == 0 else { throw ValidationError("patients need owners: give --owners") }
            guard (0...500).contains(clinicians) else {
                throw ValidationError("--clinicians must be between 0 and 500")
            }
        }
        if let history {
            guard (1...3660).contains(history) else {
                throw ValidationError("--history must be between 1 and 3660 days")
            }
            guard (0...90).contains(aheadDays) else { throw ValidationError("--ahead-days must be between 0 and 90") }
            guard now.map({ Timestamp.date($0) != nil }) ?? true else {
                throw ValidationError("--now must be an RFC 3339 time")
            }
            guard !(scale && clinicians == 0) else {
                throw ValidationError("a history needs clinicians: give --clinicians with --scale")
            }
        }
        guard practice == nil || !(demo || scale) else {
            throw ValidationError("--practice names an existing practice: not with --demo or --scale")
        }
    }

    func run() async throws {
        let opened = try await store.openPracticeStore(logger: commandLogger)
        defer { opened.close() }
        let vetStore = opened.store
        var seeded: PracticeProfile?
        if scale {
            seeded = try await seedScale(vetStore)
        } else if demo {
            seeded = try await seedDemo(vetStore)
        }
        if let history {
            let profile: PracticeProfile
            if let seeded { profile = seeded } else { profile = try await selectPractice(practice, store: vetStore) }
            try await seedHistory(vetStore, practice: profile, days: history)
        }
    }

    private func seedHistory(_ vetStore: any PracticeStore, practice profile: PracticeProfile, days: Int) async throws {
        let start = ContinuousClock.now
        let present = now.flatMap(Timestamp.date) ?? Date()
        do {
            let result = try await PracticeHistorySeed.seed(
                store: vetStore, scope: .system(profile.id, requestID: "cli-seed-history"), days: days,
                aheadDays: aheadDays, seed: seed, now: present,
                progress: ProgressBar(unit: "rows").handler)
            print(
                "Added \(days) days of history to \(profile.name): \(result.summary.appointments) appointments, "
                    + "\(result.summary.arrivals) triage arrivals, \(result.summary.weights) weighings "
                    + "(\(Timestamp.string(result.range.start)) to \(Timestamp.string(result.range.end))).")
            print("history time: \(Self.seconds(ContinuousClock.now - start)) s")
        } catch let refusal as PracticeHistorySeed.Refusal {
            printError("No history added: \(refusal).")
            throw ExitCode(1)
        }
    }

    @discardableResult
    private func seedDemo(_ vetStore: any PracticeStore) async throws -> PracticeProfile {
        let accounts = AccountService(store: vetStore)
        guard
            let summary = try await DemoPractice.seedIfEmpty(
                store: vetStore, accounts: accounts,
                password: ProcessInfo.processInfo.environment["VETNET_DEMO_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 },
                now: Date())
        else {
            printError("The store already holds a practice; the demo is only seeded into an empty store.")
            throw ExitCode(1)
        }
        print(summary.banner(host: "127.0.0.1", port: 8080))
        return summary.practice
    }

    @discardableResult
    private func seedScale(_ vetStore: any PracticeStore) async throws -> PracticeProfile {
        if try await vetStore.allPractices().contains(where: { $0.name == practiceName }) {
            printError("The store already holds a practice named '\(practiceName)'; choose another --practice-name.")
            throw ExitCode(1)
        }
        let start = ContinuousClock.now
        // A fixed reference day keeps birth dates, and so the whole data set, reproducible.
        let reference = min(Date(timeIntervalSince1970: 1_767_225_600), Date()) // 2026-01-01
        // Mix the practice name into the seed so two generated practices never share ids.
        let mixed = practiceName.unicodeScalars.reduce(seed) { ($0 &* 31) &+ UInt64($1.value) }
        let data = ScaleSeed(ownerCount: owners, patientCount: patients, seed: mixed, reference: reference)
        let generated = ContinuousClock.now
        var idSource = SeededGenerator(seed: mixed ^ 0xA5A5)
        let profile = PracticeProfile(
            id: PracticeID(idSource.uuid()), name: practiceName, timeZone: "Europe/London",
            openingHours: (1...6).map {
                OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: $0 == 6 ? 13 * 60 : 19 * 60)
            })
        try await vetStore.createPractice(profile, requestID: "cli-seed-scale")
        let numbers = try await vetStore.bulkLoad(
            owners: data.owners, patients: data.patients, scope: .system(profile.id, requestID: "cli-seed-scale"),
            progress: ProgressBar(unit: "rows").handler)
        let end = ContinuousClock.now
        print(
            "Seeded \(profile.name) (\(profile.id)): \(data.owners.count) owners, \(data.patients.count) patients"
                + (numbers.map { ", record numbers \($0.first) to \($0.last)" } ?? "") + ".")
        print(
            """
            seed time: \(Self.seconds(end - start)) s (generate \(Self.seconds(generated - start)) s, store \
            \(Self.seconds(end - generated)) s)
            """
        )
        if clinicians > 0 {
            try await PracticeHistorySeed.addSchedule(
                store: vetStore, scope: .system(profile.id, requestID: "cli-seed-scale"), clinicians: clinicians)
            print("Added \(clinicians) clinicians with working hours, rooms and appointment types.")
        }
        return profile
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.2f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
