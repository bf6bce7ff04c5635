import Foundation
import SharedKernel

/// Event kinds the specialists context publishes.
public enum ClinicianEventKind {
    /// A clinician's weekly hours, breaks or time off changed: free slots and the schedule's
    /// columns change with them.
    public static let availabilityChanged = "clinician.availability_changed"
    /// A clinician was added.
    public static let created = "clinician.created"
    /// A clinician's profile (credentials, expertise, species, limits, preferences) changed.
    public static let updated = "clinician.updated"
    /// A clinician retired: they leave every offer and column of the schedule.
    public static let retired = "clinician.retired"

    /// Every kind, for subscribers and documentation.
    public static let all = [availabilityChanged, created, updated, retired]
}

extension Clinician {
    /// The event for this clinician's creation, change or retirement (`kind`): identifiers,
    /// the name the schedule shows and the new version.
    public func changeEvent(kind: String, version: Int, practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        DomainEvent(
            practiceID: practiceID, kind: kind, occurredAt: occurredAt, resourceType: .clinician,
            resourceID: id.description,
            payload: ["clinicianID": id.description, "displayName": displayName, "version": String(version)])
    }
}

extension ClinicianAvailability {
    /// The event for a stored change of this availability; the payload names the clinician and
    /// the new version (time-off reasons stay out: they can be personal).
    public func changeEvent(version: Int, practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        DomainEvent(
            practiceID: practiceID, kind: ClinicianEventKind.availabilityChanged, occurredAt: occurredAt,
            resourceType: .clinician,
            resourceID: clinicianID.description,
            payload: [
                "clinicianID": clinicianID.description, "version": String(version),
                "timeOffPeriods": String(timeOff.count),
            ])
    }
}
