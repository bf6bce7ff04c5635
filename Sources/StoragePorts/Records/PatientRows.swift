import Foundation
import PatientRecords
import SharedKernel

/// Reading a stored patient back, as both stores do.
public enum PatientRows {
    /// The patient in `row` (the columns of the `patient` table, its birth date as
    /// `YYYY-MM-DD` and its alerts as JSON text), and its version.
    public static func patient(from row: some StoredRow) throws -> Versioned<Patient> {
        let columns = StoredColumns(row, table: "patient")
        let patient = Patient(
            id: Identifier(try columns.uuid("id")), medicalRecordNumber: try columns.text("mrn"),
            name: try columns.text("name"), species: try columns.word("species"),
            breed: try columns.optionalText("breed"), sex: try columns.word("sex"),
            birthDate: try columns.optionalDay("birth_date"),
            birthDateEstimated: try columns.bool("birth_date_estimated"), colour: try columns.optionalText("colour"),
            microchip: try columns.optionalText("microchip"), status: try columns.word("status"),
            alerts: try columns.decoded([String].self, from: "alerts"),
            ownerID: Identifier(try columns.uuid("owner_id")),
            coOwnerID: try columns.optionalUUID("co_owner_id").map(Identifier.init))
        return Versioned(patient, version: try columns.int("version"))
    }
}
