import Foundation
import Scheduling
import SharedKernel

/// A change to an appointment's booking reason and staff notes, decided once for both stores:
/// the version check, what each field becomes, the audit entry and the event. The store reads
/// the appointment (locked) and writes what this names.
public struct AppointmentNotesChange: Sendable {
    /// Whether the reason changes, and to what (`nil` clears it).
    public let setsReason: Bool
    /// The reason to store when ``setsReason``.
    public let reason: String?
    /// Whether the staff notes change, and to what (`nil` clears them).
    public let setsStaffNotes: Bool
    /// The staff notes to store when ``setsStaffNotes``.
    public let staffNotes: String?
    /// Its audit entry, naming the fields changed.
    public let audit: AuditRecord
    /// Its event, naming only identifiers: the reason and notes are read (and audited) through
    /// the appointment.
    public let event: DomainEvent

    /// Decides a change of `current` (not found when `nil`; refused unless `expectedVersion`,
    /// when given, is its version). `nil` leaves a field as it is; an empty text clears it; a
    /// change naming neither field is refused.
    public static func decide(
        reason: String?, staffNotes: String?, current: Versioned<Appointment>?, expectedVersion: Int?,
        scope: AccessScope, now: Date
    ) throws -> AppointmentNotesChange {
        guard let current else { throw DomainError.notFound(resource: "appointment") }
        if let expectedVersion, expectedVersion != current.version {
            throw DomainError.versionMismatch(current: current.version)
        }
        guard reason != nil || staffNotes != nil else {
            throw ValidationError(field: "body", message: "names nothing to change (reason, staffNotes)")
        }
        let id = current.value.id.description
        return AppointmentNotesChange(
            setsReason: reason != nil, reason: reason.flatMap { $0.isEmpty ? nil : $0 },
            setsStaffNotes: staffNotes != nil, staffNotes: staffNotes.flatMap { $0.isEmpty ? nil : $0 },
            audit: AuditRecord(
                action: .appointmentNotesUpdate, resourceType: .appointment, resourceID: id,
                detail: [reason == nil ? nil : "reason", staffNotes == nil ? nil : "staffNotes"].compactMap { $0 }
                    .joined(separator: ",")),
            event: DomainEvent(
                practiceID: scope.practiceID, kind: AppointmentEventKind.notesChanged, occurredAt: now,
                resourceType: .appointment, resourceID: id,
                payload: [
                    "appointmentID": id, "patientID": UUIDText.lowercase(current.value.patientID),
                    "version": String(current.version + 1),
                ]))
    }
}

extension AuditRecord {
    /// An appointment's notes read (`count` of them).
    public static func appointmentNotesRead(_ appointmentID: Identifier<Appointment>, count: Int) -> AuditRecord {
        AuditRecord(
            action: .appointmentNotesRead, resourceType: .appointment, resourceID: appointmentID.description,
            detail: "results=\(count)")
    }
}
