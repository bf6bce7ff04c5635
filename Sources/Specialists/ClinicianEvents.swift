import Foundation
import SharedKernel

/// Event kinds the specialists context publishes.
public enum ClinicianEventKind {
    /// A clinician's weekly hours, breaks or time off changed: free slots and the schedule's
    /// columns change with them.
    public static let availabilityChanged = "clinician.availability_changed"

    /// Every kind, for subscribers and documentation.
    public static let all = [availabilityChanged]
}

extension ClinicianAvailability {
    /// The event for a stored change of this availability; the payload names the clinician and
    /// the new version (time-off reasons stay out: they can be personal).
    public func changeEvent(version: Int, practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        DomainEvent(practiceID: practiceID, kind: ClinicianEventKind.availabilityChanged, occurredAt: occurredAt, resourceType: "clinician",
                    resourceID: clinicianID.description,
                    payload: ["clinicianID": clinicianID.description, "version": String(version), "timeOffPeriods": String(timeOff.count)])
    }
}
