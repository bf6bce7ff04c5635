import Foundation
import GRDB
import SharedKernel
import StoragePorts

extension Row {
    /// The UUID in `column`.
    func uuid(_ column: String) throws -> UUID {
        guard let text: String = self[column] else {
            throw StoreCorruption(column: column, reason: "missing identifier")
        }
        guard let uuid = UUIDText.parse(text) else { throw StoreCorruption(column: column, reason: "not a UUID") }
        return uuid
    }

    /// The typed identifier in `column`.
    func identifier<Entity>(_ column: String) throws -> Identifier<Entity> {
        Identifier(try uuid(column))
    }

    /// The instant stored as text in `column` (`table.column` names it in the error): an
    /// unreadable time fails the read naming it, never reads as the year 1.
    func instant(_ column: String, table: String) throws -> Date {
        guard let text: String = self[column], let date = Timestamp.date(text) else {
            throw StoreCorruption(column: "\(table).\(column)", reason: "not a time")
        }
        return date
    }
}
