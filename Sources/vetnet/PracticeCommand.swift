import ArgumentParser
import Foundation
import PracticeServices
import SharedKernel
import StoragePorts
import StorageSQLite

/// `vetnet practice …`: a practice of one's own, for a fresh install without the demo.
struct PracticeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "practice", abstract: "Create or show a practice.",
        subcommands: [Create.self, Show.self])

    /// `vetnet practice create`.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a practice with its first administrator.",
            discussion: """
                The administrator's password is read from VETNET_PASSWORD when set, otherwise from the first line of \
                standard \
                input (never from the command line). Opening hours take one --hours per line of the timetable, e.g. \
                --hours 'mon-fri 08:00-18:30' --hours 'sat 09:00-12:00'; everything else about the practice \
                (clinicians, rooms, \
                appointment types, closures) is then set up through the API by the administrator.
                """)

        @OptionGroup var store: StoreOptions
        @Option(help: "The practice's trading name (unique on this installation).") var name: String
        @Option(name: .customLong("time-zone"), help: "IANA time zone, e.g. Europe/London.") var timeZone: String
        @Option(name: .customLong("hours"), help: "Opening hours, e.g. 'mon-fri 08:00-18:30' (repeatable).") var hours:
            [String] = []
        @Option(help: "Front-desk phone.") var phone: String?
        @Option(help: "Postal address.") var address: String?
        @Option(name: .customLong("slot-grid"), help: "Booking grid in minutes: 5, 10, 15, 20, 30 or 60.")
        var slotGrid = 5
        @Option(name: .customLong("retention-years"), help: "Years an archived record is kept (1–100).")
        var retentionYears = 7
        @Option(name: .customLong("admin-email"), help: "The first administrator's sign-in email.") var adminEmail:
            String
        @Option(name: .customLong("admin-name"), help: "The first administrator's name.") var adminName: String

        func run() async throws {
            let openingHours = try hours.flatMap { try WeeklyHoursOption.parse($0, option: "--hours") }
                .map { OpeningHours(weekday: $0.weekday, opensMinute: $0.start, closesMinute: $0.end) }
            let password = try readPassword()
            let profile = PracticeProfile(
                id: PracticeID(), name: name, timeZone: timeZone, openingHours: openingHours, phone: phone,
                address: address, slotGridMinutes: slotGrid, retentionYears: retentionYears)
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let (practice, account) = try await reportingFieldErrors {
                try await AccountService(store: vetStore).createPractice(
                    profile, administratorEmail: adminEmail, administratorName: adminName, password: password,
                    requestID: "cli-practice-create")
            }
            print("created practice \(practice.name) (id \(practice.id)), \(practice.timeZone)")
            for line in practice.openingHours.sorted(by: { ($0.weekday, $0.opensMinute) < ($1.weekday, $1.opensMinute) }
            ) {
                print(
                    """
                      open \(Self.weekdays[line.weekday - 1]) \(Self.clock(line.opensMinute))\
                    –\(Self.clock(line.closesMinute))
                    """
                )
            }
            print(
                "administrator \(account.email) (id \(account.id)); sign in with POST /api/v1/auth/login "
                    + "and set up two-factor sign-in, which the practice asks of administrators")
        }

        private func readPassword() throws -> String {
            if let fromEnvironment = ProcessInfo.processInfo.environment["VETNET_PASSWORD"], !fromEnvironment.isEmpty {
                return fromEnvironment
            }
            if let line = readLine(strippingNewline: true) { return line }
            throw ValidationError("no password: set VETNET_PASSWORD or pipe it on standard input")
        }

        static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        static func clock(_ minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }
    }

    /// `vetnet practice show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a practice's settings and closures.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id, or its exact name (default: the store's only practice).") var practice: String?

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let profile = try await selectPractice(practice, store: vetStore)
            print("\(profile.name) (id \(profile.id)), \(profile.timeZone)")
            if let phone = profile.phone { print("  phone    \(phone)") }
            if let address = profile.address { print("  address  \(address)") }
            for line in profile.openingHours.sorted(by: { ($0.weekday, $0.opensMinute) < ($1.weekday, $1.opensMinute) })
            {
                print(
                    """
                      open     \(Create.weekdays[max(0, min(6, line.weekday - 1))]) \(Create.clock(line.opensMinute))\
                    –\(Create.clock(line.closesMinute))
                    """
                )
            }
            print(
                """
                  grid \(profile.slotGridMinutes) min, default buffer \(profile.defaultBufferMinutes) min, retention \
                \(profile.retentionYears) years
                """
            )
            if !profile.services.isEmpty {
                print("  services \(profile.services.map(\.rawValue).joined(separator: ", "))")
            }
            for closure in profile.closures {
                let days =
                    closure.firstDay == closure.lastDay
                    ? "\(closure.firstDay)" : "\(closure.firstDay)–\(closure.lastDay)"
                let hours =
                    closure.isWholeDay
                    ? "all day" : "\(Create.clock(closure.fromMinute))–\(Create.clock(closure.untilMinute))"
                print("  closed   \(days) \(hours)\(closure.recursYearly ? " every year" : ""): \(closure.reason)")
            }
        }
    }
}
