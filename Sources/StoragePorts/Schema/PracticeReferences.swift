import Foundation

/// A reference a stored row makes to another record of the same practice, checked by each
/// store's schema (the database itself, whichever code writes): a booking names a patient, a
/// clinician, an appointment type and a room of its own practice, or it is refused with the
/// same 404 on both stores.
///
/// Both adapters build their checks (PostgreSQL composite foreign keys, SQLite triggers) and
/// read their refusals from this one list, so they cannot drift apart. The list is what the
/// 2026-11-27 migrations of both stores created: a new reference is a new migration.
public struct PracticeReference: Sendable, Equatable {
    /// The referring table and column.
    public let table: String
    public let column: String
    /// The table referred to (its `id`, in the same practice).
    public let target: String
    /// What a refusal names: "patient" → 404 "patient not found".
    public let resource: String

    /// The name of the check in both schemas (constraint or trigger).
    public var name: String { "\(table)_\(column)_in_practice" }

    /// Every checked reference.
    public static let all: [PracticeReference] = [
        PracticeReference(table: "appointment", column: "patient_id", target: "patient", resource: "patient"),
        PracticeReference(table: "appointment", column: "clinician_id", target: "clinician", resource: "clinician"),
        PracticeReference(
            table: "appointment", column: "appointment_type_id", target: "appointment_type",
            resource: "appointment type"),
        PracticeReference(table: "appointment", column: "room_id", target: "room", resource: "room"),
        PracticeReference(table: "visit", column: "appointment_id", target: "appointment", resource: "appointment"),
        PracticeReference(table: "visit", column: "clinician_id", target: "clinician", resource: "clinician"),
    ]

    /// The reference whose check is called `name`, if it is one of these.
    public static func named(_ name: String?) -> PracticeReference? {
        guard let name else { return nil }
        return all.first { name == $0.name || name.hasSuffix("reference: " + $0.name) }
    }

    /// The message a SQLite trigger raises for this reference (read back by ``named(_:)``).
    public var refusalMessage: String { "reference: " + name }
}
