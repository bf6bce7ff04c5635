import Foundation
import Scheduling
import SharedKernel
import Specialists
import StorageSupport

/// The rows beside the schedule — a room, an appointment type, an appointment's note, the
/// clinicians an intake ranked, a calendar feed — as both stores write them.
extension AppointmentRows {
    /// A room's row (creation and restore).
    public static func insert(_ room: Room, practiceID: PracticeID) -> StoredInsert {
        StoredInsert(
            "room",
            [
                "id": .uuid(room.id.rawValue), "practice_id": .uuid(practiceID.rawValue), "name": .text(room.name),
                "type": .text(room.type.rawValue), "active": .flag(room.isActive),
            ])
    }

    /// An appointment type's row, its definition as JSON (creation and restore).
    public static func insert(_ type: AppointmentType, practiceID: PracticeID) throws -> StoredInsert {
        StoredInsert(
            "appointment_type",
            [
                "id": .uuid(type.id.rawValue), "practice_id": .uuid(practiceID.rawValue), "name": .text(type.name),
                "definition": .json(String(decoding: try JSONEncoder().encode(type), as: UTF8.self)),
            ])
    }

    /// A clinician's weekly availability at `version`, as JSON (replacing the one before).
    public static func insert(_ availability: ClinicianAvailability, version: Int, practiceID: PracticeID) throws
        -> StoredInsert
    {
        StoredInsert(
            "clinician_availability",
            [
                "clinician_id": .uuid(availability.clinicianID.rawValue), "practice_id": .uuid(practiceID.rawValue),
                "availability": .json(String(decoding: try JSONEncoder().encode(availability), as: UTF8.self)),
                "version": .integer(Int64(version)),
            ]
        ).upserting(on: ["clinician_id"], replacing: ["availability", "version"])
    }

    /// A note's row about `patientID`'s appointment, its text sealed (adding and restoring).
    public static func insert(
        _ note: AppointmentNote, patientID: UUID, practiceID: PracticeID, cipher: RecordCipher
    ) throws -> StoredInsert {
        StoredInsert(
            "appointment_note",
            [
                "id": .uuid(note.id), "practice_id": .uuid(practiceID.rawValue),
                "appointment_id": .uuid(note.appointmentID.rawValue), "patient_id": .uuid(patientID),
                "author_id": .text(note.authorID), "author_name": .text(note.authorName),
                "created_at_ms": .milliseconds(note.createdAt),
                "sealed_text": .bytes(try SealedClinicalText.seal(note, practiceID: practiceID, cipher: cipher)),
            ])
    }

    /// The clinicians an intake ranked for assessment `assessmentID` (the row shares its id),
    /// kept so that a booking made from it records what it was booked on.
    public static func insert(
        _ ranking: IntakeRanking, assessmentID: UUID, patientID: UUID, practiceID: PracticeID, createdAt: Date
    ) throws -> StoredInsert {
        StoredInsert(
            "intake_ranking",
            [
                "id": .uuid(assessmentID), "practice_id": .uuid(practiceID.rawValue), "patient_id": .uuid(patientID),
                "appointment_type_id": .uuid(ranking.appointmentTypeID?.rawValue),
                "ranking": .json(String(decoding: try JSONEncoder().encode(ranking.ranked), as: UTF8.self)),
                "created_at": .time(createdAt),
            ])
    }

    /// A calendar feed's row for a clinician, by the SHA-256 of its token.
    public static func calendarFeed(
        tokenHash: String, clinicianID: Identifier<Clinician>, practiceID: PracticeID, createdAt: Date
    ) -> StoredInsert {
        StoredInsert(
            "calendar_feed",
            [
                "token_hash": .text(tokenHash), "practice_id": .uuid(practiceID.rawValue),
                "clinician_id": .uuid(clinicianID.rawValue), "created_at": .time(createdAt),
            ])
    }
}
