import Foundation
import SharedKernel
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("Demo passphrase")
struct DemoPassphraseTests {
    @Test("the passphrase space is at least 2^40: distinct words, list size^words × numbers")
    func entropy() {
        let words = DemoPassphrase.words
        #expect(Set(words).count == words.count, "a repeated word overstates the entropy")
        let space = pow(Double(words.count), Double(DemoPassphrase.wordCount)) * Double(DemoPassphrase.numberChoices)
        #expect(space >= pow(2, 40))
        #expect(abs(DemoPassphrase.entropyBits - log2(space)) < 1e-9)
        #expect(DemoPassphrase.entropyBits >= 46.6)
    }

    @Test("words are short, lower-case letters only, so the passphrase is easy to type")
    func typeable() {
        for word in DemoPassphrase.words {
            #expect((3...8).contains(word.count) && word.allSatisfy { ("a"..."z").contains($0) }, "\(word)")
        }
    }

    @Test("a generated passphrase is the documented shape, meets the password policy, and two are different")
    func generated() throws {
        let first = DemoPractice.randomPassphrase()
        let second = DemoPractice.randomPassphrase()
        #expect(first != second)
        for passphrase in [first, second] {
            let parts = passphrase.split(separator: "-").map(String.init)
            #expect(parts.count == DemoPassphrase.wordCount + 1, "\(passphrase)")
            #expect(parts.dropLast().allSatisfy(DemoPassphrase.words.contains), "\(passphrase)")
            #expect(parts.last.map { $0.count == 2 && Int($0) != nil } == true, "\(passphrase)")
            try PasswordPolicy.validate(passphrase)
        }
    }
}
