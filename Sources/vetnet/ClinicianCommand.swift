import ArgumentParser
import Foundation
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import StorageSQLite

/// `vetnet clinicians …`: the practice's clinicians from the command line (the same store
/// operations as `/api/v1/specialists`, audited as the system).
struct ClinicianCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clinicians", abstract: "Add, list, show, change or retire clinicians.",
        subcommands: [Add.self, List.self, Show.self, Update.self, Retire.self])

    /// Options describing a clinician's profile, shared by `add` and `update`.
    struct ProfileOptions: ParsableArguments {
        @Option(help: "Post-nominals, e.g. 'BVSc MRCVS'.") var credentials: String?
        @Option(help: "Species treated, comma-separated: dog,cat,rabbit,ferret,bird,horse,reptile,other.") var species:
            String?
        @Option(help: "Expertise as specialty:proficiency(1-5):years, e.g. general_practice:4:8 (repeatable).")
        var expertise: [String] = []
        @Option(name: .customLong("max-per-day"), help: "Most appointments in one day (1–60; a new clinician: 20).")
        var maxPerDay: Int?
        @Option(
            name: .customLong("complexity-ceiling"), help: "Highest case complexity taken, 0–1 (a new clinician: 1).")
        var complexityCeiling: Double?
        @Option(
            name: .customLong("max-consecutive-surgery"), help: "Longest run of back-to-back surgery, minutes (30–720)."
        )
        var maxConsecutiveSurgery: Int?

        func parsedSpecies() throws -> Set<Species>? {
            guard let species else { return nil }
            return Set(
                try species.split(separator: ",").map { name in
                    guard let value = Species(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                        throw ValidationError(
                            """
                            --species: '\(name)' is not one of \
                            \(Species.allCases.map(\.rawValue).joined(separator: ", "))
                            """
                        )
                    }
                    return value
                })
        }

        func parsedExpertise() throws -> [Expertise] {
            try expertise.map { text in
                let parts = text.split(separator: ":").map(String.init)
                guard parts.count == 3, let specialty = Specialty(rawValue: parts[0]), let proficiency = Int(parts[1]),
                    let years = Int(parts[2])
                else {
                    throw ValidationError(
                        "--expertise '\(text)': write specialty:proficiency:years, e.g. general_practice:4:8")
                }
                return Expertise(specialty: specialty, proficiency: proficiency, years: years)
            }
        }
    }

    /// `vetnet clinicians add`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a clinician (with their working hours, so they can be booked at once).")
        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id, or its exact name (default: the store's only practice).") var practice: String?
        @Option(help: "Name on the schedule, e.g. 'Dr Ana Silva'.") var name: String
        @OptionGroup var profile: ProfileOptions
        @Option(name: .customLong("user-email"), help: "Link the clinician's staff account by its email.")
        var userEmail: String?
        @Option(help: "Working hours, e.g. 'mon-fri 09:00-17:00' (repeatable).") var works: [String] = []

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let practiceProfile = try await selectPractice(practice, store: vetStore)
            let scope = AccessScope.system(practiceProfile.id, requestID: "cli-clinicians-add")
            var userID: UserID?
            if let userEmail {
                guard let account = try await vetStore.user(scope: scope, email: userEmail) else {
                    throw ValidationError("--user-email: no staff account \(userEmail) in \(practiceProfile.name)")
                }
                userID = account.id
            }
            let clinician = Clinician(
                userID: userID, displayName: name, credentials: profile.credentials ?? "",
                expertise: try profile.parsedExpertise(),
                species: try profile.parsedSpecies() ?? [], maxAppointmentsPerDay: profile.maxPerDay ?? 20,
                complexityCeiling: profile.complexityCeiling ?? 1,
                preferences: CaseloadPreferences(maxConsecutiveSurgeryMinutes: profile.maxConsecutiveSurgery))
            let weekly = try works.flatMap { try WeeklyHoursOption.parse($0, option: "--works") }
                .map { WeeklyInterval(weekday: $0.weekday, startMinute: $0.start, endMinute: $0.end) }
            let availability = weekly.isEmpty ? nil : ClinicianAvailability(clinicianID: clinician.id, weekly: weekly)
            let stored = try await reportingFieldErrors {
                try await vetStore.createClinician(
                    clinician, availability: availability, scope: scope, idempotencyKey: nil)
            }
            print(
                "created clinician \(stored.value.displayName) (id \(stored.value.id)) in \(practiceProfile.name)"
                    + (weekly.isEmpty
                        ? "; set their availability before they can be booked"
                        : ", working \(works.joined(separator: ", "))"))
        }
    }

    /// `vetnet clinicians list`.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a practice's clinicians.")
        @OptionGroup var store: StoreOptions
        @Option(help: "Practice id, or its exact name (default: the store's only practice).") var practice: String?
        @Flag(name: .customLong("include-retired"), help: "Also list retired clinicians.") var includeRetired = false

        func run() async throws {
            let opened = try await store.openPracticeStore(logger: commandLogger)
            defer { opened.close() }
            let vetStore = opened.store
            let profile = try await selectPractice(practice, store: vetStore)
            for clinician in try await vetStore.clinicians(scope: .system(profile.id), includingRetired: includeRetired)
            {
                let expertise = clinician.expertise.map { "\($0.specialty.rawValue) \($0.proficiency)/5" }.joined(
                    separator: ", ")
                print(
                    "\(clinician.id)  \(clinician.displayName)  [\(expertise)]"
                        + (clinician.retiredAt.map { "  (retired \(Timestamp.string($0)))" } ?? ""))
            }
        }
    }

    /// `vetnet clinicians show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one clinician.")
        @OptionGroup var target: ClinicianTarget

        func run() async throws {
            let (opened, profile, clinicianID) = try await target.open()
            defer { opened.close() }
            let vetStore = opened.store
            let stored = try await reportingFieldErrors {
                try await vetStore.clinician(scope: .system(profile.id), id: clinicianID)
            }
            let clinician = stored.value
            print("\(clinician.displayName) (id \(clinician.id), version \(stored.version))")
            print("  credentials      \(clinician.credentials)")
            print("  species          \(clinician.species.map(\.rawValue).sorted().joined(separator: ", "))")
            for item in clinician.expertise {
                print("  expertise        \(item.specialty.rawValue) \(item.proficiency)/5, \(item.years) years")
            }
            print(
                """
                  per day          at most \(clinician.maxAppointmentsPerDay) appointments; complexity ceiling \
                \(clinician.complexityCeiling)
                """
            )
            if let minutes = clinician.preferences.maxConsecutiveSurgeryMinutes {
                print("  surgery          at most \(minutes) min back to back")
            }
            if let retired = clinician.retiredAt { print("  retired          \(Timestamp.string(retired))") }
        }
    }

    /// `vetnet clinicians update`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a clinician's profile (options left out stay as they are).")
        @OptionGroup var target: ClinicianTarget
        @Option(help: "New name on the schedule.") var name: String?
        @OptionGroup var profile: ProfileOptions

        func run() async throws {
            let (opened, practiceProfile, clinicianID) = try await target.open()
            defer { opened.close() }
            let vetStore = opened.store
            let scope = AccessScope.system(practiceProfile.id, requestID: "cli-clinicians-update")
            var preferences: CaseloadPreferences?
            if let minutes = profile.maxConsecutiveSurgery {
                preferences = try await vetStore.clinician(scope: scope, id: clinicianID).value.preferences
                preferences?.maxConsecutiveSurgeryMinutes = minutes
            }
            let change = ClinicianChange(
                displayName: name, credentials: profile.credentials,
                expertise: profile.expertise.isEmpty ? nil : try profile.parsedExpertise(),
                species: try profile.parsedSpecies(),
                maxAppointmentsPerDay: profile.maxPerDay, complexityCeiling: profile.complexityCeiling,
                preferences: preferences)
            guard !change.fieldNames.isEmpty else {
                throw ValidationError("nothing to change: give at least one option")
            }
            let stored = try await reportingFieldErrors {
                try await vetStore.updateClinician(id: clinicianID, change: change, scope: scope, expectedVersion: nil)
            }
            print(
                """
                updated \(stored.value.displayName) (\(change.fieldNames.joined(separator: ", "))), version \
                \(stored.version)
                """
            )
        }
    }

    /// `vetnet clinicians retire`.
    struct Retire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Retire a clinician: kept for history, never booked again.")
        @OptionGroup var target: ClinicianTarget

        func run() async throws {
            let (opened, profile, clinicianID) = try await target.open()
            defer { opened.close() }
            let vetStore = opened.store
            let retirement = try await reportingFieldErrors {
                try await vetStore.retireClinician(
                    id: clinicianID, scope: .system(profile.id, requestID: "cli-clinicians-retire"),
                    expectedVersion: nil)
            }
            print(
                """
                retired \(retirement.clinician.value.displayName); \(retirement.appointmentsToReplan.count) \
                appointment(s) still to come need another clinician:
                """
            )
            for appointment in retirement.appointmentsToReplan {
                print(
                    """
                      \(appointment.value.id)  \(Timestamp.string(appointment.value.time.start))  patient \
                    \(UUIDText.lowercase(appointment.value.patientID))
                    """
                )
            }
        }
    }
}

/// Runs `body`, printing a refusal's field errors (or conflict) on standard error and exiting 2.
func reportingFieldErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as SharedKernel.ValidationError {
        for fieldError in error.errors { printError("\(fieldError.field): \(fieldError.message)") }
        throw ExitCode(2)
    } catch let error as UniquenessConflict {
        printError("\(error.field): \(error.message)")
        throw ExitCode(2)
    } catch let error as DomainError {
        switch error {
        case .notFound(let resource): printError("no such \(resource) in this practice")
        case .conflict(let message): printError(message)
        case .versionMismatch(let current): printError("changed meanwhile (now version \(current)); try again")
        case .forbidden(let action): printError("not allowed: \(action)")
        }
        throw ExitCode(2)
    }
}

/// The store, practice and clinician id that `show`, `update` and `retire` act on.
struct ClinicianTarget: ParsableArguments {
    @OptionGroup var store: StoreOptions
    @Option(help: "Practice id, or its exact name (default: the store's only practice).") var practice: String?
    @Argument(help: "The clinician's id.") var id: String

    /// Opens the store (the caller closes it), selects the practice and parses the id.
    func open() async throws -> (OpenedStore, PracticeProfile, Identifier<Clinician>) {
        guard let clinicianID = Identifier<Clinician>(uuidString: id) else {
            throw ValidationError("'\(id)' is not a clinician id")
        }
        let opened = try await store.openPracticeStore(logger: commandLogger)
        do {
            return (opened, try await selectPractice(practice, store: opened.store), clinicianID)
        } catch {
            opened.close()
            throw error
        }
    }
}
