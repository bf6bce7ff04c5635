import ArgumentParser
import Foundation
import HTTPAPI

/// `vetnet seed --demo`: seeds the demo practice into an empty store.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed", abstract: "Seed data into the store.",
        discussion: "VETNET_DEMO_PASSWORD sets the demo accounts' password; otherwise a random one is printed.")

    @OptionGroup var store: StoreOptions

    @Flag(help: "Seed the demo practice (only into an empty store).")
    var demo = false

    func run() async throws {
        guard demo else { throw ValidationError("choose what to seed: --demo") }
        let vetStore = try store.openStore()
        defer { try? vetStore.close() }
        let accounts = AccountService(store: vetStore)
        guard let summary = try await DemoPractice.seedIfEmpty(store: vetStore, accounts: accounts,
                                                               password: ProcessInfo.processInfo.environment["VETNET_DEMO_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }, now: Date()) else {
            printError("The store at \(store.dataURL.path) already holds a practice; the demo is only seeded into an empty store.")
            throw ExitCode(1)
        }
        print(DemoBanner.text(summary, host: "127.0.0.1", port: 8080))
    }
}
