import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Vaccination protocols propose the next due date")
struct VaccinationProtocolTests {
    @Test(
        "a vaccine is found by its name, an alias or a product name containing one, without case",
        arguments: [
            (Species.dog, "Nobivac DHP", "DHP (distemper, adenovirus, parvovirus)"),
            (.dog, "l4", "Leptospirosis"), (.dog, "Versican Plus L4", "Leptospirosis"),
            (.cat, "rcp", "FVRCP (panleukopenia, herpesvirus, calicivirus)"), (.cat, "FeLV", "FeLV (feline leukaemia)"),
            (.rabbit, "Nobivac Myxo-RHD PLUS", "Myxomatosis and RHD (RHDV-1, RHDV-2)"),
            (.ferret, "Distemper", "Canine distemper (ferret)"),
        ])
    func matching(species: Species, asked: String, expected: String) throws {
        let found = try #require(VaccinationProtocol.protocolFor(species)?.vaccine(named: asked))
        #expect(found.name == expected)
    }

    @Test("a vaccine another species' protocol lists, an unknown one or a blank name proposes nothing")
    func nothingProposed() {
        #expect(VaccinationProtocol.protocolFor(.cat)?.vaccine(named: "L4") == nil)
        #expect(VaccinationProtocol.protocolFor(.dog)?.vaccine(named: "snake venom") == nil)
        #expect(VaccinationProtocol.protocolFor(.dog)?.vaccine(named: "   ") == nil)
        #expect(VaccinationProtocol.protocolFor(.bird) == nil && VaccinationProtocol.protocolFor(.reptile) == nil)
    }

    @Test(
        """
        under 16 weeks a dose is part of the primary course (28 days); from 16 weeks, or with no birth date, the \
        adult interval
        """
    )
    func primaryCourseThenAdult() throws {
        let dhp = try #require(VaccinationProtocol.protocolFor(.dog)?.vaccine(named: "DHP"))
        let given = Fixture.day("2026-03-01")
        let puppy = VaccinationProtocol.nextDue(after: given, of: dhp, birthDate: Fixture.day("2026-01-01"))
        #expect(puppy.intervalDays == 28 && puppy.date == Fixture.day("2026-03-29"))
        // 16 weeks exactly (112 days) is past the primary course.
        let sixteenWeeks = VaccinationProtocol.nextDue(after: given, of: dhp, birthDate: Fixture.day("2025-11-09"))
        #expect(sixteenWeeks.intervalDays == 1_095)
        let unknownAge = VaccinationProtocol.nextDue(after: given, of: dhp, birthDate: nil)
        #expect(unknownAge.date == Fixture.day("2029-02-28"))
        // A birth date after the dose (a typing error) is not read as a primary course.
        let later = VaccinationProtocol.nextDue(after: given, of: dhp, birthDate: Fixture.day("2026-06-01"))
        #expect(later.intervalDays == 1_095)
    }

    @Test("every protocol cites its source, lists core vaccines first and has positive intervals")
    func catalogue() {
        for entry in VaccinationProtocol.all {
            #expect(!entry.source.isEmpty, "\(entry.species)")
            #expect(entry.vaccines.first?.core == true, "\(entry.species)")
            let firstOptional = entry.vaccines.firstIndex { !$0.core } ?? entry.vaccines.count
            #expect(
                entry.vaccines[firstOptional...].allSatisfy { !$0.core },
                "core vaccines come first for \(entry.species)")
            #expect(entry.vaccines.allSatisfy { $0.intervalDays > 0 })
        }
    }
}

@Suite("Possible duplicates at registration")
struct PossibleDuplicateTests {
    static let ownerID = Identifier<Owner>()
    static let owner = Owner(
        id: ownerID, firstName: "Zoë", lastName: "Ørsted", email: "zoe@example.org",
        phones: [PhoneNumber(label: "mobile", number: "+44 7700 900123")])
    static let biscuit = Patient(name: "Biscuit", species: .dog, microchip: "985112345678901", ownerID: ownerID)

    @Test(
        "each shared detail is named, strongest first",
        arguments: [
            (RegistrationDetails(microchip: "985112345678901"), [DuplicateReason.sameMicrochip]),
            (
                RegistrationDetails(ownerPhone: "+44 (0)7700-900123".replacingOccurrences(of: "(0)", with: "")),
                [.sameOwnerPhone]
            ),
            (RegistrationDetails(ownerEmail: "ZOE@example.org "), [.sameOwnerEmail]),
            (
                RegistrationDetails(ownerName: "zoe orsted".replacingOccurrences(of: "orsted", with: "Ørsted")),
                [.sameOwnerName]
            ),
            (RegistrationDetails(patientName: "bisc", species: .dog), [.similarPatientName]),
            (RegistrationDetails(patientName: "Biscuits"), [.similarPatientName]),
            (RegistrationDetails(patientName: "Biscuit", species: .cat), []),
            (RegistrationDetails(patientName: "Bi"), []),
            (RegistrationDetails(ownerPhone: "900123"), []),
        ])
    func reasons(wanted: RegistrationDetails, expected: [DuplicateReason]) {
        #expect(wanted.reasons(Self.biscuit, owner: Self.owner) == expected)
    }

    @Test("only details long enough to mean something are searched for")
    func searches() {
        let wanted = RegistrationDetails(
            patientName: "B", microchip: " ", ownerName: "Zoe", ownerPhone: "12345", ownerEmail: "not-an-address")
        #expect(wanted.searches.isEmpty)
        let full = RegistrationDetails(
            patientName: "Biscuit", microchip: "985112345678901", ownerName: "Zoe Orsted", ownerPhone: "07700 900123",
            ownerEmail: "zoe@example.org")
        #expect(full.searches == ["985112345678901", "07700900123", "zoe@example.org", "Zoe Orsted", "Biscuit"])
    }
}
