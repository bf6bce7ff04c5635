import Foundation
import SharedKernel
import Triage

/// The rows that store triage — an assessment, an override, a restored arrival — as both
/// stores write them, new or restored; ``AssessmentRows`` reads them back.
extension AssessmentRows {
    /// An assessment's row: its case and result sealed under its id (``SealedAssessmentText``).
    public static func insert(
        id: UUID, patientID: UUID, practiceID: PracticeID, assessorID: String?, arrivalAt: Date, assessedAt: Date,
        level: Int, rulesVersion: String, sealed: SealedAssessmentText
    ) -> StoredInsert {
        StoredInsert(
            "triage_assessment",
            [
                "id": .uuid(id), "practice_id": .uuid(practiceID.rawValue), "patient_id": .uuid(patientID),
                "assessor_id": .text(assessorID), "arrival_at_ms": .milliseconds(arrivalAt),
                "assessed_at_ms": .milliseconds(assessedAt), "level": .integer(Int64(level)),
                "rules_version": .text(rulesVersion), "case_json": .text(sealed.caseText),
                "result_json": .text(sealed.resultText),
            ])
    }

    /// A new assessment's row, assessed by the scope's account.
    public static func insert(_ new: NewAssessment, rulesVersion: String, scope: AccessScope) -> StoredInsert {
        insert(
            id: new.assessment.id.rawValue, patientID: new.assessment.patientID, practiceID: scope.practiceID,
            assessorID: scope.actorID?.description, arrivalAt: new.assessment.arrival,
            assessedAt: new.assessment.assessedAt, level: new.assessment.level.rawValue, rulesVersion: rulesVersion,
            sealed: new.sealed)
    }

    /// A restored assessment's row, as the practice's other installation stored it.
    public static func insert(_ restored: ExportedAssessment, practiceID: PracticeID, seal: FieldSeal) throws
        -> StoredInsert
    {
        let ids = try restored.checkedIDs()
        return insert(
            id: ids.id, patientID: ids.patientID, practiceID: practiceID, assessorID: restored.assessorID,
            arrivalAt: restored.arrivalAt, assessedAt: restored.assessedAt, level: restored.level,
            rulesVersion: restored.rulesVersion, sealed: try restored.sealed(seal))
    }

    /// An override's row, its reason sealed.
    public static func insert(_ override: TriageOverride, patientID: UUID, seal: FieldSeal) throws -> StoredInsert {
        StoredInsert(
            "triage_override",
            [
                "id": .uuid(override.id.rawValue), "practice_id": .uuid(seal.practiceID.rawValue),
                "patient_id": .uuid(patientID), "assessment_id": .uuid(override.assessmentID.rawValue),
                "computed_level": .integer(Int64(override.computedLevel.rawValue)),
                "previous_level": .integer(Int64(override.previousLevel.rawValue)),
                "level": .integer(Int64(override.level.rawValue)),
                "reason": .text(try sealedReason(of: override, seal: seal)),
                "overridden_by": .text(override.overriddenBy), "overridden_at_ms": .milliseconds(override.overriddenAt),
                "lowers_red_finding": .flag(override.lowersRedFinding),
            ])
    }

    /// A restored arrival's row, with when the patient was first seen and left, if they were.
    public static func insert(_ arrival: ExportedTriageArrival, practiceID: PracticeID) throws -> StoredInsert {
        StoredInsert(
            "triage_arrival",
            [
                "practice_id": .uuid(practiceID.rawValue), "patient_id": .uuid(try arrival.checkedPatientID()),
                "arrival_at_ms": .milliseconds(arrival.arrivalAt), "level": .integer(Int64(arrival.level)),
                "first_seen_at_ms": .milliseconds(arrival.firstSeenAt), "left_at_ms": .milliseconds(arrival.leftAt),
            ])
    }
}
