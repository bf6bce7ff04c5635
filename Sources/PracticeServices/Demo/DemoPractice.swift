import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

/// Seeds a realistic, deterministic demo practice into an empty store: opening hours,
/// clinicians across specialties with their staff accounts, staff of every role, owners and
/// their animals.
public enum DemoPractice {
    /// What was seeded and how to sign in.
    public struct Summary: Sendable {
        /// The practice.
        public let practice: PracticeProfile
        /// Sign-in emails by role.
        public let accounts: [(email: String, role: Role)]
        /// The password of every demo account (shown once, here).
        public let password: String
        /// Counts for the banner.
        public let clinicians: Int, owners: Int, patients: Int
    }

    /// Seeds the demo practice if and only if the store holds no practice yet; returns `nil`
    /// when it did nothing. `password` defaults to a fresh random passphrase.
    public static func seedIfEmpty(
        store: some AccountRepository & PracticeSettingsRepository & SchedulingRepository & PatientDirectory,
        accounts service: AccountService, password: String? = nil, now: Date
    ) async throws -> Summary? {
        guard try await store.isEmpty() else { return nil }
        let password = password ?? randomPassphrase()
        try PasswordPolicy.validate(password)
        var random = SeededGenerator(seed: 20_261_121)
        let practice = PracticeProfile(
            id: PracticeID(), name: DemoPracticeData.practiceName, timeZone: DemoPracticeData.timeZone,
            openingHours: (1...5).map { OpeningHours(weekday: $0, opensMinute: 8 * 60, closesMinute: 19 * 60) }
                + [OpeningHours(weekday: 6, opensMinute: 9 * 60, closesMinute: 13 * 60)],
            phone: "+44 1632 960 123", address: "1 Riverside Walk, Ashford Mill, AM1 2VT, United Kingdom",
            // A demo is for trying VetNet at once, on accounts whose passphrase the operator
            // hands round: its administrator may turn the second factor on in the settings. A
            // practice created for real asks it of administrators from the start.
            secondFactorRoles: [])
        let scope = AccessScope.system(practice.id, requestID: "seed-demo")
        // One hash for every demo account: bcrypt at cost 12 is deliberately slow.
        let hash = await service.hasher.hash(password)
        var accounts: [(String, Role)] = []

        func email(_ name: String) -> String {
            let local = name.lowercased().replacingOccurrences(of: "dr ", with: "").replacingOccurrences(
                of: " ", with: ".")
            return "\(local)@\(DemoPracticeData.emailDomain)"
        }
        func addUser(_ name: String, _ role: Role) async throws -> StaffAccount {
            let account = try await store.createUser(
                scope: scope, email: email(name), displayName: name, role: role, passwordHash: hash)
            accounts.append((account.email, role))
            return account
        }

        // The practice and its first administrator are created together, as on a fresh install.
        let (_, administrator) = try await store.createPractice(
            practice,
            administrator: FirstAdministrator(
                email: email(DemoPracticeData.administrator), displayName: DemoPracticeData.administrator,
                passwordHash: hash), requestID: "seed-demo")
        accounts.append((administrator.email, .administrator))
        for (index, (name, credentials, expertise, species, cap, ceiling)) in DemoPracticeData.clinicians.enumerated() {
            let account = try await addUser(name, .veterinarian)
            let clinician = try await store.createClinician(
                Clinician(
                    userID: account.id, displayName: name, credentials: credentials,
                    expertise: expertise.map { Expertise(specialty: $0.0, proficiency: $0.1, years: $0.2) },
                    species: Set(species), maxAppointmentsPerDay: cap, complexityCeiling: ceiling), scope: scope)
            _ = try await store.setAvailability(
                DemoPracticeData.availability(for: clinician.id, index: index), scope: scope, expectedVersion: nil)
        }
        for (name, type) in DemoPracticeData.rooms {
            _ = try await store.createRoom(Room(name: name, type: type), scope: scope)
        }
        for type in DemoPracticeData.appointmentTypes { _ = try await store.createAppointmentType(type, scope: scope) }
        for name in DemoPracticeData.technicians { _ = try await addUser(name, .technician) }
        for name in DemoPracticeData.receptionists { _ = try await addUser(name, .receptionist) }

        let (owners, patients) = try await seedOwnersAndPatients(store: store, scope: scope, random: &random, now: now)
        return Summary(
            practice: practice, accounts: accounts, password: password,
            clinicians: DemoPracticeData.clinicians.count, owners: owners, patients: patients)
    }

    private static func seedOwnersAndPatients(
        store: some PatientDirectory, scope: AccessScope, random: inout SeededGenerator, now: Date
    ) async throws -> (Int, Int) {
        let speciesMix: [Species] =
            Array(repeating: .dog, count: 9) + Array(repeating: .cat, count: 7)
            + [.rabbit, .rabbit, .ferret, .bird, .horse, .reptile]
        var patientCount = 0
        var usedNames = Set<String>()
        for index in 0..<48 {
            var first = random.pick(DemoPracticeData.firstNames)
            var last = random.pick(DemoPracticeData.lastNames)
            while usedNames.contains("\(first) \(last)") {
                first = random.pick(DemoPracticeData.firstNames)
                last = random.pick(DemoPracticeData.lastNames)
            }
            usedNames.insert("\(first) \(last)")
            let emailLocal = "\(first).\(last)".lowercased().replacingOccurrences(of: "'", with: "")
            let owner = try await store.createOwner(
                Owner(
                    firstName: first, lastName: last, email: "\(emailLocal)@mail.example",
                    phones: [
                        PhoneNumber(
                            label: "mobile",
                            number: "07700 9"
                                + String(String(Int.random(in: 0..<100_000, using: &random) + 100_000).dropFirst()))
                    ],
                    address: PostalAddress(
                        line1: "\(Int.random(in: 1...140, using: &random)) \(random.pick(DemoPracticeData.streets))",
                        city: "Ashford Mill",
                        postcode:
                            """
                            AM\(Int.random(in: 1...9, using: &random)) \(Int.random(in: 1...9, using: &random))\
                            \(random.pick(["AB", "DX", "HT", "QP", "RW"]))
                            """,
                        country: "United Kingdom"),
                    communication: CommunicationPreferences(
                        preferredChannel: random.pick([.email, .sms, .phone]), reminders: index % 5 != 0),
                    notes: index % 7 == 0 ? "Prefers morning appointments." : nil), scope: scope)
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let species = random.pick(speciesMix)
                let ageDays = Int.random(in: 40...(species == .horse ? 7000 : 5000), using: &random)
                let sex = random.pick(Patient.Sex.allCases.filter { $0 != .unknown })
                _ = try await store.createPatient(
                    Patient(
                        name: random.pick(DemoPracticeData.petNames[species] ?? ["Buddy"]), species: species,
                        breed: random.pick(DemoPracticeData.breeds[species] ?? ["Mixed"]), sex: sex,
                        birthDate: now.addingTimeInterval(-Double(ageDays) * 86_400),
                        birthDateEstimated: ageDays % 4 == 0,
                        colour: random.pick(DemoPracticeData.colours[species] ?? ["mixed"]),
                        microchip: [.dog, .cat, .ferret, .horse].contains(species)
                            ? "826"
                                + String(
                                    String(Int.random(in: 0..<1_000_000_000_000, using: &random) + 1_000_000_000_000)
                                        .dropFirst()) : nil,
                        alerts: Int.random(in: 0..<8, using: &random) == 0
                            ? [random.pick(DemoPracticeData.alerts)] : [],
                        ownerID: owner.id), scope: scope)
                patientCount += 1
            }
        }
        return (48, patientCount)
    }

    /// A random passphrase of five words and two digits, about 46.6 bits (see ``DemoPassphrase``).
    static func randomPassphrase() -> String {
        DemoPassphrase.generate()
    }
}
