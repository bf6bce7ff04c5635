import Foundation
import PatientRecords
import SharedKernel
import StorageSupport

/// How both stores turn a stored record entry's columns into the domain's value, once.
///
/// Each store reads the columns its own way (a time is text in one, milliseconds in the
/// other; a day is `YYYY-MM-DD` in both) and hands them here still sealed. A column the domain
/// cannot hold is a ``StoreCorruption`` naming it — never a default standing in for a dose or a
/// weight, and never a trap.
public enum RecordRows {
    /// A record correction from its sealed change (`id`: the correction's, which the seal is bound to).
    public static func correction(sealed: String, id: String, seal: FieldSeal) throws -> RecordCorrection {
        let text = try seal.open(sealed, .correctionChange, id: id)
        do { return try RecordCorrection(storedJSON: Data(text.utf8)) } catch {
            throw StoreCorruption(column: "record_correction.change_json", reason: "not a record correction")
        }
    }

    /// A weight measurement from its row.
    public static func weight(
        id: UUID, patientID: Identifier<Patient>, value: String, unit: String, measuredAt: Date?
    ) throws -> WeightMeasurement {
        guard let decimal = Decimal(string: value) else {
            throw StoreCorruption(column: "weight.value", reason: "not a decimal")
        }
        return WeightMeasurement(
            id: Identifier(id), patientID: patientID, value: decimal,
            unit: try StoreCorruption.known(WeightUnit(rawValue: unit), column: "weight.unit"),
            measuredAt: try time(measuredAt, "weight.measured_at"))
    }

    /// A problem from its row (`name` sealed).
    public static func problem(
        id: UUID, patientID: Identifier<Patient>, name: String, status: String, onset: String?, resolved: String?,
        seal: FieldSeal
    ) throws -> Problem {
        Problem(
            id: Identifier(id), patientID: patientID, name: try seal.open(name, .problemName, id: id.uuidString),
            status: try StoreCorruption.known(Problem.Status(rawValue: status), column: "problem.status"),
            onsetDate: try day(onset, "problem.onset_date"), resolvedDate: try day(resolved, "problem.resolved_date"))
    }

    /// An allergy from its row (`substance` and `reaction` sealed).
    public static func allergy(
        id: UUID, patientID: Identifier<Patient>, substance: String, reaction: String?, severity: String,
        seal: FieldSeal
    ) throws -> Allergy {
        Allergy(
            id: Identifier(id), patientID: patientID,
            substance: try seal.open(substance, .allergySubstance, id: id.uuidString),
            reaction: try seal.openIfPresent(reaction, .allergyReaction, id: id.uuidString),
            severity: try StoreCorruption.known(Allergy.Severity(rawValue: severity), column: "allergy.severity"))
    }

    /// The sealed and plain columns of a medication's row.
    public struct MedicationColumns: Sendable {
        /// The drug (sealed).
        public var drug: String
        /// The concentration in mg/mL (sealed decimal).
        public var concentration: String
        /// The dose in mg/kg (sealed decimal).
        public var dose: String
        /// The route.
        public var route: String
        /// How often it is given (sealed).
        public var frequency: String
        /// The first day, `YYYY-MM-DD`.
        public var start: String?
        /// The last day, `YYYY-MM-DD`, if it was stopped.
        public var end: String?

        /// The columns as read.
        public init(
            drug: String, concentration: String, dose: String, route: String, frequency: String, start: String?,
            end: String?
        ) {
            (self.drug, self.concentration, self.dose, self.route) = (drug, concentration, dose, route)
            (self.frequency, self.start, self.end) = (frequency, start, end)
        }
    }

    /// A medication from its row.
    public static func medication(
        id: UUID, patientID: Identifier<Patient>, _ columns: MedicationColumns, seal: FieldSeal
    ) throws -> Medication {
        let key = id.uuidString
        guard
            let concentration = Decimal(string: try seal.open(columns.concentration, .medicationConcentration, id: key))
        else { throw StoreCorruption(column: "medication.concentration_mg_per_ml", reason: "not a decimal") }
        guard let dose = Decimal(string: try seal.open(columns.dose, .medicationDose, id: key)) else {
            throw StoreCorruption(column: "medication.dose_mg_per_kg", reason: "not a decimal")
        }
        guard let start = try day(columns.start, "medication.start_date") else {
            throw StoreCorruption(column: "medication.start_date", reason: "is missing")
        }
        return Medication(
            id: Identifier(id), patientID: patientID, drug: try seal.open(columns.drug, .medicationDrug, id: key),
            concentrationMgPerML: concentration, doseMgPerKg: dose,
            route: try StoreCorruption.known(Medication.Route(rawValue: columns.route), column: "medication.route"),
            frequency: try seal.open(columns.frequency, .medicationFrequency, id: key), startDate: start,
            endDate: try day(columns.end, "medication.end_date"))
    }

    /// A vaccination from its row (`vaccine` and `batch` sealed).
    public static func vaccination(
        id: UUID, patientID: UUID, vaccine: String, administered: String?, batch: String?, nextDue: String?,
        seal: FieldSeal
    ) throws -> Vaccination {
        guard let administeredDate = try day(administered, "vaccination.administered_date") else {
            throw StoreCorruption(column: "vaccination.administered_date", reason: "is missing")
        }
        return Vaccination(
            id: Identifier(id), patientID: Identifier(patientID),
            vaccine: try seal.open(vaccine, .vaccinationVaccine, id: id.uuidString), administeredDate: administeredDate,
            batchNumber: try seal.openIfPresent(batch, .vaccinationBatch, id: id.uuidString),
            nextDueDate: try day(nextDue, "vaccination.next_due_date"))
    }

    /// An addendum from its row (its text sealed under the record key).
    public static func addendum(
        id: UUID, noteID: UUID, author: NoteAuthor, createdAt: Date?, sealedText: Data, practiceID: PracticeID,
        cipher: RecordCipher
    ) throws -> Addendum {
        Addendum(
            id: Identifier(id), noteID: Identifier(noteID), author: author,
            createdAt: try time(createdAt, "note_addendum.created_at"),
            text: try SealedClinicalText.openAddendum(
                sealedText, addendumID: UUIDText.lowercase(id), practiceID: practiceID, cipher: cipher))
    }

    private static func time(_ value: Date?, _ column: String) throws -> Date {
        guard let value else { throw StoreCorruption(column: column, reason: "not a time") }
        return value
    }

    /// A day column: absent stays absent; present, it must be a `YYYY-MM-DD` day.
    private static func day(_ text: String?, _ column: String) throws -> Date? {
        guard let text else { return nil }
        guard let day = RecordCalendar.date(fromISODay: text) else {
            throw StoreCorruption(column: column, reason: "not a YYYY-MM-DD day")
        }
        return day
    }
}

extension AuditRecord {
    /// An entry of the patient's record corrected (its kind, id and the correction, never the
    /// values).
    public static func recordCorrected(_ correction: RecordCorrection) -> AuditRecord {
        AuditRecord(
            action: .recordCorrect, resourceType: .patient, resourceID: correction.patientID.description,
            detail: correction.auditDetail)
    }
}

extension RecordRows {
    /// The visit in `row` (`id`, `record` — its sealed JSON text —, `version`, `created_at`),
    /// opened with `seal`. A record that cannot be read fails the request rather than being
    /// left out of the patient's history unnoticed.
    public static func visit(from row: some StoredRow, seal: FieldSeal) throws -> StoredVisit {
        let columns = StoredColumns(row, table: "visit")
        let id = try columns.uuid("id")
        let visit = try seal.open(
            json: try columns.text("record"), as: Visit.self, .visitRecord, id: UUIDText.lowercase(id))
        return StoredVisit(
            visit: visit, version: try columns.int("version"), createdAt: try columns.instant("created_at"))
    }

    /// The document in `row` (`id`, `patient_id`, `file_name`, `content_type`, `byte_count`,
    /// `sha256`, `created_at`): what is known of the file, not its content.
    public static func document(from row: some StoredRow) throws -> DocumentInfo {
        let columns = StoredColumns(row, table: "document")
        return DocumentInfo(
            id: try columns.uuid("id"), patientID: Identifier(try columns.uuid("patient_id")),
            fileName: try columns.text("file_name"), contentType: try columns.text("content_type"),
            byteCount: try columns.int("byte_count"), sha256: try columns.text("sha256"),
            createdAt: try columns.instant("created_at"))
    }
}
