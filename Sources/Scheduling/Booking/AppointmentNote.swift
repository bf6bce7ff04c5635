import Foundation
import SharedKernel

/// A note on an appointment: who wrote what, when. Notes are added, never edited or removed,
/// so the conversation around an appointment (the owner rang, the patient is nervous, bring
/// the X-rays) reads in order for everyone.
public struct AppointmentNote: Sendable, Hashable, Codable {
    /// Identifier.
    public let id: UUID
    /// The appointment it is about.
    public let appointmentID: Identifier<Appointment>
    /// The staff member who wrote it.
    public let authorID: String?
    /// Their name as shown when it was written.
    public let authorName: String
    /// What they wrote.
    public let text: String
    /// When.
    public let createdAt: Date

    /// The longest note, in characters.
    public static let maximumLength = 2_000

    /// Creates a stored note as it is.
    public init(
        id: UUID, appointmentID: Identifier<Appointment>, authorID: String?, authorName: String, text: String,
        createdAt: Date
    ) {
        self.id = id
        self.appointmentID = appointmentID
        self.authorID = authorID
        self.authorName = authorName
        self.text = text
        self.createdAt = createdAt
    }

    /// A new note of `text` on `appointmentID` by the named author at `now`: refused naming
    /// `text` when it is blank or longer than ``maximumLength``. Surrounding white space is
    /// trimmed; line breaks inside are kept.
    public static func write(
        _ text: String, on appointmentID: Identifier<Appointment>, authorID: String?, authorName: String,
        at now: Date
    ) throws(ValidationError) -> AppointmentNote {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { throw ValidationError(field: "text", message: "must not be blank") }
        if trimmed.count > maximumLength {
            throw ValidationError(field: "text", message: "must be at most \(maximumLength) characters")
        }
        return AppointmentNote(
            id: UUID(), appointmentID: appointmentID, authorID: authorID, authorName: authorName, text: trimmed,
            createdAt: now)
    }

    /// The event of its adding in `practiceID`: identifiers and time only.
    public func addedEvent(practiceID: PracticeID) -> DomainEvent {
        DomainEvent(
            practiceID: practiceID, kind: AppointmentEventKind.noteAdded, occurredAt: createdAt,
            resourceType: .appointment,
            resourceID: appointmentID.description,
            payload: [
                "appointmentID": appointmentID.description, "noteID": UUIDText.lowercase(id),
                "createdAt": Timestamp.string(createdAt),
            ])
    }
}
