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
}
