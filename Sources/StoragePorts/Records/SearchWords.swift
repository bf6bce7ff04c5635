import Foundation

/// Where the patient search cuts text into words, on both stores and for the contact tokens:
/// at every scalar that is not a letter or a digit (punctuation, spaces, symbols, emoji), as
/// SQLite's `unicode61` tokenizer cuts it.
public enum SearchWords {
    /// The words of `text`, each cut to its first `maxLength` scalars. Scalar by scalar, not
    /// character by character: a quote with a combining mark on it is one character that holds
    /// a letter, and must not carry the quote into a word.
    public static func cut(_ text: String, maxLength: Int = .max) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var length = 0
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if length < maxLength { word.append(scalar) }
                length += 1
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
                length = 0
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }
}
