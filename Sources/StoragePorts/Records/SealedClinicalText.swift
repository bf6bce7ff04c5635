import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StorageSupport

/// Clinical text at rest, in one format for both stores, so a practice moved between them
/// opens its notes and addenda: a note is the JSON of its four SOAP sections, an addendum its
/// UTF-8 text, each sealed under the record key with `<practice>/note/<id>` or
/// `<practice>/addendum/<id>` as its context (a sealed text copied onto another row does not
/// open).
public enum SealedClinicalText {
    /// A note's sections as sealed.
    public struct NoteSections: Codable, Sendable, Equatable {
        public let subjective, objective, assessment, plan: String
    }

    /// The sealed form of `note`'s text in `practiceID`.
    public static func seal(_ note: ClinicalNote, practiceID: PracticeID, cipher: RecordCipher) throws -> Data {
        let sections = NoteSections(
            subjective: note.subjective, objective: note.objective, assessment: note.assessment, plan: note.plan)
        return try cipher.seal(try JSONEncoder().encode(sections), context: "\(practiceID)/note/\(note.id)")
    }

    /// A note's sections from their sealed form (`noteID` as the row stores it). Throws when the
    /// text does not open under this key and context, or is not the sections sealed here.
    public static func openNote(_ sealed: Data, noteID: String, practiceID: PracticeID, cipher: RecordCipher) throws
        -> NoteSections
    {
        try JSONDecoder().decode(
            NoteSections.self, from: try cipher.open(sealed, context: "\(practiceID)/note/\(noteID)"))
    }

    /// The sealed form of `addendum`'s text in `practiceID`.
    public static func seal(_ addendum: Addendum, practiceID: PracticeID, cipher: RecordCipher) throws -> Data {
        try cipher.seal(Data(addendum.text.utf8), context: "\(practiceID)/addendum/\(addendum.id)")
    }

    /// An addendum's text from its sealed form (`addendumID` as the row stores it).
    public static func openAddendum(_ sealed: Data, addendumID: String, practiceID: PracticeID, cipher: RecordCipher)
        throws -> String
    {
        String(decoding: try cipher.open(sealed, context: "\(practiceID)/addendum/\(addendumID)"), as: UTF8.self)
    }

    /// The sealed form of an appointment note's text in `practiceID`.
    public static func seal(_ note: AppointmentNote, practiceID: PracticeID, cipher: RecordCipher) throws -> Data {
        try cipher.seal(Data(note.text.utf8), context: "\(practiceID)/appointment-note/\(UUIDText.lowercase(note.id))")
    }

    /// An appointment note's text from its sealed form (`noteID` as the row stores it).
    public static func openAppointmentNote(_ sealed: Data, noteID: String, practiceID: PracticeID, cipher: RecordCipher)
        throws -> String
    {
        String(
            decoding: try cipher.open(sealed, context: "\(practiceID)/appointment-note/\(noteID.lowercased())"),
            as: UTF8.self)
    }
}
