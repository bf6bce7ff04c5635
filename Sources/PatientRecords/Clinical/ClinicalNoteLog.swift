import Foundation
import SharedKernel

/// A patient's clinical notes and their addenda as an append-only log.
///
/// The only operations are appends, each validated; there is no way to replace or remove an
/// entry, which is the rule the storage layer mirrors with insert-only tables.
public struct ClinicalNoteLog: Codable, Hashable, Sendable {
    /// The patient whose notes these are.
    public let patientID: Identifier<Patient>
    /// Notes, oldest first.
    public private(set) var notes: [ClinicalNote]
    /// Addenda of all notes, oldest first.
    public private(set) var addenda: [Addendum]

    /// Creates a log from stored entries (in any order).
    public init(patientID: Identifier<Patient>, notes: [ClinicalNote] = [], addenda: [Addendum] = []) {
        self.patientID = patientID
        self.notes = notes.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        self.addenda = addenda.sorted(by: Addendum.chronological)
    }

    // MARK: - Appending

    /// Appends a validated note; refuses a note of another patient or a duplicate identifier.
    public mutating func append(_ note: ClinicalNote, now: Date) throws(ValidationError) {
        var errors = FieldErrorCollector()
        if note.patientID != patientID { errors.add("patientId", "must be the patient of this record") }
        if notes.contains(where: { $0.id == note.id }) { errors.add("id", "a note with this id is already recorded") }
        try errors.throwIfAny()
        try note.validate(now: now)
        notes.append(note)
        notes.sort { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Appends a validated addendum to a note already in the log.
    public mutating func append(_ addendum: Addendum, now: Date) throws(ValidationError) {
        guard let note = notes.first(where: { $0.id == addendum.noteID }) else {
            throw ValidationError(field: "noteId", message: "no such note in this patient's record")
        }
        if addenda.contains(where: { $0.id == addendum.id }) {
            throw ValidationError(field: "id", message: "an addendum with this id is already recorded")
        }
        try addendum.validate(for: note, now: now)
        addenda.append(addendum)
        addenda.sort(by: Addendum.chronological)
    }

    // MARK: - Reading

    /// The addenda of `noteID`, oldest first.
    public func addenda(of noteID: Identifier<ClinicalNote>) -> [Addendum] {
        addenda.filter { $0.noteID == noteID }
    }

    /// Every note rendered with its addenda, oldest note first, separated by a blank line.
    public func rendered() -> String {
        notes.map { $0.rendered(with: addenda) }.joined(separator: "\n\n")
    }
}
