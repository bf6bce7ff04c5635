import Foundation
import SharedKernel
import Testing

@testable import Triage

/// Spec §9 (1.2): the case's `sex` takes the patient record's words, so any stored patient can
/// be triaged with its own record; `male` and `female` are still read, as intact animals.
@Suite("Sex: one vocabulary for the record and the triage case")
struct SexVocabularyTests {
    @Test(
        """
        every sex a patient record can hold (SharedKernel.Sex, the record's own type) is a valid case value, read as \
        itself
        """,
        arguments: Sex.allCases)
    func recordWordsAreCaseWords(sex: Sex) throws {
        let parsed = try TriageCase(
            json: #"{"species": "dog", "sex": "\#(sex.rawValue)", "vitals": {"mucousMembranes": "cyanotic"}}"#)
        #expect(parsed.sex == sex)
        #expect(engine.evaluate(parsed, arrival: testNow).level == .red)
    }

    @Test(
        "the older words male and female are read as intact",
        arguments: [("male", Sex.maleIntact), ("female", .femaleIntact)])
    func aliases(word: String, sex: Sex) throws {
        #expect(try TriageCase(json: #"{"species": "cat", "sex": "\#(word)"}"#).sex == sex)
    }

    @Test("any other word is refused naming the field and listing the record's words")
    func unknownWord() throws {
        let error = try #require(validationError(#"{"species": "dog", "sex": "intact"}"#))
        #expect(error.errors.map(\.field) == ["sex"])
        let message = try #require(error.errors.first?.message)
        for sex in Sex.allCases { #expect(message.contains(sex.rawValue)) }
    }
}
