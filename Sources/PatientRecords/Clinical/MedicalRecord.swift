import Foundation
import SharedKernel

/// A patient's whole medical record as one value: the patient, weights, problem list,
/// allergies, medications, vaccinations and clinical notes.
///
/// Screens and exports read it; each part is still written through its own validated type.
public struct MedicalRecord: Codable, Hashable, Sendable {
    /// The patient.
    public var patient: Patient
    /// Weighings, oldest first.
    public var weights: WeightHistory
    /// Problem list.
    public var problems: [Problem]
    /// Known allergies.
    public var allergies: [Allergy]
    /// Prescribed medications, current and past.
    public var medications: [Medication]
    /// Vaccinations given.
    public var vaccinations: [Vaccination]
    /// Clinical notes with their addenda (append-only).
    public var notes: ClinicalNoteLog
    /// The corrections applied, in order (``applying(_:)``).
    public var corrections: [RecordCorrection] = []
    /// Entries that no longer count, by id, with why: entered in error, or an allergy refuted.
    public var retracted: [UUID: RetractedMark] = [:]
    /// The retracted entries themselves (a note stays in ``notes``, marked in ``retracted``).
    public var retractedEntries = RetractedEntries()

    /// The stored form: the entries as written. Corrections are kept apart and applied on
    /// every read, so they are not part of it.
    private enum CodingKeys: String, CodingKey {
        case patient, weights, problems, allergies, medications, vaccinations, notes
    }

    /// Creates a record.
    public init(
        patient: Patient, weights: [WeightMeasurement] = [], problems: [Problem] = [], allergies: [Allergy] = [],
        medications: [Medication] = [], vaccinations: [Vaccination] = [], notes: [ClinicalNote] = [],
        addenda: [Addendum] = []
    ) {
        self.patient = patient
        self.weights = WeightHistory(weights)
        self.problems = problems
        self.allergies = allergies
        self.medications = medications
        self.vaccinations = vaccinations
        self.notes = ClinicalNoteLog(patientID: patient.id, notes: notes, addenda: addenda)
    }

    // MARK: - Reading

    /// Problems still active, in list order.
    public var activeProblems: [Problem] { problems.filter { $0.status == .active } }

    /// Allergies, most severe first (the order an alert banner shows them in).
    public var allergiesBySeverity: [Allergy] { allergies.sorted { $0.severity > $1.severity } }

    /// Medications whose course runs on the day of `date`.
    public func currentMedications(on date: Date, calendar: Calendar = RecordCalendar.utc) -> [Medication] {
        medications.filter { $0.isCurrent(on: date, calendar: calendar) }
    }

    /// The patient's age at `now`.
    public func age(now: Date, calendar: Calendar = RecordCalendar.utc) -> PatientAge? {
        patient.age(now: now, calendar: calendar)
    }

    /// The dose of `medication` from this patient's latest weight (see
    /// ``Medication/dose(weights:now:maximumWeightAgeInDays:)``).
    public func dose(
        for medication: Medication, now: Date,
        maximumWeightAgeInDays: Int = Medication.defaultMaximumWeightAgeInDays
    ) throws(DoseCalculationError) -> DoseCalculation {
        try medication.dose(weights: weights, now: now, maximumWeightAgeInDays: maximumWeightAgeInDays)
    }

    /// This patient's vaccination reminders (see ``VaccinationSchedule``).
    public func vaccinationReminders(
        asOf date: Date, dueWithinDays: Int = VaccinationSchedule.defaultDueWithinDays,
        calendar: Calendar = RecordCalendar.utc
    ) -> VaccinationDueReport {
        VaccinationSchedule.dueAndOverdue(
            vaccinations: vaccinations, asOf: date, dueWithinDays: dueWithinDays, calendar: calendar)
    }

    // MARK: - Validation

    /// Checks the patient and every entry against the patient's birth date and `now`, and that
    /// every entry belongs to this patient. Fields are reported with their path in the record,
    /// e.g. `vaccinations[2].administeredDate`.
    public func validate(now: Date, calendar: Calendar = RecordCalendar.utc) throws(ValidationError) {
        var errors: [FieldError] = []
        let birth = patient.birthDate
        func collect(_ prefix: String, _ owner: Identifier<Patient>, _ check: () throws(ValidationError) -> Void) {
            if owner != patient.id {
                errors.append(FieldError(field: "\(prefix).patientId", message: "must be this record's patient"))
            }
            do { try check() } catch {
                errors += error.errors.map {
                    FieldError(field: prefix.isEmpty ? $0.field : "\(prefix).\($0.field)", message: $0.message)
                }
            }
        }
        collect("", patient.id) { () throws(ValidationError) in try patient.validate(now: now) }
        for (index, weight) in weights.measurements.enumerated() {
            collect("weights[\(index)]", weight.patientID) { () throws(ValidationError) in
                try weight.validate(species: patient.species, birthDate: birth, now: now, calendar: calendar)
            }
        }
        for (index, problem) in problems.enumerated() {
            collect("problems[\(index)]", problem.patientID) { () throws(ValidationError) in
                try problem.validate(now: now, birthDate: birth, calendar: calendar)
            }
        }
        for (index, allergy) in allergies.enumerated() {
            collect("allergies[\(index)]", allergy.patientID) { () throws(ValidationError) in try allergy.validate() }
        }
        for (index, medication) in medications.enumerated() {
            collect("medications[\(index)]", medication.patientID) { () throws(ValidationError) in
                try medication.validate(birthDate: birth, calendar: calendar)
            }
        }
        for (index, vaccination) in vaccinations.enumerated() {
            collect("vaccinations[\(index)]", vaccination.patientID) { () throws(ValidationError) in
                try vaccination.validate(now: now, birthDate: birth, calendar: calendar)
            }
        }
        if !errors.isEmpty { throw ValidationError(errors) }
    }
}
