import SharedKernel

// MARK: - Complaint keywords

/// Matches the free-text complaint against the presentations of the §7 routing table.
///
/// Works on lower-cased ASCII word bytes with a first-letter index: no regular expressions,
/// no Foundation string search, so routing stays in the low microseconds. A keyword is a
/// word prefix (`fractur` matches "fractured"); a leading `=` requires the whole word
/// (`=ear` must not match "early"); a space separates consecutive words (`foreign body`); punctuation is a word break,
/// so "c-section" is "c section".
enum ComplaintKeywords {
    /// One keyword found in the complaint.
    struct Hit {
        let specialty: Specialty
        /// The complaint's own word(s) that matched, for the reason text.
        let word: String
    }

    private struct Keyword {
        let specialty: Specialty
        /// Per word: bytes and whether the whole word must match.
        let words: [(bytes: [UInt8], whole: Bool)]
    }

    private static let table: [(Specialty, [String])] = [
        (
            .emergencyCriticalCare,
            [
                "trauma", "hit by", "=hbc", "dyspn", "breathless", "difficulty breathing", "not breathing", "gasp",
                "chok", "shock", "collaps", "urethral obstruct", "blocked", "toxin", "toxic", "poison", "chocolate",
                "xylitol", "rodenticide", "antifreeze", "raisin", "grapes", "coma", "unconscious", "bleed",
                "haemorrh", "hemorrh", "heatstroke", "heat stroke", "envenom",
            ]
        ),
        (.orthopedics, ["fractur", "broken", "cruciate", "ligament", "luxat", "dysplas", "lame", "limp"]),
        (
            .softTissueSurgery,
            [
                "=gdv", "bloat", "volvulus", "foreign body", "pyometr", "caesar", "cesarean", "c section",
                "wound", "lacerat", "=mass", "=masses", "abscess",
            ]
        ),
        (
            .neurology,
            [
                "seiz", "fitting", "=fit", "=fits", "convuls", "pares", "paralys", "ataxi", "head tilt", "spinal",
                "back pain", "neck pain", "wobbl", "=ivdd",
            ]
        ),
        (.cardiology, ["murmur", "arrhythm", "syncop", "faint", "cough", "effusion", "thrombo", "heart"]),
        (.ophthalmology, ["=eye", "=eyes", "eyelid", "proptos", "ulcer", "glaucom", "blind", "cornea", "squint"]),
        (
            .dermatology,
            ["itch", "prurit", "scratch", "otitis", "=ear", "=ears", "skin", "rash", "alopeci", "hair loss"]
        ),
        (
            .internalMedicine,
            [
                "diabet", "endocrin", "thyroid", "cushing", "addison", "vomit", "diarrh", "liver", "hepat", "jaundic",
                "icter", "kidney", "renal", "anaemi", "anemi", "letharg", "inappet", "anorex", "off food",
                "weight loss", "polyur", "polydips", "drinking more", "unwell", "not right",
            ]
        ),
        (.oncology, ["=mass", "=masses", "tumour", "tumor", "cancer", "=lump", "=lumps", "lymphom", "neoplas"]),
        (.dentistry, ["dental", "tooth", "teeth", "=gum", "=gums", "oral", "mouth"]),
        (.behavior, ["behavio", "aggress", "anxi", "=fear", "fearful", "destructi"]),
        (
            .exotics,
            [
                "rabbit", "bunny", "ferret", "=bird", "parrot", "budgie", "tortoise", "turtle", "lizard", "reptile",
                "=snake",
            ]
        ),
        (
            .theriogenology,
            [
                "dystoc", "whelp", "kittening", "queening", "pregnan", "=breeding", "labour", "labor", "mating",
                "infertil", "reproduct",
            ]
        ),
        (.generalPractice, ["vaccin", "check up", "checkup", "neuter", "spay"]),
    ]

    /// Keywords bucketed by the first byte of their first word (a–z).
    private static let index: [[Keyword]] = {
        var buckets = [[Keyword]](repeating: [], count: 26)
        for (specialty, phrases) in table {
            for phrase in phrases {
                let words = words(of: phrase)
                guard let first = words.first?.bytes.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z")
                else { continue }
                buckets[Int(first - UInt8(ascii: "a"))].append(Keyword(specialty: specialty, words: words))
            }
        }
        return buckets
    }()

    /// Splits a keyword phrase into words; `=` marks a whole-word match.
    private static func words(of phrase: String) -> [(bytes: [UInt8], whole: Bool)] {
        tokens(of: phrase).map { token in
            token.first == UInt8(ascii: "=") ? (Array(token.dropFirst()), true) : (token, false)
        }
    }

    /// Lower-case ASCII letter/digit runs (and `=`, for keyword syntax).
    private static func tokens(of text: String) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        var current: [UInt8] = []
        for var byte in text.utf8 {
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
            let isWordByte =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "=")
            if isWordByte {
                current.append(byte)
            } else if !current.isEmpty {
                tokens.append(current)
                current.removeAll(keepingCapacity: true)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// Every (specialty, keyword) found, at most once per specialty and keyword, in text order.
    static func matches(in complaint: String) -> [Hit] {
        let words = tokens(of: complaint)
        var hits: [Hit] = []
        var seen: [(Specialty, Int)] = []
        for start in words.indices {
            guard let first = words[start].first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else {
                continue
            }
            for (number, keyword) in index[Int(first - UInt8(ascii: "a"))].enumerated()
            where matches(keyword, words, at: start) {
                let key = (keyword.specialty, Int(first) << 16 | number)
                if seen.contains(where: { $0.0 == key.0 && $0.1 == key.1 }) { continue }
                seen.append(key)
                let matched = words[start..<(start + keyword.words.count)].map { String(decoding: $0, as: UTF8.self) }
                hits.append(Hit(specialty: keyword.specialty, word: matched.joined(separator: " ")))
            }
        }
        return hits
    }

    private static func matches(_ keyword: Keyword, _ words: [[UInt8]], at start: Int) -> Bool {
        guard start + keyword.words.count <= words.count else { return false }
        for (offset, part) in keyword.words.enumerated() {
            let word = words[start + offset]
            if part.whole ? word != part.bytes : !word.starts(with: part.bytes) { return false }
        }
        return true
    }
}
