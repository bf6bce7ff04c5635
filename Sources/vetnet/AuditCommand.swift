import ArgumentParser
import Foundation
import StoragePorts
import StorageSQLite

/// `vetnet audit verify` and `vetnet audit re-anchor`.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Inspect the audit trail.",
        subcommands: [Verify.self, Reanchor.self])

    /// `vetnet audit verify`.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                """
                Verify the audit trail's HMAC chain; names the first entry that was edited, deleted, inserted or \
                reordered.
                """,
            discussion: """
                On the embedded store, also holds the chain to the signed checkpoint of its head (--audit-checkpoint), \
                which shows entries deleted from the end. Exits 0 when intact, 1 when broken or when a non-empty \
                chain has \
                no checkpoint (unless --allow-missing-checkpoint). Verifying never anchors a chain that lost its \
                checkpoint \
                (an anchored one is only caught up to its head, as any opening of the store does).
                """)
        @OptionGroup var store: StoreOptions

        @Flag(
            help:
                "Report a chain that has no checkpoint as intact (it still writes none; `vetnet audit re-anchor` does)."
        )
        var allowMissingCheckpoint = false

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let result = try await opened.store.verifyAuditChain()
            print(result.description)
            if !result.isIntact { throw ExitCode(1) }
            // Only the embedded store keeps a checkpoint file; PostgreSQL's head is signed in the database.
            if opened.embedded?.auditCheckpoint != nil, result.checkpoint == nil, result.checked > 0,
                !allowMissingCheckpoint
            {
                printError(
                    "vetnet audit verify: no audit checkpoint at the configured path; truncation cannot be ruled out")
                throw ExitCode(1)
            }
        }
    }

    /// `vetnet audit re-anchor`.
    struct Reanchor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "re-anchor",
            abstract:
                """
                Anchor the audit chain at its current end after it lost its checkpoint (embedded store; the server \
                stopped).
                """,
            discussion: """
                The server refuses to start while the chain ends before its checkpoint, the checkpoint is missing for \
                a \
                non-empty chain, or it no longer matches. Once the cause is known, this appends an \
                `audit.re_anchored` entry \
                naming what was found and --reason, and writes the checkpoint at that entry. Refused when the chain \
                itself \
                does not verify.
                """)
        @OptionGroup var store: StoreOptions

        @Option(help: "Why the chain is re-anchored (kept in the trail).")
        var reason: String

        func validate() throws {
            let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= 500 else {
                throw ValidationError("--reason must be 1 to 500 characters")
            }
        }

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            guard let embedded = opened.embedded else {
                printError("vetnet audit re-anchor: only the embedded store keeps a checkpoint file")
                throw ExitCode(1)
            }
            do {
                let (found, checkpoint) = try await embedded.reanchorAudit(
                    reason: reason.trimmingCharacters(in: .whitespacesAndNewlines))
                print("re-anchored the audit chain at entry #\(checkpoint.sequence) (found: \(found.summary))")
            } catch let refused as AuditReanchorRefused {
                printError("vetnet audit re-anchor: \(refused)")
                throw ExitCode(1)
            }
        }
    }
}
