import Foundation
import SharedKernel
import Triage

/// Recording a triage assessment, decided once for both stores: from the patient's board
/// entry (the only one an assessment can move) the decision says whether the patient joins
/// or moves on the ER board, and what to write with the assessment — its audit entry and its
/// events. The store reads the entry in its transaction and writes what this names.
public struct AssessmentRecording: Sendable {
    /// The board's change: admission or re-triage; `nil` when the assessment stays off the board.
    public let change: QueueChange?
    /// The assessment as it reads back.
    public let stored: StoredAssessment
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its events: the triage and the board's change together, or the triage alone when the
    /// assessment stays off the board (a booked non-urgent intake is still news).
    public let events: [DomainEvent]

    /// Decides `assessment` (made from `result`, encoded as `resultJSON`) against the patient's
    /// board entry `entry`. With `admitToQueue` false the patient does not join the board.
    public static func decide(
        _ assessment: TriageAssessment, result: TriageResult, resultJSON: Data, admitToQueue: Bool,
        boardEntry entry: QueueEntry?, scope: AccessScope, now: Date
    ) throws -> AssessmentRecording {
        var queue = TriageQueue(entries: entry.map { [$0] } ?? [])
        var change: QueueChange?
        if queue.follows(assessment, admitting: admitToQueue) {
            do { change = try queue.handle(.admit(assessment), at: now) } catch { throw error.domainError }
        }
        let patient = UUIDText.lowercase(assessment.patientID)
        return AssessmentRecording(
            change: change,
            stored: StoredAssessment(
                id: assessment.id, patientID: assessment.patientID, assessorID: scope.actorID?.description,
                arrival: assessment.arrival, assessedAt: result.assessedAt, level: result.level,
                rulesVersion: result.rulesVersion, resultJSON: resultJSON),
            audit: AuditRecord(
                action: .triageAssess, resourceType: .patient, resourceID: patient,
                detail: "level=\(result.level.rawValue) assessment=\(assessment.id)"),
            events: change?.events(practiceID: scope.practiceID, occurredAt: now)
                ?? [assessment.assessedEvent(practiceID: scope.practiceID, occurredAt: now)])
    }
}

/// Overriding an assessment's level, decided once for both stores: the clinician's judgement
/// (``TriageOverride/decide(_:on:by:role:at:)``), the board's change when the assessment is
/// the one the patient waits on, the audit entry and the events. The store reads the
/// assessment, whether a newer one exists and the patient's board entry in its transaction,
/// and writes what this names.
public struct OverrideRecording: Sendable {
    /// The override to store with the assessment.
    public let override: TriageOverride
    /// The board's change: the patient re-ranked at the new level; `nil` when the patient is
    /// not waiting on this assessment.
    public let change: QueueChange?
    /// Its audit entry.
    public let audit: AuditRecord
    /// Its events: the board's, or the override's own when the board does not change.
    public let events: [DomainEvent]

    /// Decides `request` on `assessment` (`isLatest` when no newer assessment of the patient
    /// exists) by the signed-in clinician of `scope`, against the patient's board entry `entry`.
    public static func decide(
        _ request: OverrideRequest, on assessment: StoredAssessment, isLatest: Bool, boardEntry entry: QueueEntry?,
        scope: AccessScope, now: Date
    ) throws -> OverrideRecording {
        guard let actor = scope.actorID, let role = scope.role else {
            throw DomainError.forbidden(action: "override a triage level")
        }
        let override = try TriageOverride.decide(
            request,
            on: OverriddenAssessment(
                id: assessment.id, computedLevel: assessment.level, currentLevel: assessment.currentLevel,
                isLatest: isLatest),
            by: actor.description, role: role, at: now)
        var change: QueueChange?
        if let entry, entry.status.isActive, entry.assessmentID == assessment.id {
            var queue = TriageQueue(entries: [entry])
            do {
                change = try queue.handle(.override(patientID: assessment.patientID, override), at: now)
            } catch {
                throw error.domainError
            }
        }
        return OverrideRecording(
            override: override, change: change,
            audit: AuditRecord(
                action: .triageOverride, resourceType: .patient, resourceID: UUIDText.lowercase(assessment.patientID),
                detail: override.auditDetail),
            events: change?.events(practiceID: scope.practiceID, occurredAt: now)
                ?? [override.event(patientID: assessment.patientID, practiceID: scope.practiceID, occurredAt: now)])
    }
}
