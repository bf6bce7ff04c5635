import ArgumentParser
import StoragePorts
import StorageSQLite

/// `vetnet audit verify`: walks the audit hash chain.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "Inspect the audit trail.", subcommands: [Verify.self])

    /// `vetnet audit verify`.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Verify the audit trail's HMAC chain; names the first entry that was edited, deleted, inserted or reordered.",
            discussion: """
                Also holds the chain to the signed checkpoint of its head (--audit-checkpoint), which shows entries \
                deleted from the end. Exits 0 when intact, 1 when broken or when a non-empty chain has no checkpoint \
                (unless --allow-missing-checkpoint: the first run after an upgrade).
                """)
        @OptionGroup var store: StoreOptions

        @Flag(help: "Accept a chain that has no checkpoint yet.")
        var allowMissingCheckpoint = false

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let result = try await vetStore.verifyAuditChain()
            print(result.description)
            if !result.isIntact { throw ExitCode(1) }
            if result.checkpoint == nil && result.checked > 0 && !allowMissingCheckpoint {
                printError("vetnet audit verify: no audit checkpoint at the configured path; truncation cannot be ruled out")
                throw ExitCode(1)
            }
        }
    }
}
