import Foundation
import PatientRecords
import SharedKernel

/// The rows that store a patient, new or changed, as both stores write them (a store adds its
/// own search index beside them).
extension PatientRows {
    /// A patient's row under `recordNumber`, registered `now`: archived at `archivedAt` when
    /// a restore carries the date, or now when the patient is registered archived.
    public static func insert(
        _ patient: Patient, recordNumber: String, practiceID: PracticeID, archivedAt: Date?, now: Date
    ) throws -> StoredInsert {
        StoredInsert(
            "patient",
            [
                "id": .uuid(patient.id.rawValue), "practice_id": .uuid(practiceID.rawValue),
                "mrn": .text(recordNumber), "name": .text(patient.name), "species": .text(patient.species.rawValue),
                "breed": .text(patient.breed), "sex": .text(patient.sex.rawValue),
                "birth_date": .day(patient.birthDate.map { RecordCalendar.isoDay($0) }),
                "birth_date_estimated": .flag(patient.birthDateEstimated), "colour": .text(patient.colour),
                "microchip": .text(patient.microchip), "status": .text(patient.status.rawValue),
                "alerts": .json(String(decoding: try JSONEncoder().encode(patient.alerts), as: UTF8.self)),
                "owner_id": .uuid(patient.ownerID.rawValue), "co_owner_id": .uuid(patient.coOwnerID?.rawValue),
                "archived_at": .time(archivedAt ?? patient.archivingDate(registeredAt: now)),
                "created_at": .time(now), "updated_at": .time(now),
            ])
    }

    /// The change a ``PatientUpdate`` decided: every field of the patient, the archive date
    /// as its archiving says (kept, stamped or cleared), stamped `now`, the version moved on.
    public static func update(_ update: PatientUpdate, practiceID: PracticeID, now: Date) throws -> StoredUpdate {
        let patient = update.patient.value
        var archivedAt: Date?
        if case .archived(let at) = update.archiving { archivedAt = at }
        let change = StoredUpdate(
            "patient",
            setting: [
                "name": .text(patient.name), "species": .text(patient.species.rawValue), "breed": .text(patient.breed),
                "sex": .text(patient.sex.rawValue),
                "birth_date": .day(patient.birthDate.map { RecordCalendar.isoDay($0) }),
                "birth_date_estimated": .flag(patient.birthDateEstimated), "colour": .text(patient.colour),
                "microchip": .text(patient.microchip), "status": .text(patient.status.rawValue),
                "alerts": .json(String(decoding: try JSONEncoder().encode(patient.alerts), as: UTF8.self)),
                "owner_id": .uuid(patient.ownerID.rawValue), "co_owner_id": .uuid(patient.coOwnerID?.rawValue),
                "archived_at": .time(archivedAt), "updated_at": .time(now),
            ],
            key: ["id": .uuid(patient.id.rawValue), "practice_id": .uuid(practiceID.rawValue)], bumpsVersion: true)
        return update.archiving == .kept ? change.keeping("archived_at") : change
    }
}
