import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Search normalisation")
struct SearchTextTests {
    @Test(
        "case and diacritics fold; white space collapses",
        arguments: [
            ("Zoë", "zoe"),
            ("ZOË", "zoe"),
            ("Zoe\u{0308}", "zoe"), // decomposed input folds the same
            ("  Renée   Müller ", "renee muller"),
            ("Øyvind Łukasz Straße", "oyvind lukasz strasse"),
            ("Æsop Œuvre", "aesop oeuvre"),
            ("François\tO'Brien", "francois o'brien"),
            ("Ñandú\n", "nandu"),
            ("", ""),
            ("İstanbul", "istanbul"),
        ])
    func normalize(input: String, expected: String) {
        #expect(SearchText.normalize(input) == expected)
    }

    @Test(
        "phone digits keep only the digits, converting other scripts",
        arguments: [
            ("+44 (0)20 7946-0958", "4402079460958"),
            ("0113.496.0000 ext 2", "011349600002"),
            ("٠١٢٣٤٥٦٧٨٩", "0123456789"),
            ("０２０", "020"),
            ("none", ""),
        ])
    func phoneDigits(input: String, expected: String) {
        #expect(SearchText.phoneDigits(input) == expected)
    }

    @Test("index text combines normalised names, email, address and phone digits")
    func indexText() {
        let owner = Owner(
            firstName: "Zoë", lastName: "Ørsted", email: "Zoe@Example.com",
            phones: [PhoneNumber(label: "mobile", number: "+44 7700 900123")],
            address: PostalAddress(line1: "1 Rue Émile", city: "Lyon", postcode: "69001", country: "FR"))
        #expect(SearchText.indexText(for: owner) == "zoe orsted zoe@example.com 1 rue emile lyon 69001 447700900123")
        let patient = Patient(
            medicalRecordNumber: "P-000123", name: "Señor Bigotes", species: .cat, breed: "Maine Coon",
            ownerID: owner.id)
        #expect(SearchText.indexText(for: patient) == "senor bigotes maine coon p-000123")
    }
}
