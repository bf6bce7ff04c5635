import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Breed catalogue and plausibility warnings")
struct BreedCatalogueTests {
    static let now = Timestamp.date("2026-11-23T12:00:00Z")!
    static func born(_ text: String) -> Date { RecordCalendar.date(fromISODay: text)! }

    @Test(
        "a breed is matched without case, accents or extra spaces; another species' breed and free text are told apart",
        arguments: [
            ("labrador  retriever", Species.dog, BreedMatch.catalogued("Labrador Retriever")),
            ("MAINE COON", .cat, .catalogued("Maine Coon")),
            ("Siamese", .dog, .otherSpecies("Siamese", .cat)),
            ("Lurcher cross", .dog, .freeText),
            ("", .dog, .freeText),
        ])
    func matching(breed: String, species: Species, expected: BreedMatch) {
        #expect(BreedCatalogue.match(breed, species: species) == expected)
    }

    @Test("a cat of 27 is saved with a warning; a cat of 12 without")
    func age() {
        let old = Patient(
            name: "Granny", species: .cat, breed: "Domestic Shorthair", birthDate: Self.born("1999-05-01"),
            ownerID: Identifier())
        #expect(old.plausibilityWarnings(now: Self.now).map(\.field) == ["birthDate"])
        #expect(old.plausibilityWarnings(now: Self.now).first?.message.contains("27 years") == true)
        let young = Patient(
            name: "Tom", species: .cat, breed: "Domestic Shorthair", birthDate: Self.born("2014-05-01"),
            ownerID: Identifier())
        #expect(young.plausibilityWarnings(now: Self.now).isEmpty)
        #expect(young.breedIsCatalogued == true)
    }

    @Test("free text is kept and flagged; a breed of another species is warned about; no breed, no flag")
    func breeds() {
        let cross = Patient(name: "Scruff", species: .dog, breed: "Lurcher cross", ownerID: Identifier())
        #expect(cross.breedIsCatalogued == false)
        #expect(
            cross.plausibilityWarnings(now: Self.now).map(\.message) == [
                "not in the dog breed catalogue; kept as written (free text)"
            ])
        let odd = Patient(name: "Rex", species: .dog, breed: "Siamese", ownerID: Identifier())
        #expect(
            odd.plausibilityWarnings(now: Self.now).map(\.message) == [
                "Siamese is a cat breed, but the patient is a dog"
            ])
        #expect(Patient(name: "Spike", species: .dog, ownerID: Identifier()).breedIsCatalogued == nil)
        #expect(BreedCatalogue.breeds(of: .other).isEmpty)
    }
}
