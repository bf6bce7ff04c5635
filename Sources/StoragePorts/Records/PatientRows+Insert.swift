import Foundation
import PatientRecords
import SharedKernel

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
}
