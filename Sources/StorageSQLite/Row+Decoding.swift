import Foundation
import GRDB
import SharedKernel

/// A row that does not hold what the schema promises — a file edited outside VetNet, or
/// damaged. Reading it fails this one request with an opaque 500 (logged with the request
/// id) instead of stopping the process for every practice on the machine.
public struct StoreCorruption: Error, CustomStringConvertible {
    /// The column whose value could not be read.
    public let column: String
    /// What was wrong with it.
    public let reason: String

    public var description: String { "the store holds an unreadable value in column \(column): \(reason)" }
}

extension Row {
    /// The UUID in `column`.
    func uuid(_ column: String) throws -> UUID {
        guard let text: String = self[column] else { throw StoreCorruption(column: column, reason: "missing identifier") }
        guard let uuid = UUIDText.parse(text) else { throw StoreCorruption(column: column, reason: "not a UUID") }
        return uuid
    }

    /// The typed identifier in `column`.
    func identifier<Entity>(_ column: String) throws -> Identifier<Entity> {
        Identifier(try uuid(column))
    }

    /// The typed identifier in `column`, or `nil` when the column is NULL.
    func optionalIdentifier<Entity>(_ column: String) throws -> Identifier<Entity>? {
        guard (self[column] as String?) != nil else { return nil }
        return try identifier(column)
    }
}
