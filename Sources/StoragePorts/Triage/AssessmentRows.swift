import Foundation
import SharedKernel
import Triage

/// Reading a stored triage assessment or override back, as both stores do: the level a
/// column holds must be a VTL level, and the sealed text must open under the row's id; either
/// failing names the column instead of showing a patient at another urgency.
public enum AssessmentRows {
    /// The VTL level stored in `column`.
    public static func level(_ value: Int, column: String) throws -> TriageLevel {
        guard let level = TriageLevel(rawValue: value) else {
            throw StoreCorruption(column: column, reason: "not a VTL level")
        }
        return level
    }

    /// An assessment from its columns: times in milliseconds, the result sealed.
    public static func assessment(
        id: UUID, patientID: UUID, assessorID: String?, arrivalMs: Int64, assessedMs: Int64, level: Int,
        rulesVersion: String, sealedResult: String, seal: FieldSeal, overrides: [TriageOverride] = []
    ) throws -> StoredAssessment {
        let result = try seal.open(sealedResult, .triageResult, id: UUIDText.lowercase(id))
        return StoredAssessment(
            id: Identifier(id), patientID: patientID, assessorID: assessorID,
            arrival: Timestamp.date(milliseconds: arrivalMs), assessedAt: Timestamp.date(milliseconds: assessedMs),
            level: try Self.level(level, column: "triage_assessment.level"), rulesVersion: rulesVersion,
            resultJSON: Data(result.utf8), overrides: overrides)
    }

    /// An override from its columns: three levels, the reason sealed.
    public static func override(
        id: UUID, assessmentID: UUID, computed: Int, previous: Int, level: Int, sealedReason: String,
        overriddenBy: String, overriddenAtMs: Int64, lowersRedFinding: Bool, seal: FieldSeal
    ) throws -> TriageOverride {
        TriageOverride(
            id: Identifier(id), assessmentID: Identifier(assessmentID),
            computedLevel: try Self.level(computed, column: "triage_override.computed_level"),
            previousLevel: try Self.level(previous, column: "triage_override.previous_level"),
            level: try Self.level(level, column: "triage_override.level"),
            reason: try seal.open(sealedReason, .triageOverrideReason, id: UUIDText.lowercase(id)),
            overriddenBy: overriddenBy, overriddenAt: Timestamp.date(milliseconds: overriddenAtMs),
            lowersRedFinding: lowersRedFinding)
    }

    /// The override a board entry shows, kept whole as sealed JSON under the patient's id;
    /// `column` names where it is kept when it does not read.
    public static func boardOverride(sealed: String, patientID: UUID, seal: FieldSeal, column: String) throws
        -> TriageOverride
    {
        let text = try seal.open(sealed, .queueOverride, id: UUIDText.lowercase(patientID))
        do { return try TriageOverride(storedJSON: Data(text.utf8)) } catch {
            throw StoreCorruption(column: column, reason: "not an override")
        }
    }

    /// An override's reason as both stores keep it, sealed under the override's id.
    public static func sealedReason(of override: TriageOverride, seal: FieldSeal) throws -> String {
        try seal.seal(override.reason, .triageOverrideReason, id: override.id.description)
    }
}
