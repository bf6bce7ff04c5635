import Foundation
import PatientRecords
import SharedKernel
import StorageSupport

/// How reception still finds a client by phone number or email address once both are sealed:
/// the search index holds keyed digests of the words' prefixes, never the words.
///
/// Each word of an owner's phone numbers (their digits, and each group as written) and email
/// address is folded as the patient search folds words, and every prefix of it from
/// ``minPrefixLength`` to ``maxPrefixLength`` scalars becomes a token: HMAC-SHA-256 under a key derived from the
/// record key, over the practice and the prefix, cut to 16 hex digits. A query word is a
/// match when its own token is among a patient's tokens, which is exactly "a word begins with
/// it" — the prefix match both stores give every other searched word. Without the record key
/// the tokens say nothing about the numbers or addresses; the same prefix in two practices
/// gives two different tokens.
public struct ContactSearchIndex: Sendable {
    /// Prefixes longer than this are cut: no phone group or email word needs more to be found,
    /// and it bounds an owner's tokens.
    public static let maxPrefixLength = 24

    /// Prefixes shorter than this are not indexed (a word shorter than it is indexed whole):
    /// one or two digits or letters pick out a large part of a practice, and leaving them out
    /// saves two tokens of every word. A contact detail is found from its third character; a
    /// name, record number or microchip from its first, as before.
    public static let minPrefixLength = 3

    /// The derived key's bytes.
    private let keyBytes: [UInt8]
    private let practiceID: PracticeID

    /// The index of `practiceID`'s contact details under `cipher`'s key.
    public init(cipher: RecordCipher, practiceID: PracticeID) {
        self.keyBytes = KeyedHash.authenticationCode(
            of: Data("vetnet contact search index v1".utf8), key: cipher.keyBytes)
        self.practiceID = practiceID
    }

    /// The folded words of `text` (``SearchText/normalize(_:)``, then ``SearchWords/cut(_:maxLength:)``).
    public static func words(_ text: String) -> [String] {
        SearchWords.cut(SearchText.normalize(text))
    }

    /// The token of one folded word or prefix.
    public func token(_ word: String) -> String {
        let cut = String(String.UnicodeScalarView(word.unicodeScalars.prefix(Self.maxPrefixLength)))
        let code = KeyedHash.authenticationCode(of: Data("\(practiceID)\u{0}\(cut)".utf8), key: keyBytes)
        return code.prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// The distinct tokens of an owner's phone numbers and email address, sorted.
    public func tokens(of owner: Owner) -> [String] {
        var texts = owner.phones.map(\.digits) + owner.phones.map(\.number)
        if let email = owner.email { texts.append(email) }
        var tokens = Set<String>()
        for word in texts.flatMap(Self.words) {
            let scalars = Array(word.unicodeScalars.prefix(Self.maxPrefixLength))
            guard !scalars.isEmpty else { continue }
            for length in min(Self.minPrefixLength, scalars.count)...scalars.count {
                tokens.insert(token(String(String.UnicodeScalarView(scalars[0..<length]))))
            }
        }
        return tokens.sorted()
    }
}
