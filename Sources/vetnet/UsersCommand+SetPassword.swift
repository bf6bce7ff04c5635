import ArgumentParser
import Foundation
import PracticeServices
import SharedKernel
import StoragePorts
import StorageSQLite

extension UsersCommand {
    /// `vetnet users set-password`: gives an account a new password, e.g. every account of a
    /// restored practice (exports never carry password hashes).
    struct SetPassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-password",
            abstract: "Set a staff account's password and sign it out everywhere.",
            discussion: """
                The password is read from VETNET_PASSWORD when set, otherwise from the first line of standard input \
                (never from the command line, where other users could read it in the process list).
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id or exact name (may be omitted when the store holds one practice).") var practice:
            String?
        @Option(help: "Sign-in email of the account.") var email: String

        func run() async throws {
            let password: String
            if let fromEnvironment = ProcessInfo.processInfo.environment["VETNET_PASSWORD"], !fromEnvironment.isEmpty {
                password = fromEnvironment
            } else if let line = readLine(strippingNewline: true) {
                password = line
            } else {
                throw ValidationError("no password: set VETNET_PASSWORD or pipe it on standard input")
            }
            do { try PasswordPolicy.validate(password, email: email) } catch {
                for fieldError in error.errors { printError("\(fieldError.field): \(fieldError.message)") }
                throw ExitCode(2)
            }
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let (profile, account, scope) = try await selectAccount(
                email: email, practice: practice, store: vetStore, requestID: "cli-users-set-password")
            try await vetStore.setPassword(
                scope: scope, id: account.id, passwordHash: await PasswordHasher().hash(password))
            print("set a new password for \(account.email) in \(profile.name); its sessions were signed out")
        }
    }
}
