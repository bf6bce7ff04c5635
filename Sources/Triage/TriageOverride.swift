import Foundation
import SharedKernel

// MARK: - Override

/// Which way clinical judgement moved a level.
public enum OverrideDirection: String, CaseIterable, Codable, Sendable {
    /// To a more urgent level (up-triage): anyone who may triage, with a reason.
    case raised
    /// To a less urgent level (down-triage): a veterinarian's decision, with a reason.
    case lowered
}

/// Clinical judgement recorded on an assessment: a person set the level over the engine's.
///
/// VTL, like the Manchester Triage System it adapts, lets trained staff raise a level on their
/// judgement; lowering one is a clinician's decision (``decide(_:on:by:role:at:)``). The
/// computed level is never rewritten: the assessment keeps it, and every override is kept
/// beside it with who, when and why.
public struct TriageOverride: Hashable, Codable, Sendable {
    /// The override's id.
    public let id: Identifier<TriageOverride>
    /// The assessment overridden.
    public let assessmentID: Identifier<TriageAssessment>
    /// The engine's level for the assessment.
    public let computedLevel: TriageLevel
    /// The level in force before this override (the computed level, or an earlier override's).
    public let previousLevel: TriageLevel
    /// The level set.
    public let level: TriageLevel
    /// Why, in the overrider's words.
    public let reason: String
    /// The staff member who overrode (their account id).
    public let overriddenBy: String
    /// When.
    public let overriddenAt: Date
    /// The level is below red although a red discriminator fired (confirmed explicitly): the
    /// board flags the patient until they are seen.
    public let lowersRedFinding: Bool

    /// Raised or lowered, against the level in force before.
    public var direction: OverrideDirection { level < previousLevel ? .raised : .lowered }

    /// Recreates an override (for stores).
    public init(
        id: Identifier<TriageOverride>, assessmentID: Identifier<TriageAssessment>, computedLevel: TriageLevel,
        previousLevel: TriageLevel, level: TriageLevel, reason: String, overriddenBy: String, overriddenAt: Date,
        lowersRedFinding: Bool
    ) {
        self.id = id
        self.assessmentID = assessmentID
        self.computedLevel = computedLevel
        self.previousLevel = previousLevel
        self.level = level
        self.reason = reason
        self.overriddenBy = overriddenBy
        self.overriddenAt = overriddenAt
        self.lowersRedFinding = lowersRedFinding
    }
}

/// What someone asks for when they override an assessment.
public struct OverrideRequest: Hashable, Sendable {
    /// The level to set.
    public var level: TriageLevel
    /// Why (required, at most ``OverrideRequest/maximumReasonLength`` characters).
    public var reason: String
    /// The explicit confirmation that lowering a case in which a red discriminator fired is intended.
    public var confirmLoweringRed: Bool

    /// The longest reason kept.
    public static let maximumReasonLength = 500

    /// Creates a request.
    public init(level: TriageLevel, reason: String, confirmLoweringRed: Bool = false) {
        self.level = level
        self.reason = reason
        self.confirmLoweringRed = confirmLoweringRed
    }
}

/// The assessment an override applies to, as far as the rules need it.
public struct OverriddenAssessment: Hashable, Sendable {
    /// The assessment.
    public let id: Identifier<TriageAssessment>
    /// The engine's level.
    public let computedLevel: TriageLevel
    /// The level in force now (the latest override's, else the computed level).
    public let currentLevel: TriageLevel
    /// Whether it is the patient's latest assessment (judgement applies to the current one).
    public let isLatest: Bool

    /// Creates the value.
    public init(id: Identifier<TriageAssessment>, computedLevel: TriageLevel, currentLevel: TriageLevel, isLatest: Bool)
    {
        self.id = id
        self.computedLevel = computedLevel
        self.currentLevel = currentLevel
        self.isLatest = isLatest
    }

    /// Whether a red discriminator fired: the engine's level is red only then (the levels
    /// reached when nothing fires are green and blue, spec §2).
    public var redDiscriminatorFired: Bool { computedLevel.loweringNeedsConfirmation }
}

extension TriageOverride {
    /// The form stores keep an override in (the board entry's copy).
    public func storedJSON() throws -> Data { try JSONEncoder().encode(self) }

    /// Reads ``storedJSON()`` back.
    public init(storedJSON: Data) throws { self = try JSONDecoder().decode(TriageOverride.self, from: storedJSON) }

    /// The roles that may lower a level: a veterinarian's decision (VTL, MTS).
    public static let rolesThatMayLower: Set<Role> = [.veterinarian]

    /// Decides an override of `assessment` by `actor` (in `role`) at `now`, or throws the
    /// refusal naming the field. Pure: the caller persists the override and moves the board.
    public static func decide(
        _ request: OverrideRequest, on assessment: OverriddenAssessment, by actor: String, role: Role,
        at now: Date
    ) throws -> TriageOverride {
        guard assessment.isLatest else {
            throw DomainError.conflict("a newer assessment of this patient exists: override that one")
        }
        let reason = request.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        var errors = FieldErrorCollector()
        if reason.isEmpty { errors.add("reason", "is required: say why the level is changed") }
        if reason.count > OverrideRequest.maximumReasonLength {
            errors.add("reason", "must be at most \(OverrideRequest.maximumReasonLength) characters")
        }
        if request.level == assessment.currentLevel {
            errors.add("level", "is already \(request.level.colour): an override changes the level")
        }
        try errors.throwIfAny()
        let lowering = request.level > assessment.currentLevel
        if lowering, !rolesThatMayLower.contains(role) {
            throw DomainError.forbidden(action: "lower a triage level (a veterinarian's decision)")
        }
        let lowersRed = assessment.redDiscriminatorFired && request.level != .red
        if lowering, lowersRed, !request.confirmLoweringRed {
            throw ValidationError(
                field: "confirmLoweringRed",
                message:
                    """
                    must be true to lower a case in which a red discriminator fired; the board flags the patient \
                    until seen
                    """
            )
        }
        return TriageOverride(
            id: Identifier(), assessmentID: assessment.id, computedLevel: assessment.computedLevel,
            previousLevel: assessment.currentLevel, level: request.level, reason: reason, overriddenBy: actor,
            overriddenAt: now, lowersRedFinding: lowersRed)
    }
}

// MARK: - Trail and events

extension TriageOverride {
    /// What the audit trail keeps of the override (the reason is clinical text and stays in the record).
    public var auditDetail: String {
        "assessment=\(assessmentID) level=\(previousLevel.rawValue)->\(level.rawValue) "
            + "computed=\(computedLevel.rawValue) "
            + "direction=\(direction.rawValue)" + (lowersRedFinding ? " lowers_red_finding=confirmed" : "")
    }

    /// The `triage.level_overridden` event of an override of an assessment not on the board
    /// (one on the board publishes the board's change, ``QueueChange/events(practiceID:occurredAt:)``).
    public func event(patientID: UUID, practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        let patient = UUIDText.lowercase(patientID)
        var payload = [
            "patientID": patient, "assessmentID": assessmentID.description, "level": String(level.rawValue),
            "colour": level.colour, "previousLevel": String(previousLevel.rawValue),
            "computedLevel": String(computedLevel.rawValue), "direction": direction.rawValue,
            "overriddenBy": overriddenBy, "change": "overridden",
        ]
        if lowersRedFinding { payload["lowersRedFinding"] = "true" }
        return DomainEvent(
            practiceID: practiceID, kind: TriageEventKind.levelOverridden, occurredAt: occurredAt,
            resourceType: .patient,
            resourceID: patient, payload: payload)
    }
}
