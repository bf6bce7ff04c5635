import Foundation
import PatientRecords
import Scheduling
import SharedKernel

/// Recording a visit, decided once for both stores: the store reads what ``Reads`` names in
/// its transaction, ``decide(_:otherErrors:reads:scope:now:)`` checks the visit against it and
/// says what to write — the visit, the problems and medications it adds, the audit entry and
/// the events — and the store writes exactly that.
public struct VisitRecording: Sendable {
    /// What the decision needs from the store.
    public struct Reads: Sendable {
        /// The patient the visit is for (in the caller's practice).
        public var patient: Patient
        /// The ids of the patient's problems, which diagnoses may name.
        public var problems: Set<Identifier<Problem>>
        /// The appointment the visit names, when it is one of the practice's.
        public var appointment: Appointment?
        /// Whether the clinician the visit will name (``clinician(of:appointment:)``) is one of
        /// the practice's; `true` when it names none.
        public var clinicianKnown: Bool
        /// Whether the appointment the visit names already has a visit record.
        public var appointmentRecorded: Bool

        /// The reads.
        public init(
            patient: Patient, problems: Set<Identifier<Problem>>, appointment: Appointment?, clinicianKnown: Bool,
            appointmentRecorded: Bool
        ) {
            self.patient = patient
            self.problems = problems
            self.appointment = appointment
            self.clinicianKnown = clinicianKnown
            self.appointmentRecorded = appointmentRecorded
        }
    }

    /// The visit as stored, its diagnoses naming the problems it adds.
    public let visit: Visit
    /// What it adds to the record: problems and medications.
    public let recorded: RecordedVisit
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its events, in order: each added problem and medication, then the visit.
    public let events: [DomainEvent]

    /// The clinician the visit will name: its own, else that of the appointment it records
    /// when that appointment is the patient's. The store checks it is the practice's.
    public static func clinician(of visit: Visit, appointment: Appointment?) -> UUID? {
        visit.clinicianID ?? appointment.flatMap { $0.patientID == visit.patientID.rawValue ? $0.clinicianID : nil }
    }

    /// Checks `visit` against `reads`: every problem of the form at once (with `otherErrors`,
    /// found by other contexts in the same form), then a second visit for one appointment.
    public static func decide(
        _ visit: Visit, otherErrors: [FieldError], reads: Reads, scope: AccessScope, now: Date
    ) throws -> VisitRecording {
        let patient = reads.patient
        var errors = FieldErrorCollector()
        otherErrors.forEach { errors.add($0.field, $0.message) }
        visit.collect(into: &errors, now: now, birthDate: patient.birthDate, problems: reads.problems)
        var record = visit
        if visit.appointmentID != nil {
            if let appointment = reads.appointment, appointment.patientID == patient.id.rawValue {
                if !appointment.status.admitsVisitRecord {
                    let status = appointment.status.rawValue.replacingOccurrences(of: "_", with: " ")
                    errors.add(
                        "appointmentId", "is \(status); a visit is recorded for an appointment the patient came to")
                }
                record.clinicianID = clinician(of: visit, appointment: appointment)
            } else {
                errors.add("appointmentId", "is not an appointment of this patient")
            }
        }
        if record.clinicianID != nil, !reads.clinicianKnown {
            errors.add("clinicianId", "is not a clinician of this practice")
        }
        try errors.throwIfAny()
        let recorded = try record.recording(now: now, birthDate: patient.birthDate)
        if record.appointmentID != nil, reads.appointmentRecorded { throw alreadyRecorded }
        record = recorded.visit
        let practiceID = scope.practiceID
        func added(_ type: String, _ id: String) -> DomainEvent {
            .recordEntryAdded(
                patientID: patient.id, entryType: type, entryID: id, practiceID: practiceID, occurredAt: now)
        }
        let events =
            recorded.problems.map { added("problem", $0.id.description) }
            + recorded.medications.map { added("medication", $0.id.description) } + [
                added("visit", record.id.description)
            ]
        let audit = AuditRecord(
            action: .recordVisitAdd, resourceType: .patient, resourceID: patient.id.description,
            detail: record.auditDetail(appointment: record.appointmentID.map(UUIDText.lowercase), recorded: recorded))
        return VisitRecording(visit: record, recorded: recorded, audit: audit, events: events)
    }

    /// The refusal of a second visit record for one appointment.
    public static let alreadyRecorded = UniquenessConflict(
        field: "appointmentId", message: "already has a visit record")
}

extension VisitRecording {
    /// The rows that store this visit, in order: the diagnoses added to the problem list, the
    /// prescriptions, then the visit itself, recorded by `recordedBy` at `now`.
    public func rows(seal: FieldSeal, recordedBy: String?, now: Date) throws -> [StoredInsert] {
        try recorded.problems.map { try RecordRows.insert($0, seal: seal, createdAt: now) }
            + recorded.medications.map {
                try RecordRows.insert($0, seal: seal, prescribedBy: recordedBy, createdAt: now)
            } + [try RecordRows.insert(visit, seal: seal, recordedBy: recordedBy, createdAt: now)]
    }
}
