import Foundation

/// A row that does not hold what the schema promises — a file edited outside VetNet, or
/// damaged. Reading it fails this one request with an opaque 500 (logged with the request
/// id) instead of stopping the process for every practice on the machine.
public struct StoreCorruption: Error, CustomStringConvertible {
    /// The column whose value could not be read.
    public let column: String
    /// What was wrong with it.
    public let reason: String

    /// Names the column and what was wrong.
    public init(column: String, reason: String) {
        self.column = column
        self.reason = reason
    }

    public var description: String { "the store holds an unreadable value in column \(column): \(reason)" }

    /// A stored word of the domain's vocabulary as both stores read it back: `value` is what
    /// the domain made of the word in `column`, and `nil` — a word it does not know — is this
    /// error, never a default that would show a patient, a booking or a role as something else.
    public static func known<Value>(_ value: Value?, column: String) throws -> Value {
        guard let value else { throw StoreCorruption(column: column, reason: "not a value VetNet knows") }
        return value
    }

    /// A JSON column as both stores read it back: text that does not decode to `type` is this
    /// error naming the column, never a default or a silently dropped row (an allergy alert
    /// read as none, an appointment type missing from the book).
    public static func decoded<Value: Decodable>(_ type: Value.Type, from text: String, column: String) throws
        -> Value
    {
        do { return try JSONDecoder().decode(type, from: Data(text.utf8)) } catch {
            throw StoreCorruption(column: column, reason: "not a stored \(Value.self)")
        }
    }
}
