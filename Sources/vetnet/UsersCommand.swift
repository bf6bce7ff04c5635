import ArgumentParser
import Foundation
import PracticeServices
import SharedKernel
import StoragePorts
import StorageSQLite

/// `vetnet users …`: staff accounts from the command line.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "Manage staff accounts.",
        subcommands: [Add.self, List.self, SetPassword.self, ResetSecondFactor.self])

    /// `vetnet users add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a staff account.",
            discussion: """
                The password is read from VETNET_PASSWORD when set, otherwise from the first line of standard input \
                (never from the command line, where other users could read it in the process list).
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id, or its exact name.") var practice: String
        @Option(help: "Sign-in email.") var email: String
        @Option(help: "Name shown to colleagues (default: the email's local part).") var name: String?
        @Option(help: "administrator, veterinarian, technician or receptionist.") var role: String

        func run() async throws {
            guard let role = Role(rawValue: role) else {
                throw ValidationError("--role must be one of \(Role.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let password: String
            if let fromEnvironment = ProcessInfo.processInfo.environment["VETNET_PASSWORD"], !fromEnvironment.isEmpty {
                password = fromEnvironment
            } else if let line = readLine(strippingNewline: true) {
                password = line
            } else {
                throw ValidationError("no password: set VETNET_PASSWORD or pipe it on standard input")
            }
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let practiceProfile = try await resolvePractice(practice, store: vetStore)
            do {
                let account = try await AccountService(store: vetStore).createUser(
                    scope: .system(practiceProfile.id, requestID: "cli-users-add"), email: email,
                    displayName: name ?? String(email.split(separator: "@").first ?? ""), role: role, password: password
                )
                print("created \(account.role.rawValue) \(account.email) (id \(account.id)) in \(practiceProfile.name)")
            } catch let error as SharedKernel.ValidationError {
                for fieldError in error.errors { printError("\(fieldError.field): \(fieldError.message)") }
                throw ExitCode(2)
            }
        }
    }

    /// `vetnet users list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a practice's staff accounts.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id, or its exact name.") var practice: String

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let profile = try await resolvePractice(practice, store: vetStore)
            var cursor: String?
            repeat {
                let page = try await vetStore.users(scope: .system(profile.id), limit: 200, after: cursor)
                for account in page.items {
                    print(
                        """
                        \(account.id)  \(account.role.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0))  \
                        \(account.email)\(account.disabled ? "  (disabled)" : "")
                        """
                    )
                }
                cursor = page.nextCursor
            } while cursor != nil
        }
    }
}

/// Finds a practice by id or exact name.
func resolvePractice(_ text: String, store: any PracticeStore) async throws -> PracticeProfile {
    let practices = try await store.allPractices()
    if let match = practices.first(where: { $0.id.description == text.lowercased() || $0.name == text }) {
        return match
    }
    let known = practices.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
    throw ValidationError("no practice '\(text)'; known: \(known.isEmpty ? "none" : known)")
}
