import Foundation
import GRDB
import SharedKernel
import StoragePorts

// MARK: - Constraint refusals

extension VetNetStore {
    /// Runs `updates` in a write transaction. A refusal by the schema that input can provoke —
    /// a UNIQUE, NOT NULL, CHECK or FOREIGN KEY constraint — comes back as an error naming the
    /// field instead of an unexplained failure; the transaction has rolled back, so nothing
    /// changed. Refusals a caller recognises itself (booking overlaps) are caught by that caller
    /// inside its own transaction first.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            let result = try await writer.write(updates)
            await anchorCommitted()
            return result
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            throw ConstraintRefusal.error(for: error)
        }
    }
}

/// Translates SQLite's constraint messages into field errors.
enum ConstraintRefusal {
    /// The domain error for a constraint failure.
    static func error(for error: DatabaseError) -> any Error {
        let message = error.message ?? ""
        switch error.extendedResultCode {
        case .SQLITE_CONSTRAINT_UNIQUE, .SQLITE_CONSTRAINT_PRIMARYKEY:
            let (table, field) = column(in: message, after: "UNIQUE constraint failed:")
            if let shared = known[table ?? ""]?[field ?? ""] { return shared }
            return UniquenessConflict(
                field: field ?? "body", message: "is already used by another \(table ?? "record") of this practice")
        case .SQLITE_CONSTRAINT_NOTNULL:
            let (_, field) = column(in: message, after: "NOT NULL constraint failed:")
            return ValidationError(field: field ?? "body", message: "is required")
        case .SQLITE_CONSTRAINT_FOREIGNKEY:
            return DomainError.conflict(
                "The change refers to a record that does not exist, or removes one that others still refer to.")
        case .SQLITE_CONSTRAINT_TRIGGER:
            if let reference = PracticeReference.named(message) {
                return DomainError.notFound(resource: reference.resource)
            }
            // Triggers speak for themselves (`RAISE(ABORT, 'clinical notes are append-only')`).
            return DomainError.conflict(
                message.isEmpty
                    ? "The change breaks a rule of the record."
                    : message.prefix(1).uppercased() + message.dropFirst() + ".")
        default:
            return ValidationError(
                field: "body",
                message:
                    """
                    breaks a rule of the record \
                    (\(message.replacingOccurrences(of: "CHECK constraint failed: ", with: "")))
                    """
            )
        }
    }

    /// The refusals both stores give for a value held twice, by table and field as
    /// ``column(in:after:)`` names them: the same words whichever write meets the index.
    static let known: [String: [String: UniquenessConflict]] = [
        "patient": ["microchip": .patientMicrochip], "room": ["name": .roomName],
        "appointment type": ["name": .appointmentTypeName], "staff user": ["email": .accountEmail],
        "practice": ["name": .practiceName],
    ]

    /// The table and the field (camel case, practice column skipped) a message names:
    /// `UNIQUE constraint failed: patient.practice_id, patient.microchip` → (`patient`, `microchip`).
    static func column(in message: String, after prefix: String) -> (table: String?, field: String?) {
        guard let range = message.range(of: prefix) else { return (nil, nil) }
        let columns = message[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let named = columns.filter { !$0.hasSuffix(".practice_id") }.last ?? columns.last
        guard let named else { return (nil, nil) }
        let parts = named.split(separator: ".")
        let table = parts.count == 2 ? String(parts[0]).replacingOccurrences(of: "_", with: " ") : nil
        let snake = String(parts.last ?? "")
        let words = snake.split(separator: "_")
        let field = words.enumerated().map {
            $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
        }.joined()
        return (table, field.isEmpty ? nil : field)
    }
}
