import Foundation
import PatientRecords
import SharedKernel

/// What a retention purge removed.
public struct PurgeSummary: Hashable, Sendable {
    /// The retention period it applied.
    public var retention: RetentionPeriod
    /// Patients removed.
    public var patients = 0
    /// Their appointments, whatever their status.
    public var appointments = 0
    /// Of those, appointments still open (booked, checked in, in progress) that had not yet
    /// started: an archived patient should have none, so each one is counted on its own.
    public var futureAppointments = 0
    /// Their triage assessments.
    public var assessments = 0
    /// Their documents.
    public var documents = 0

    /// The counts as `key=value` pairs, for the audit detail.
    package var auditDetail: String {
        "retentionYears=\(retention.years) patients=\(patients) appointments=\(appointments) "
            + "futureAppointments=\(futureAppointments) "
            + "assessments=\(assessments) documents=\(documents)"
    }

    /// Creates the value from its parts.
    public init(retention: RetentionPeriod) {
        self.retention = retention
    }

    /// What one purged patient's record held.
    public struct Purged: Sendable {
        /// The patient's id, as stored.
        public var patientID: String
        /// Its appointments, whatever their status.
        public var appointments: Int
        /// Of those, open ones that had not yet started.
        public var futureAppointments: Int
        /// Its triage assessments.
        public var assessments: Int
        /// Its documents.
        public var documents: Int

        /// The counts of one patient.
        public init(patientID: String, appointments: Int, futureAppointments: Int, assessments: Int, documents: Int) {
            self.patientID = patientID
            self.appointments = appointments
            self.futureAppointments = futureAppointments
            self.assessments = assessments
            self.documents = documents
        }
    }

    /// Counts `patient` in the totals; its audit entry (`patient.purge`, with its counts) and its
    /// event (`record.patient_purged`) for the store to write beside the deletion.
    public mutating func add(_ patient: Purged, practiceID: PracticeID, at now: Date) -> (AuditRecord, DomainEvent) {
        patients += 1
        appointments += patient.appointments
        futureAppointments += patient.futureAppointments
        assessments += patient.assessments
        documents += patient.documents
        let detail =
            "appointments=\(patient.appointments) futureAppointments=\(patient.futureAppointments)"
            + " assessments=\(patient.assessments) documents=\(patient.documents)"
        return (
            AuditRecord(action: .patientPurge, resourceType: .patient, resourceID: patient.patientID, detail: detail),
            DomainEvent(
                practiceID: practiceID, kind: RecordEventKind.patientPurged, occurredAt: now, resourceType: .patient,
                resourceID: patient.patientID, payload: ["patientID": patient.patientID])
        )
    }

    /// The run's audit entry (`records.purge`, with the totals), written even when nothing was due.
    public func runAudit(practiceID: PracticeID) -> AuditRecord {
        AuditRecord(
            action: .recordsPurge, resourceType: .practice, resourceID: practiceID.description, detail: auditDetail)
    }
}

/// The tables that hold a patient's rows, as both stores' schemas name them, children before
/// parents so each can be emptied of the patient's rows in turn: visits refer to appointments;
/// rankings, board entries and appointments to assessments; addenda to notes.
public enum PatientRecordTables {
    /// Every such table, in deletion order; `board` is the store's name for the ER board's
    /// table (the one name the schemas do not share).
    public static func childrenFirst(board: String) -> [String] {
        [
            "record_correction", "visit", "intake_ranking", "note_addendum", "clinical_note", "weight", "problem",
            "allergy", "medication", "vaccination", "document", board, "triage_arrival", "appointment_note",
            "appointment", "triage_override", "triage_assessment",
        ]
    }

    /// The tables whose rows have ids of their own, which a create's idempotency key may name
    /// (an intake ranking's id is its assessment's; board entries and arrivals have none).
    public static func withIDs(board: String) -> [String] {
        childrenFirst(board: board).filter { !["intake_ranking", board, "triage_arrival"].contains($0) }
    }
}
