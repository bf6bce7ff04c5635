import ArgumentParser
import StorageSQLite

/// `vetnet audit verify`: walks the audit hash chain.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "Inspect the audit trail.", subcommands: [Verify.self])

    /// `vetnet audit verify`.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify the audit trail's HMAC chain; names the first entry that was edited, deleted, inserted or reordered.",
            discussion: "Exits 0 when intact, 1 when broken. Record the printed head hash elsewhere to detect later truncation.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let vetStore = try store.openStore()
            defer { try? vetStore.close() }
            let result = try await vetStore.verifyAuditChain()
            print(result.description)
            if !result.isIntact { throw ExitCode(1) }
        }
    }
}
