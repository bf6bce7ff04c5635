import Foundation
import PatientRecords
import SharedKernel
import StorageSupport

/// The rows that store record entries, as both stores write them: the columns, and which
/// text is sealed (field by field with the practice's ``FieldSeal``; a note's and an
/// addendum's whole text with ``SealedClinicalText``). ``RecordRows`` reads them back.
extension RecordRows {
    /// The row that stores `entry` for `patientID` in `practiceID`, entered as `stamp` says.
    public static func insert(
        _ entry: RecordEntry, patientID: Identifier<Patient>, practiceID: PracticeID, stamp: EntryStamp,
        cipher: RecordCipher
    ) throws -> StoredInsert {
        let seal = FieldSeal(cipher: cipher, practiceID: practiceID)
        switch entry {
        case .weight(let weight):
            return StoredInsert(
                "weight",
                [
                    "id": .uuid(weight.id.rawValue), "practice_id": .uuid(practiceID.rawValue),
                    "patient_id": .uuid(patientID.rawValue), "value": .text("\(weight.value)"),
                    "unit": .text(weight.unit.rawValue), "grams": .integer(Int64(weight.roundedGrams)),
                    "measured_at": .instant(weight.measuredAt), "recorded_by": .text(stamp.by),
                    "created_at": .instant(stamp.at),
                ])
        case .problem(let problem): return try insert(problem, seal: seal, createdAt: stamp.at)
        case .allergy(let allergy): return try insert(allergy, seal: seal, createdAt: stamp.at)
        case .medication(let medication):
            return try insert(medication, seal: seal, prescribedBy: stamp.by, createdAt: stamp.at)
        case .vaccination(let vaccination): return try insert(vaccination, seal: seal, createdAt: stamp.at)
        case .note(let note):
            return StoredInsert(
                "clinical_note",
                [
                    "id": .uuid(note.id.rawValue), "practice_id": .uuid(practiceID.rawValue),
                    "patient_id": .uuid(patientID.rawValue), "author_id": .uuid(note.author.id.rawValue),
                    "author_name": .text(note.author.displayName), "created_at": .instant(note.createdAt),
                    "sealed_text": .bytes(try SealedClinicalText.seal(note, practiceID: practiceID, cipher: cipher)),
                ])
        case .addendum(let addendum):
            let sealed = try SealedClinicalText.seal(addendum, practiceID: practiceID, cipher: cipher)
            return StoredInsert(
                "note_addendum",
                [
                    "id": .uuid(addendum.id.rawValue), "practice_id": .uuid(practiceID.rawValue),
                    "note_id": .uuid(addendum.noteID.rawValue), "patient_id": .uuid(patientID.rawValue),
                    "author_id": .uuid(addendum.author.id.rawValue),
                    "author_name": .text(addendum.author.displayName), "created_at": .instant(addendum.createdAt),
                    "sealed_text": .bytes(sealed),
                ])
        }
    }

    /// A problem's row (an entry, or a visit's diagnosis added to the problem list), its name
    /// sealed.
    public static func insert(_ problem: Problem, seal: FieldSeal, createdAt: Date) throws -> StoredInsert {
        StoredInsert(
            "problem",
            [
                "id": .uuid(problem.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(problem.patientID.rawValue),
                "name": .text(try seal.seal(problem.name, .problemName, id: problem.id.description)),
                "status": .text(problem.status.rawValue), "onset_date": .day(problem.onsetDate.map(day)),
                "resolved_date": .day(problem.resolvedDate.map(day)), "created_at": .instant(createdAt),
            ])
    }

    /// An allergy's row, its substance and reaction sealed.
    public static func insert(_ allergy: Allergy, seal: FieldSeal, createdAt: Date) throws -> StoredInsert {
        let id = allergy.id.description
        return StoredInsert(
            "allergy",
            [
                "id": .uuid(allergy.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(allergy.patientID.rawValue),
                "substance": .text(try seal.seal(allergy.substance, .allergySubstance, id: id)),
                "reaction": .text(try seal.sealIfPresent(allergy.reaction, .allergyReaction, id: id)),
                "severity": .text(allergy.severity.rawValue), "created_at": .instant(createdAt),
            ])
    }

    /// A vaccination's row, its vaccine and batch sealed.
    public static func insert(_ vaccination: Vaccination, seal: FieldSeal, createdAt: Date) throws -> StoredInsert {
        let id = vaccination.id.description
        return StoredInsert(
            "vaccination",
            [
                "id": .uuid(vaccination.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(vaccination.patientID.rawValue),
                "vaccine": .text(try seal.seal(vaccination.vaccine, .vaccinationVaccine, id: id)),
                "administered_date": .day(day(vaccination.administeredDate)),
                "batch": .text(try seal.sealIfPresent(vaccination.batchNumber, .vaccinationBatch, id: id)),
                "next_due_date": .day(vaccination.nextDueDate.map(day)), "created_at": .instant(createdAt),
            ])
    }

    /// A medication's row (an entry, or a visit's prescription), its drug, strength, dose and
    /// frequency sealed.
    public static func insert(_ medication: Medication, seal: FieldSeal, prescribedBy: String?, createdAt: Date)
        throws -> StoredInsert
    {
        let id = medication.id.description
        return StoredInsert(
            "medication",
            [
                "id": .uuid(medication.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(medication.patientID.rawValue),
                "drug": .text(try seal.seal(medication.drug, .medicationDrug, id: id)),
                "concentration_mg_per_ml": .text(
                    try seal.seal("\(medication.concentrationMgPerML)", .medicationConcentration, id: id)),
                "dose_mg_per_kg": .text(try seal.seal("\(medication.doseMgPerKg)", .medicationDose, id: id)),
                "route": .text(medication.route.rawValue),
                "frequency": .text(try seal.seal(medication.frequency, .medicationFrequency, id: id)),
                "start_date": .day(day(medication.startDate)), "end_date": .day(medication.endDate.map(day)),
                "prescribed_by": .text(prescribedBy), "created_at": .instant(createdAt),
            ])
    }

    /// A visit's row: its whole record sealed as one JSON value, its recall's due day kept
    /// apart for the recall list.
    public static func insert(_ visit: Visit, seal: FieldSeal, recordedBy: String?, createdAt: Date) throws
        -> StoredInsert
    {
        StoredInsert(
            "visit",
            [
                "id": .uuid(visit.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(visit.patientID.rawValue), "appointment_id": .uuid(visit.appointmentID),
                "clinician_id": .uuid(visit.clinicianID), "occurred_at": .instant(visit.occurredAt),
                "record": .text(try seal.seal(json: visit, .visitRecord, id: visit.id.description)),
                "follow_up_date": .day(visit.recall.map { day($0.dueDate) }), "recorded_by": .text(recordedBy),
                "created_at": .instant(createdAt),
            ])
    }

    /// A correction's row: what it changes sealed as one JSON value.
    public static func insert(_ correction: RecordCorrection, seal: FieldSeal) throws -> StoredInsert {
        let id = UUIDText.lowercase(correction.id)
        let change = String(decoding: try correction.storedJSON(), as: UTF8.self)
        return StoredInsert(
            "record_correction",
            [
                "id": .uuid(correction.id), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(correction.patientID.rawValue), "entry_kind": .text(correction.entryKind.rawValue),
                "entry_id": .uuid(correction.entryID),
                "change_json": .text(try seal.seal(change, .correctionChange, id: id)),
                "recorded_by": .text(correction.recordedBy), "recorded_at_ms": .milliseconds(correction.recordedAt),
            ])
    }

    /// A document's row (its content is kept apart, sealed), uploaded by `uploadedBy` (`nil`
    /// for a restored one).
    public static func insert(_ document: DocumentInfo, practiceID: PracticeID, uploadedBy: String?) -> StoredInsert {
        StoredInsert(
            "document",
            [
                "id": .uuid(document.id), "practice_id": .uuid(practiceID.rawValue),
                "patient_id": .uuid(document.patientID.rawValue), "file_name": .text(document.fileName),
                "content_type": .text(document.contentType), "byte_count": .integer(Int64(document.byteCount)),
                "sha256": .text(document.sha256), "uploaded_by": .text(uploadedBy),
                "created_at": .instant(document.createdAt),
            ])
    }

    private static func day(_ date: Date) -> String { RecordCalendar.isoDay(date) }
}
