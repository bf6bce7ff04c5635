import ArgumentParser
import Foundation
import SharedKernel
import StoragePorts

extension UsersCommand {
    /// `vetnet users reset-second-factor`: removes an account's second factor, for the last
    /// administrator of a practice who lost both their phone and their recovery codes (any
    /// other account is reset by an administrator in the app).
    struct ResetSecondFactor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-second-factor",
            abstract: "Remove a staff account's second factor and sign it out everywhere.",
            discussion: """
                The account then signs in with its password and, where the practice asks one of its role, sets up a \
                new authenticator app before anything else. The removal is in the audit trail.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice:
            String?
        @Option(help: "Sign-in email of the account.") var email: String

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let (profile, account, scope) = try await selectAccount(
                email: email, practice: practice, store: vetStore, requestID: "cli-users-reset-second-factor")
            try await vetStore.resetSecondFactor(userID: account.id, scope: scope)
            print("removed the second factor of \(account.email) in \(profile.name); its sessions were signed out")
        }
    }
}
