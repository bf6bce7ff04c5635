import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import Triage

/// The audit entries both stores write about one resource, each said once: which kind of
/// resource an entry names and how (an id in canonical lower case), and the detail it carries.
/// Two stores writing the same event write the same entry, so a practice's trail reads the
/// same on either, and after a move from one to the other.
extension AuditRecord {
    /// `action` on the patient `id`: a read of the patient, its record, its documents or its
    /// triage history, or an entry added to its record.
    public static func patient(_ action: AuditAction, _ id: UUID, detail: String? = nil) -> AuditRecord {
        AuditRecord(action: action, resourceType: .patient, resourceID: UUIDText.lowercase(id), detail: detail)
    }

    /// `action` on the owner `id`.
    public static func owner(_ action: AuditAction, _ id: Identifier<Owner>) -> AuditRecord {
        AuditRecord(action: action, resourceType: .owner, resourceID: id.description)
    }

    /// `action` on the staff account `id`.
    public static func user(_ action: AuditAction, _ id: UserID, detail: String? = nil) -> AuditRecord {
        AuditRecord(action: action, resourceType: .user, resourceID: id.description, detail: detail)
    }

    /// `action` on the clinician `id` (their availability, their calendar feeds).
    public static func clinician(_ action: AuditAction, _ id: Identifier<Clinician>) -> AuditRecord {
        AuditRecord(action: action, resourceType: .clinician, resourceID: id.description)
    }

    /// `action` on the room `id`.
    public static func room(_ action: AuditAction, _ id: Identifier<Room>, detail: String? = nil) -> AuditRecord {
        AuditRecord(action: action, resourceType: .room, resourceID: id.description, detail: detail)
    }

    /// `action` on the appointment type `id`.
    public static func appointmentType(_ action: AuditAction, _ id: Identifier<AppointmentType>) -> AuditRecord {
        AuditRecord(action: action, resourceType: .appointmentType, resourceID: id.description)
    }

    /// `action` on the shared device `id`, or on the practice's devices as a whole.
    public static func sharedDevice(_ action: AuditAction, _ id: UUID? = nil) -> AuditRecord {
        AuditRecord(action: action, resourceType: .sharedDevice, resourceID: id.map(UUIDText.lowercase))
    }

    /// `action` on the document `id`.
    public static func document(_ action: AuditAction, _ id: UUID) -> AuditRecord {
        AuditRecord(action: action, resourceType: .document, resourceID: UUIDText.lowercase(id))
    }

    /// `action` on the practice `id`.
    public static func practice(_ action: AuditAction, _ id: PracticeID) -> AuditRecord {
        AuditRecord(action: action, resourceType: .practice, resourceID: id.description)
    }

    /// A search of the practice's patients, which found `results` (the words searched are
    /// never kept: they may be a name or a phone number).
    public static func patientSearch(results: Int) -> AuditRecord {
        AuditRecord(action: .patientSearch, resourceType: .patient, detail: "results=\(results)")
    }

    /// A page of `patientID`'s appointments listed, `results` long.
    public static func patientAppointmentsRead(_ patientID: UUID, results: Int) -> AuditRecord {
        patient(.patientAppointmentsRead, patientID, detail: "results=\(results)")
    }

    /// The patient moved on the ER board to `status`.
    public static func triageQueueMoved(_ patientID: UUID, to status: QueueStatus) -> AuditRecord {
        patient(.triageQueueMove, patientID, detail: "status=\(status.rawValue)")
    }

    /// The passkey `id` removed from `userID`'s account.
    public static func passkeyRemoved(_ id: UUID, from userID: UserID) -> AuditRecord {
        user(.authPasskeyRemove, userID, detail: "passkey=\(UUIDText.lowercase(id))")
    }

    /// The room `id`'s details changed to `room`'s; one taken out of service says so.
    public static func roomUpdated(_ id: Identifier<Room>, to room: Room) -> AuditRecord {
        self.room(.roomUpdate, id, detail: room.isActive ? nil : "out_of_service")
    }

    /// A note added to an appointment (the note's text is never in the trail).
    public static func appointmentNoteAdded(_ note: AppointmentNote) -> AuditRecord {
        AuditRecord(
            action: .appointmentNoteAdd, resourceType: .appointment, resourceID: note.appointmentID.description,
            detail: "note=\(UUIDText.lowercase(note.id))")
    }
}
