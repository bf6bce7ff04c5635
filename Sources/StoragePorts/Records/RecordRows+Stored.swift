import Foundation
import PatientRecords
import SharedKernel
import StorageSupport

/// The record entries read from their rows, as both stores read them: each column named once
/// here, a NULL where the schema promises a value refused naming `table.column`. A store's
/// select list gives these names (PostgreSQL aliases its millisecond times and formats its
/// days as `YYYY-MM-DD`, as the embedded store keeps them).
extension RecordRows {
    /// A weight measurement from its row: `id`, `value`, `unit`, `measured_at`.
    public static func weight(from row: some StoredRow, patientID: Identifier<Patient>) throws -> WeightMeasurement {
        let columns = StoredColumns(row, table: "weight")
        return try weight(
            id: try columns.uuid("id"), patientID: patientID, value: try columns.text("value"),
            unit: try columns.text("unit"), measuredAt: try columns.instant("measured_at"))
    }

    /// A problem from its row: `id`, `name` (sealed), `status`, `onset_date`, `resolved_date`.
    public static func problem(from row: some StoredRow, patientID: Identifier<Patient>, seal: FieldSeal) throws
        -> Problem
    {
        let columns = StoredColumns(row, table: "problem")
        return try problem(
            id: try columns.uuid("id"), patientID: patientID, name: try columns.text("name"),
            status: try columns.text("status"), onset: try columns.optionalText("onset_date"),
            resolved: try columns.optionalText("resolved_date"), seal: seal)
    }

    /// An allergy from its row: `id`, `substance` and `reaction` (sealed), `severity`.
    public static func allergy(from row: some StoredRow, patientID: Identifier<Patient>, seal: FieldSeal) throws
        -> Allergy
    {
        let columns = StoredColumns(row, table: "allergy")
        return try allergy(
            id: try columns.uuid("id"), patientID: patientID, substance: try columns.text("substance"),
            reaction: try columns.optionalText("reaction"), severity: try columns.text("severity"), seal: seal)
    }

    /// A medication from its row: `id`, `drug`, `concentration_mg_per_ml`, `dose_mg_per_kg` and
    /// `frequency` (sealed), `route`, `start_date`, `end_date`.
    public static func medication(from row: some StoredRow, patientID: Identifier<Patient>, seal: FieldSeal) throws
        -> Medication
    {
        let columns = StoredColumns(row, table: "medication")
        return try medication(
            id: try columns.uuid("id"), patientID: patientID,
            MedicationColumns(
                drug: try columns.text("drug"), concentration: try columns.text("concentration_mg_per_ml"),
                dose: try columns.text("dose_mg_per_kg"), route: try columns.text("route"),
                frequency: try columns.text("frequency"), start: try columns.optionalText("start_date"),
                end: try columns.optionalText("end_date")),
            seal: seal)
    }

    /// A vaccination from its row: `id`, `patient_id`, `vaccine` and `batch` (sealed),
    /// `administered_date`, `next_due_date`.
    public static func vaccination(from row: some StoredRow, seal: FieldSeal) throws -> Vaccination {
        let columns = StoredColumns(row, table: "vaccination")
        return try vaccination(
            id: try columns.uuid("id"), patientID: try columns.uuid("patient_id"), vaccine: try columns.text("vaccine"),
            administered: try columns.optionalText("administered_date"), batch: try columns.optionalText("batch"),
            nextDue: try columns.optionalText("next_due_date"), seal: seal)
    }

    /// An addendum from its row: `id`, `note_id`, `author_id`, `author_name`, `created_at`,
    /// `sealed_text` (sealed under the record key of `practiceID`).
    public static func addendum(from row: some StoredRow, practiceID: PracticeID, cipher: RecordCipher) throws
        -> Addendum
    {
        let columns = StoredColumns(row, table: "note_addendum")
        return try addendum(
            id: try columns.uuid("id"), noteID: try columns.uuid("note_id"),
            author: NoteAuthor(id: UserID(try columns.uuid("author_id")), displayName: try columns.text("author_name")),
            createdAt: try columns.instant("created_at"), sealedText: try columns.bytes("sealed_text"),
            practiceID: practiceID, cipher: cipher)
    }

    /// A clinical note from its row: `id`, `patient_id`, `author_id`, `author_name`,
    /// `created_at`, `sealed_text` (its sections, sealed under the record key of `practiceID`).
    /// Text that does not open as this note's sections is refused naming the column.
    public static func note(from row: some StoredRow, practiceID: PracticeID, cipher: RecordCipher) throws
        -> ClinicalNote
    {
        let columns = StoredColumns(row, table: "clinical_note")
        let id = try columns.uuid("id")
        let sealed = try columns.bytes("sealed_text")
        guard
            let text = try? SealedClinicalText.openNote(
                sealed, noteID: UUIDText.lowercase(id), practiceID: practiceID, cipher: cipher)
        else {
            throw StoreCorruption(
                column: columns.name("sealed_text"),
                reason: """
                    does not open with the installation's record key as this note's, or is not the note sections \
                    the store seals
                    """)
        }
        return ClinicalNote(
            id: Identifier(id), patientID: Identifier(try columns.uuid("patient_id")),
            author: NoteAuthor(id: UserID(try columns.uuid("author_id")), displayName: try columns.text("author_name")),
            createdAt: try columns.instant("created_at"), subjective: text.subjective, objective: text.objective,
            assessment: text.assessment, plan: text.plan)
    }
}
