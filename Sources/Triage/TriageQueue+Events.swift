import Foundation
import SharedKernel

// MARK: - Domain events

/// Event kinds the triage context publishes.
public enum TriageEventKind {
    /// A patient was triaged or re-triaged.
    public static let patientTriaged = "patient.triaged"
    /// The ER queue changed (admission, re-triage, status change, override).
    public static let queueChanged = "triage.queue_changed"
    /// Clinical judgement set an assessment's level.
    public static let levelOverridden = "triage.level_overridden"
    /// A waiting patient passed their target time (announced once per visit and level).
    public static let patientOverdue = "triage.patient_overdue"
    /// A waiting patient is due a re-assessment (announced once per assessment).
    public static let reassessmentDue = "triage.reassessment_due"

    /// Every kind, for subscribers and documentation.
    public static let all = [patientTriaged, queueChanged, levelOverridden, patientOverdue, reassessmentDue]
}

extension QueueChange {
    /// The events this change should publish, in order. Pure: the caller publishes them on
    /// the ``EventBus`` after persisting the change. Payloads carry only what the board shows.
    public func events(practiceID: PracticeID, occurredAt: Date) -> [DomainEvent] {
        let entry = self.entry
        var payload: [String: String] = [
            "patientID": UUIDText.lowercase(entry.patientID),
            "assessmentID": entry.assessmentID.description,
            "level": String(entry.level.rawValue),
            "colour": entry.level.colour,
            "status": entry.status.rawValue,
            "targetTime": entry.targetTime.ISO8601Format(),
        ]
        let resource = UUIDText.lowercase(entry.patientID)
        switch self {
        case .admitted:
            payload["change"] = "admitted"
            return [
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.patientTriaged, occurredAt: occurredAt,
                    resourceID: resource, payload: payload),
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.queueChanged, occurredAt: occurredAt,
                    resourceID: resource, payload: payload),
            ]
        case .retriaged(let previous, _):
            payload["change"] = "retriaged"
            payload["previousLevel"] = String(previous.level.rawValue)
            return [
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.patientTriaged, occurredAt: occurredAt,
                    resourceID: resource, payload: payload),
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.queueChanged, occurredAt: occurredAt,
                    resourceID: resource, payload: payload),
            ]
        case .overridden(let previous, let current):
            payload["change"] = "overridden"
            payload["previousLevel"] = String(previous.level.rawValue)
            if let override = current.override {
                payload["computedLevel"] = String(override.computedLevel.rawValue)
                payload["direction"] = override.direction.rawValue
                payload["overriddenBy"] = override.overriddenBy
                if override.lowersRedFinding { payload["lowersRedFinding"] = "true" }
            }
            return [
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.levelOverridden, occurredAt: occurredAt,
                    resourceID: resource, payload: payload),
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.queueChanged, occurredAt: occurredAt,
                    resourceID: resource, payload: payload),
            ]
        case .announced(let deadline, let current):
            payload["change"] = deadline.rawValue
            payload["reassessmentDueAt"] = current.reassessmentDueAt.ISO8601Format()
            let kind = deadline == .overdue ? TriageEventKind.patientOverdue : TriageEventKind.reassessmentDue
            return [
                DomainEvent(
                    practiceID: practiceID, kind: kind, occurredAt: occurredAt, resourceID: resource, payload: payload)
            ]
        case .statusChanged(let previous, _):
            payload["change"] = "status_changed"
            payload["previousStatus"] = previous.status.rawValue
            return [
                DomainEvent(
                    practiceID: practiceID, kind: TriageEventKind.queueChanged, occurredAt: occurredAt,
                    resourceID: resource, payload: payload)
            ]
        }
    }
}

extension TriageAssessment {
    /// The `patient.triaged` event of an assessment that did not join the board (a non-urgent
    /// intake booked into a later slot): the patient, the level and its colour.
    public func assessedEvent(practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        let patient = UUIDText.lowercase(patientID)
        return DomainEvent(
            practiceID: practiceID, kind: TriageEventKind.patientTriaged, occurredAt: occurredAt,
            resourceType: .patient,
            resourceID: patient,
            payload: [
                "patientID": patient, "assessmentID": id.description, "level": String(level.rawValue),
                "colour": level.colour, "change": "assessed",
            ])
    }
}
