import Foundation
import SharedKernel

/// The medical record of one visit: why the patient came, what was measured, what was
/// found, what is planned, and whether (and when) they must come back.
///
/// Vital signs are the triage context's (the same keys, units and physical limits as a
/// triage case); this record keeps them in that wire form, checked there, so the two can
/// never disagree about what a reading means.
public struct Visit: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<Visit>
    /// The patient.
    public var patientID: Identifier<Patient>
    /// The appointment this visit records, if it was booked.
    public var appointmentID: UUID?
    /// The clinician who saw the patient, if known.
    public var clinicianID: UUID?
    /// When the visit took place.
    public var occurredAt: Date
    /// The presenting complaint in the owner's or clinician's words.
    public var chiefComplaint: String
    /// Vital signs in the triage wire form (`{"heartRate":96,…}`), already checked by the
    /// triage context; `nil` when none were taken.
    public var vitalsJSON: String?
    /// Structured diagnoses, most important first.
    public var diagnoses: [Diagnosis]
    /// What is to be done.
    public var treatmentPlan: TreatmentPlan?
    /// Whether the patient must be seen again.
    public var followUpRequired: Bool
    /// The day they are due back (midnight UTC, like every record date); it puts them on the
    /// recall list.
    public var followUpDate: Date?
    /// Why they are due back, for the recall list.
    public var followUpReason: String?
    /// Who wrote the record.
    public var recordedBy: NoteAuthor?
    /// Symptoms observed at the visit, as staff wrote them (absent on visits recorded before symptoms were).
    public var symptoms: [String]?

    /// Longest chief complaint, in characters.
    public static let maxComplaintLength = 500
    /// Most diagnoses on one visit.
    public static let maxDiagnoses = 20
    /// Furthest a follow-up may be booked ahead, in days (two years).
    public static let maxFollowUpDays = 730
    /// Most symptoms on one visit, and the longest one, in characters.
    public static let maxSymptoms = 30, maxSymptomLength = 120

    /// Creates a visit record.
    public init(
        id: Identifier<Visit> = .init(), patientID: Identifier<Patient>, appointmentID: UUID? = nil,
        clinicianID: UUID? = nil,
        occurredAt: Date, chiefComplaint: String, vitalsJSON: String? = nil, diagnoses: [Diagnosis] = [],
        treatmentPlan: TreatmentPlan? = nil, followUpRequired: Bool = false, followUpDate: Date? = nil,
        followUpReason: String? = nil,
        recordedBy: NoteAuthor? = nil, symptoms: [String]? = nil
    ) {
        self.symptoms = symptoms
        self.id = id
        self.patientID = patientID
        self.appointmentID = appointmentID
        self.clinicianID = clinicianID
        self.occurredAt = occurredAt
        self.chiefComplaint = chiefComplaint
        self.vitalsJSON = vitalsJSON
        self.diagnoses = diagnoses
        self.treatmentPlan = treatmentPlan
        self.followUpRequired = followUpRequired
        self.followUpDate = followUpDate
        self.followUpReason = followUpReason
        self.recordedBy = recordedBy
    }

    // MARK: - Validation

    /// Checks the record against the patient and reports every bad field: a blank complaint,
    /// a visit in the future or before birth, diagnoses that point at problems the patient does
    /// not have, a surgical plan without a procedure, and a follow-up that is required without
    /// a date (or dated without being required), not after the visit, or years away.
    ///
    /// - Parameter problems: the identifiers of the patient's problems, which diagnoses may link to.
    public func validate(
        now: Date, birthDate: Date?, problems: Set<Identifier<Problem>>,
        calendar: Calendar = RecordCalendar.utc
    ) throws(ValidationError) {
        var errors = FieldErrorCollector()
        collect(into: &errors, now: now, birthDate: birthDate, problems: problems, calendar: calendar)
        try errors.throwIfAny()
    }

    /// Adds every problem of the record to `errors` (for callers that combine them with others,
    /// such as the vitals' own).
    public func collect(
        into errors: inout FieldErrorCollector, now: Date, birthDate: Date?, problems: Set<Identifier<Problem>>,
        calendar: Calendar = RecordCalendar.utc
    ) {
        let complaint = chiefComplaint.trimmingCharacters(in: .whitespacesAndNewlines)
        if complaint.isEmpty { errors.add("chiefComplaint", "must not be empty") }
        if complaint.count > Self.maxComplaintLength {
            errors.add("chiefComplaint", "must be at most \(Self.maxComplaintLength) characters")
        }
        // A record is written during or after the visit; a few minutes' clock drift are allowed.
        if occurredAt > now.addingTimeInterval(5 * 60) { errors.add("occurredAt", "must not be in the future") }
        RecordDateRules.notBeforeBirth(
            occurredAt, birthDate: birthDate, field: "occurredAt", calendar: calendar, into: &errors)

        if diagnoses.count > Self.maxDiagnoses {
            errors.add("diagnoses", "must list at most \(Self.maxDiagnoses) diagnoses")
        }
        // A consultation concludes something: what was found, or what is done about it.
        if diagnoses.isEmpty && treatmentPlan == nil {
            errors.add("diagnoses", "record at least one diagnosis or a treatment plan")
            errors.add("treatmentPlan", "record a treatment plan or at least one diagnosis")
        }
        let observed = symptoms ?? []
        if observed.count > Self.maxSymptoms {
            errors.add("symptoms", "must list at most \(Self.maxSymptoms) symptoms")
        }
        for (index, symptom) in observed.enumerated() {
            let text = symptom.trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { errors.add("symptoms[\(index)]", "must not be empty") }
            if text.count > Self.maxSymptomLength {
                errors.add("symptoms[\(index)]", "must be at most \(Self.maxSymptomLength) characters")
            }
        }
        for (index, diagnosis) in diagnoses.enumerated() {
            diagnosis.validate(field: "diagnoses[\(index)]", problems: problems, into: &errors)
        }
        treatmentPlan?.validate(field: "treatmentPlan", into: &errors)
        treatmentPlan?.validatePrescriptions(
            field: "treatmentPlan", patientID: patientID, birthDate: birthDate, calendar: calendar, into: &errors)

        switch (followUpRequired, followUpDate) {
        case (true, nil):
            errors.add("followUpDate", "is required when a follow-up is required")
        case (false, .some):
            errors.add("followUpRequired", "must be true when a follow-up date is given")
        case (true, let date?):
            let days = RecordCalendar.days(from: occurredAt, to: date, calendar: calendar)
            if days < 1 { errors.add("followUpDate", "must be after the day of the visit") }
            if days > Self.maxFollowUpDays { errors.add("followUpDate", "must be within two years of the visit") }
        case (false, nil):
            break
        }
        if let reason = followUpReason {
            if reason.count > 200 { errors.add("followUpReason", "must be at most 200 characters") }
            if !followUpRequired, !reason.trimmingCharacters(in: .whitespaces).isEmpty {
                errors.add("followUpReason", "is only given with a required follow-up")
            }
        }
    }

    /// Whether the visit asks the patient back (a recall on the due list).
    public var recall: FollowUpRecall? {
        guard followUpRequired, let followUpDate else { return nil }
        return FollowUpRecall(
            visitID: id, patientID: patientID, visitDate: occurredAt, dueDate: followUpDate,
            reason: followUpReason.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
                ?? chiefComplaint)
    }
}

// MARK: - Recording

/// What recording a visit writes: the visit, with its diagnoses linked to the problems it
/// adds, and the entries it adds to the record.
public struct RecordedVisit: Sendable {
    /// The visit as stored.
    public var visit: Visit
    /// New active problems, from the diagnoses marked for the problem list (from the visit's day).
    public var problems: [Problem]
    /// The plan's prescriptions, which become the patient's medications.
    public var medications: [Medication]
}

extension Visit {
    /// What recording this visit adds to the patient's record: each diagnosis marked for the
    /// problem list becomes an active problem from the visit's day (and the diagnosis names
    /// it), and each prescription becomes a medication. Checks them as record entries of a
    /// patient born `birthDate`; call after ``collect(into:now:birthDate:problems:calendar:)``
    /// found nothing wrong.
    public func recording(now: Date, birthDate: Date?) throws(ValidationError) -> RecordedVisit {
        var visit = self
        var problems: [Problem] = []
        let day = RecordCalendar.date(fromISODay: RecordCalendar.isoDay(occurredAt))
        for (index, diagnosis) in diagnoses.enumerated() where diagnosis.addToProblemList {
            let problem = Problem(patientID: patientID, name: diagnosis.name, status: .active, onsetDate: day)
            try problem.validate(now: now, birthDate: birthDate)
            problems.append(problem)
            visit.diagnoses[index].problemID = problem.id
        }
        return RecordedVisit(visit: visit, problems: problems, medications: treatmentPlan?.prescriptions ?? [])
    }

    /// The audit detail of recording it: the visit, its appointment, the follow-up and what it added.
    public func auditDetail(appointment: String?, recorded: RecordedVisit) -> String {
        "visit=\(id)" + (appointment.map { " appointment=\($0)" } ?? "")
            + (recall.map { " follow_up=\(RecordCalendar.isoDay($0.dueDate))" } ?? "")
            + (recorded.problems.isEmpty ? "" : " problems_added=\(recorded.problems.count)")
            + (recorded.medications.isEmpty ? "" : " medications_added=\(recorded.medications.count)")
    }
}

// MARK: - Diagnoses

/// One diagnosis of a visit.
public struct Diagnosis: Codable, Hashable, Sendable {
    /// How sure the clinician is.
    public enum Certainty: String, Codable, Sendable, CaseIterable {
        case confirmed, presumptive, differential
        case ruledOut = "ruled_out"
    }

    /// The diagnosis as named ("Cranial cruciate ligament rupture, left").
    public var name: String
    /// A code from the practice's coding system (VeNom, SNOMED CT), if used.
    public var code: String?
    /// How sure the clinician is.
    public var certainty: Certainty
    /// The problem on the patient's problem list it belongs to.
    public var problemID: Identifier<Problem>?
    /// Whether to add it to the problem list as a new active problem (for a confirmed or
    /// presumptive diagnosis not yet on the list).
    public var addToProblemList: Bool

    /// Creates a diagnosis.
    public init(
        name: String, code: String? = nil, certainty: Certainty = .confirmed, problemID: Identifier<Problem>? = nil,
        addToProblemList: Bool = false
    ) {
        self.name = name
        self.code = code
        self.certainty = certainty
        self.problemID = problemID
        self.addToProblemList = addToProblemList
    }

    func validate(field: String, problems: Set<Identifier<Problem>>, into errors: inout FieldErrorCollector) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { errors.add("\(field).name", "must not be empty") }
        if trimmed.count > 200 { errors.add("\(field).name", "must be at most 200 characters") }
        if let code, code.trimmingCharacters(in: .whitespaces).isEmpty || code.count > 40 {
            errors.add("\(field).code", "must be 1 to 40 characters")
        }
        if let problemID, !problems.contains(problemID) {
            errors.add("\(field).problemId", "is not on this patient's problem list")
        }
        if addToProblemList {
            if problemID != nil {
                errors.add("\(field).addToProblemList", "is for a diagnosis not yet linked to a problem")
            }
            if certainty == .ruledOut || certainty == .differential {
                errors.add(
                    "\(field).addToProblemList", "only a confirmed or presumptive diagnosis joins the problem list")
            }
        }
    }
}

// MARK: - Treatment plan

/// What the clinician plans for the patient.
public struct TreatmentPlan: Codable, Hashable, Sendable {
    /// Medical, surgical, or both.
    public enum Approach: String, Codable, Sendable, CaseIterable { case medical, surgical }

    /// The approaches the plan takes.
    public var approaches: [Approach]
    /// The plan in the clinician's words (medication, diet, rest, monitoring).
    public var summary: String
    /// Procedures to be carried out (surgery, dentistry, imaging under sedation).
    public var procedures: [PlannedProcedure]
    /// Drugs prescribed at the visit. Recording the visit makes each an active medication of
    /// the patient with this identifier, so the plan names the record's entries (absent on
    /// plans recorded before prescriptions were).
    public var prescriptions: [Medication]?

    /// Most prescriptions on one plan.
    public static let maxPrescriptions = 20

    /// Creates a plan.
    public init(
        approaches: [Approach], summary: String, procedures: [PlannedProcedure] = [], prescriptions: [Medication]? = nil
    ) {
        self.approaches = approaches
        self.summary = summary
        self.procedures = procedures
        self.prescriptions = prescriptions
    }

    func validate(field: String, into errors: inout FieldErrorCollector) {
        if approaches.isEmpty {
            errors.add("\(field).approaches", "must say whether the plan is medical, surgical or both")
        }
        if Set(approaches).count != approaches.count {
            errors.add("\(field).approaches", "must not repeat an approach")
        }
        if summary.count > 4000 { errors.add("\(field).summary", "must be at most 4000 characters") }
        if approaches.contains(.surgical), procedures.isEmpty {
            errors.add("\(field).procedures", "a surgical plan names at least one procedure")
        }
        if procedures.count > 20 { errors.add("\(field).procedures", "must list at most 20 procedures") }
        for (index, procedure) in procedures.enumerated() {
            let name = procedure.name.trimmingCharacters(in: .whitespacesAndNewlines)
            if name.isEmpty { errors.add("\(field).procedures[\(index)].name", "must not be empty") }
            if name.count > 200 { errors.add("\(field).procedures[\(index)].name", "must be at most 200 characters") }
            if let notes = procedure.notes, notes.count > 1000 {
                errors.add("\(field).procedures[\(index)].notes", "must be at most 1000 characters")
            }
        }
    }

    /// Checks each prescription as a medication of the patient, naming the fields under
    /// `field.prescriptions[i]`.
    func validatePrescriptions(
        field: String, patientID: Identifier<Patient>, birthDate: Date?, calendar: Calendar,
        into errors: inout FieldErrorCollector
    ) {
        let prescribed = prescriptions ?? []
        if prescribed.count > Self.maxPrescriptions {
            errors.add("\(field).prescriptions", "must list at most \(Self.maxPrescriptions) drugs")
        }
        for (index, medication) in prescribed.enumerated() {
            if medication.patientID != patientID {
                errors.add("\(field).prescriptions[\(index)]", "is for another patient")
            }
            do { try medication.validate(birthDate: birthDate, calendar: calendar) } catch {
                error.errors.forEach { errors.add("\(field).prescriptions[\(index)].\($0.field)", $0.message) }
            }
        }
    }
}

/// One planned procedure.
public struct PlannedProcedure: Codable, Hashable, Sendable {
    /// What is to be done ("TPLO, left stifle").
    public var name: String
    /// Details for the team.
    public var notes: String?

    /// Creates a procedure.
    public init(name: String, notes: String? = nil) {
        self.name = name
        self.notes = notes
    }
}
