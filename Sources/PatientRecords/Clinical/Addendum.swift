import Foundation
import SharedKernel

/// A dated correction or addition to a ``ClinicalNote``. Like the note, it is immutable; a
/// mistake in an addendum is corrected by a further addendum.
public struct Addendum: Codable, Hashable, Sendable {
    /// Identifier.
    public let id: Identifier<Addendum>
    /// The note it amends.
    public let noteID: Identifier<ClinicalNote>
    /// Who wrote it.
    public let author: NoteAuthor
    /// When it was written.
    public let createdAt: Date
    /// The correction, in the author's words.
    public let text: String

    /// Creates an addendum; ``ClinicalNote/addendum(id:text:author:createdAt:now:)`` also validates it.
    public init(
        id: Identifier<Addendum> = .init(), noteID: Identifier<ClinicalNote>, author: NoteAuthor, createdAt: Date,
        text: String
    ) {
        self.id = id
        self.noteID = noteID
        self.author = author
        self.createdAt = createdAt
        self.text = text
    }

    // MARK: - Validation

    /// Refuses empty text, a missing author name, a time in the future, an addendum to another
    /// note, and one dated before the note it amends (history cannot be rewritten backwards).
    public func validate(for note: ClinicalNote, now: Date) throws(ValidationError) {
        var errors = FieldErrorCollector()
        RecordDateRules.notBlank(text, field: "text", into: &errors)
        RecordDateRules.notBlank(author.displayName, field: "author.displayName", into: &errors)
        if noteID != note.id { errors.add("noteId", "must refer to the note being amended") }
        RecordDateRules.notInFuture(createdAt, field: "createdAt", now: now, into: &errors)
        if createdAt < note.createdAt { errors.add("createdAt", "must not be before the note it amends") }
        try errors.throwIfAny()
    }

    /// Oldest first; identifier breaks ties so the order is stable across stores.
    public static func chronological(_ lhs: Addendum, _ rhs: Addendum) -> Bool {
        if lhs.createdAt != rhs.createdAt { return lhs.createdAt < rhs.createdAt }
        return lhs.id < rhs.id
    }
}
