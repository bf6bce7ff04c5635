import Foundation

/// Text normalisation for search, shared by indexing and querying so that both sides fold
/// the same way ("Zoë" finds "Zoe", "ZOE" and "zoë").
///
/// Built on canonical decomposition and Unicode scalar properties rather than locale-aware
/// folding, so the result is identical on every platform and independent of the server's locale.
public enum SearchText {
    /// Lower-cases, removes diacritics, and collapses runs of white space to one space,
    /// trimming the ends: `"  Zoë  Ørsted-Łukasz "` → `"zoe orsted-lukasz"`.
    ///
    /// Letters that carry no combining mark in Unicode but are written with one in everyday
    /// use (ø, ł, đ, ß, æ, œ, þ, ð, ı) are mapped explicitly, since decomposition leaves them
    /// untouched.
    public static func normalize(_ text: String) -> String {
        var output = ""
        output.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        var pendingSpace = false
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !output.isEmpty
                continue
            }
            // Combining marks are what decomposition split the accents into.
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: continue
            default: break
            }
            if pendingSpace {
                output.unicodeScalars.append(" ")
                pendingSpace = false
            }
            for lower in scalar.properties.lowercaseMapping.unicodeScalars {
                if let replacement = foldedLetters[lower] {
                    output.unicodeScalars.append(contentsOf: replacement.unicodeScalars)
                } else {
                    output.unicodeScalars.append(lower)
                }
            }
        }
        return output
    }

    /// The decimal digits of a phone number as ASCII, for indexing and matching:
    /// `"+44 (0)20 7946-0958"` → `"4402079460958"`. Digits of other scripts (Arabic-Indic,
    /// full-width) are converted, because phones paste them from contact cards.
    public static func phoneDigits(_ text: String) -> String {
        var digits = ""
        for scalar in text.unicodeScalars where scalar.properties.numericType == .decimal {
            if let value = scalar.properties.numericValue, (0...9).contains(value) {
                digits.unicodeScalars.append(Unicode.Scalar(UInt8(48 + Int(value))))
            }
        }
        return digits
    }

    /// Lower-case letters without a canonical decomposition, mapped to their base letters.
    private static let foldedLetters: [Unicode.Scalar: String] = [
        "ø": "o", "ł": "l", "đ": "d", "ð": "d", "ħ": "h", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th", "ı": "i",
    ]
}
