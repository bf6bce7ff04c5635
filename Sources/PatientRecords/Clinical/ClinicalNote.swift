import Foundation
import SharedKernel

/// The clinician who wrote a note, captured with the name they had at the time so that the
/// record reads the same after the account is renamed or removed.
public struct NoteAuthor: Codable, Hashable, Sendable {
    /// The staff account.
    public let id: UserID
    /// Name as shown when the note was written.
    public let displayName: String

    /// Creates an author.
    public init(id: UserID, displayName: String) {
        self.id = id
        self.displayName = displayName
    }
}

/// A clinical note in SOAP form.
///
/// Notes are part of the legal medical record and are append-only: every property is a `let`,
/// and a correction is an ``Addendum`` that refers to the note, never an edit.
public struct ClinicalNote: Codable, Hashable, Sendable {
    /// Identifier.
    public let id: Identifier<ClinicalNote>
    /// The patient concerned.
    public let patientID: Identifier<Patient>
    /// Who wrote it.
    public let author: NoteAuthor
    /// When it was written.
    public let createdAt: Date
    /// S — history and the owner's account.
    public let subjective: String
    /// O — examination findings and results.
    public let objective: String
    /// A — the clinician's assessment.
    public let assessment: String
    /// P — the plan.
    public let plan: String

    /// Creates a note.
    public init(
        id: Identifier<ClinicalNote> = .init(), patientID: Identifier<Patient>, author: NoteAuthor, createdAt: Date,
        subjective: String, objective: String, assessment: String, plan: String
    ) {
        self.id = id
        self.patientID = patientID
        self.author = author
        self.createdAt = createdAt
        self.subjective = subjective
        self.objective = objective
        self.assessment = assessment
        self.plan = plan
    }

    // MARK: - Validation

    /// Refuses a note with no content in any SOAP section, without an author name, or dated in
    /// the future. Individual sections may be empty (a quick re-check has no plan).
    public func validate(now: Date) throws(ValidationError) {
        var errors = FieldErrorCollector()
        if [subjective, objective, assessment, plan].allSatisfy({
            $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }) {
            errors.add("subjective", "at least one of subjective, objective, assessment or plan must be written")
        }
        RecordDateRules.notBlank(author.displayName, field: "author.displayName", into: &errors)
        RecordDateRules.notInFuture(createdAt, field: "createdAt", now: now, into: &errors)
        try errors.throwIfAny()
    }

    // MARK: - Corrections

    /// A validated addendum to this note. The note itself is not changed.
    public func addendum(
        id: Identifier<Addendum> = .init(), text: String, author: NoteAuthor, createdAt: Date,
        now: Date
    ) throws(ValidationError) -> Addendum {
        let addendum = Addendum(id: id, noteID: self.id, author: author, createdAt: createdAt, text: text)
        try addendum.validate(for: self, now: now)
        return addendum
    }
}
