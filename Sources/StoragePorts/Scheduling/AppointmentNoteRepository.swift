import Foundation
import Scheduling
import SharedKernel
import StorageSupport

/// The notes staff add to appointments.
public protocol AppointmentNoteRepository: Sendable {
    /// Adds `note` to its appointment (which must be one of the scope's practice: 404
    /// otherwise), audited and published, in one transaction; its text is sealed at rest. With
    /// an idempotency key, a repeat adds nothing and answers the first note.
    func addAppointmentNote(_ note: AppointmentNote, scope: AccessScope, idempotencyKey: IdempotencyKey?) async throws
        -> AppointmentNote

    /// The appointment's notes, oldest first (audited); 404 for an appointment of another practice.
    func appointmentNotes(scope: AccessScope, appointmentID: Identifier<Appointment>) async throws -> [AppointmentNote]

    /// How many notes each of `appointmentIDs` has (absent: none), for the schedule's markers;
    /// counts only, so not audited as a read of the notes.
    func appointmentNoteCounts(scope: AccessScope, appointmentIDs: [Identifier<Appointment>]) async throws
        -> [Identifier<Appointment>: Int]
}

extension AppointmentRows {
    /// An appointment note from its row: `id`, `appointment_id`, `author_id`, `author_name`,
    /// `created_at_ms`, `sealed_text` (sealed under the record key of `practiceID`); a note
    /// that does not open fails the read.
    public static func note(from row: some StoredRow, practiceID: PracticeID, cipher: RecordCipher) throws
        -> AppointmentNote
    {
        let columns = StoredColumns(row, table: "appointment_note")
        let id = try columns.uuid("id")
        return AppointmentNote(
            id: id, appointmentID: Identifier(try columns.uuid("appointment_id")),
            authorID: try columns.optionalText("author_id"), authorName: try columns.text("author_name"),
            text: try SealedClinicalText.openAppointmentNote(
                try columns.bytes("sealed_text"), noteID: UUIDText.lowercase(id), practiceID: practiceID,
                cipher: cipher),
            createdAt: Timestamp.date(milliseconds: try columns.integer("created_at_ms")))
    }
}
