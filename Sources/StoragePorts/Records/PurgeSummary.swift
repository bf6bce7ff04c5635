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
        "retentionYears=\(retention.years) patients=\(patients) appointments=\(appointments) futureAppointments=\(futureAppointments) "
            + "assessments=\(assessments) documents=\(documents)"
    }

    /// Creates the value from its parts.
    public init(retention: RetentionPeriod) {
        self.retention = retention
    }
}
