import Foundation
import PatientRecords
import PracticeServices
import SharedKernel

/// Generates a large, realistic and reproducible practice population for performance work:
/// the same seed always gives the same owners, patients and ids.
struct ScaleSeed {
    let owners: [Owner]
    let patients: [Patient]

    /// `patientCount` patients spread over `ownerCount` owners (each owner has at least one
    /// patient when there are enough, some have several), with species in the proportions of a
    /// UK small-animal practice, birth dates up to 18 years before `reference`.
    init(ownerCount: Int, patientCount: Int, seed: UInt64, reference: Date) {
        var random = SeededGenerator(seed: seed)
        var owners: [Owner] = []
        owners.reserveCapacity(ownerCount)
        for index in 0..<ownerCount {
            let first = random.pick(ScaleSeedNames.firstNames)
            let last = random.pick(ScaleSeedNames.lastNames)
            let local = "\(first).\(last)".lowercased().filter { $0.isLetter || $0 == "." }
            let email = random.chance(0.8) ? "\(local)\(index)@example.net" : nil
            // Every owner is reachable: one without an email always has a phone.
            let phones =
                email == nil || random.chance(0.85)
                ? [
                    PhoneNumber(
                        label: random.chance(0.7) ? "mobile" : "home",
                        number: String(format: "07%03d %06d", random.below(1000), index))
                ] : []
            let town = random.pick(ScaleSeedNames.towns)
            let address =
                random.chance(0.7)
                ? PostalAddress(
                    line1: "\(1 + random.below(180)) \(random.pick(ScaleSeedNames.streets))", city: town.0,
                    postcode:
                        "\(town.1)\(1 + random.below(29)) \(random.below(10))\(random.letter())\(random.letter())",
                    country: "GB")
                : nil
            owners.append(
                Owner(
                    id: Identifier(random.uuid()), firstName: first, lastName: last, email: email, phones: phones,
                    address: address,
                    communication: CommunicationPreferences(
                        preferredChannel: email == nil ? .sms : .email, reminders: random.chance(0.9))))
        }

        var patients: [Patient] = []
        patients.reserveCapacity(patientCount)
        for index in 0..<patientCount {
            let owner = ownerCount == 0 ? nil : (index < ownerCount ? owners[index] : owners[random.below(ownerCount)])
            guard let owner else { break }
            let species = Self.species(random.unit())
            let ageDays = random.below(18 * 365)
            let birth = RecordCalendar.utc.startOfDay(for: reference.addingTimeInterval(-Double(ageDays) * 86_400))
            let status: Patient.Status = random.chance(0.93) ? .active : (random.chance(0.6) ? .deceased : .archived)
            let sexes: [Patient.Sex] = [.maleIntact, .maleNeutered, .femaleIntact, .femaleSpayed]
            patients.append(
                Patient(
                    id: Identifier(random.uuid()), name: random.pick(ScaleSeedNames.petNames[species] ?? ["Pet"]),
                    species: species,
                    breed: random.chance(0.9) ? ScaleSeedNames.breeds[species].map { random.pick($0) } : nil,
                    sex: random.chance(0.95) ? random.pick(sexes) : .unknown,
                    birthDate: random.chance(0.92) ? birth : nil,
                    birthDateEstimated: random.chance(0.2),
                    colour: random.chance(0.8) ? random.pick(ScaleSeedNames.colours) : nil,
                    // Unique by construction: 826 (UK) followed by the patient's index.
                    microchip: (species == .dog || species == .cat) && random.chance(0.7)
                        ? String(format: "826%012d", index) : nil,
                    status: status, alerts: random.chance(0.05) ? [random.pick(ScaleSeedNames.alerts)] : [],
                    ownerID: owner.id))
        }
        self.owners = owners
        self.patients = patients
    }

    /// Dogs 45 %, cats 38 %, rabbits 6 %, birds 3 %, reptiles 3 %, ferrets 2 %, horses 2 %, other 1 %.
    private static func species(_ draw: Double) -> Species {
        let table: [(Species, Double)] = [
            (.dog, 0.45), (.cat, 0.83), (.rabbit, 0.89), (.bird, 0.92), (.reptile, 0.95), (.ferret, 0.97),
            (.horse, 0.99),
        ]
        return table.first { draw < $0.1 }?.0 ?? .other
    }
}

extension SeededGenerator {
    /// An upper-case letter A–Z.
    mutating func letter() -> Character { Character(UnicodeScalar(UInt8(65 + below(26)))) }
}
