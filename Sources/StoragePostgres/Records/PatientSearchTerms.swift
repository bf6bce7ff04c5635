import Foundation
import PatientRecords
import StoragePorts

/// The words of the patient search, cut and folded in Swift for both sides of the match:
/// the rows of `patient_word` and the prefixes of a query.
///
/// Why not `unaccent`, `lower` and the text search parser in SQL: `unaccent` is a trusted
/// extension (PostgreSQL 13+) but only `STABLE`, and `lower`, the parser and regular
/// expression classes follow the database's locale — a `C`-locale database folds only ASCII
/// letters. Results would then depend on how the server was initialised. The embedded store
/// cuts words where FTS5's `unicode61` tokenizer does (at anything not a letter or digit) and
/// folds case and accents; doing the same here with ``SearchText/normalize(_:)`` — the
/// domain's folding, identical on every platform — keeps both stores' results equal whatever
/// the server's locale. A query word is only ever a bound value compared by the primary key
/// of `patient_word`, so nothing a person types can become query syntax.
enum PatientSearchTerms {
    /// A word is cut to this many scalars: a btree entry is limited to about 2.7 kB, and no
    /// name or number is this long, so the cut changes no realistic match.
    static let maxWordLength = 100

    /// At most this many query words count, as in the embedded store.
    static let maxQueryWords = 16

    /// The folded words of `text`: lower-cased, accents removed, cut at every scalar that is
    /// not a letter or a digit (punctuation, spaces, symbols, emoji).
    static func words(_ text: String) -> [String] {
        SearchWords.cut(SearchText.normalize(text), maxLength: maxWordLength)
    }

    /// The mark that begins a contact token in `patient_word`: not a letter or a digit, so no
    /// query word's prefix range ever reaches a token, and a token is only ever matched whole.
    static let tokenMark = "#"

    /// The distinct words of a patient's search document: its name, its owners' names, its
    /// record number with and without the dash, and its microchip, and — as marked tokens of
    /// `contacts`, never as text — its owners' phone numbers and email addresses: what the
    /// embedded store indexes.
    static func words(
        patient: Patient, recordNumber: String, owner: Owner, coOwner: Owner?, contacts: ContactSearchIndex
    ) -> [String] {
        var texts = [patient.name, owner.firstName, owner.lastName]
        if let coOwner { texts += [coOwner.firstName, coOwner.lastName] }
        texts += [recordNumber, recordNumber.replacingOccurrences(of: "-", with: ""), patient.microchip ?? ""]
        let tokens = ([owner] + (coOwner.map { [$0] } ?? [])).flatMap(contacts.tokens(of:)).map { tokenMark + $0 }
        return Array(Set(texts.flatMap(words) + tokens)).sorted()
    }

    /// The marked contact token a query word matches.
    static func queryToken(_ word: String, contacts: ContactSearchIndex) -> String {
        tokenMark + contacts.token(word)
    }

    /// The folded words of a query, each to be matched as a prefix (at most
    /// ``maxQueryWords``); empty when no letter or digit remains.
    static func queryWords(_ text: String) -> [String] {
        Array(words(text).prefix(maxQueryWords))
    }

    /// A string above every word that begins with `prefix` and below every later word, for a range scan: words
    /// hold letters and digits only, so none contains U+10FFFF, the greatest scalar, and in
    /// code point order (`COLLATE "C"`) every word starting with `prefix` sorts below this.
    static func upperBound(ofPrefix prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}
