import Foundation
import SharedKernel
import Triage

/// A triage assessment's case and result as both stores keep them: each sealed under
/// ``SealedField`` with the assessment's id as context, so neither can be read from a stolen
/// file or dump, nor moved onto another assessment. Sealed and opened here once, so an
/// assessment written by one store, or carried by an export, opens in the other.
public struct SealedAssessmentText: Sendable, Equatable {
    /// The sealed case JSON.
    public let caseText: String
    /// The sealed result JSON.
    public let resultText: String

    /// The columns as read back from a row.
    public init(caseText: String, resultText: String) {
        self.caseText = caseText
        self.resultText = resultText
    }

    /// Seals an assessment's case and result JSON under its id.
    public init(caseJSON: String, resultJSON: String, assessmentID: String, seal: FieldSeal) throws {
        caseText = try seal.seal(caseJSON, .triageCase, id: assessmentID)
        resultText = try seal.seal(resultJSON, .triageResult, id: assessmentID)
    }

    /// The case and result JSON, opened; a column that does not open under this id fails
    /// naming it.
    public func opened(assessmentID: String, seal: FieldSeal) throws -> (caseJSON: String, resultJSON: String) {
        (
            try seal.open(caseText, .triageCase, id: assessmentID),
            try seal.open(resultText, .triageResult, id: assessmentID)
        )
    }
}

extension ExportedAssessment {
    /// A stored assessment as an export carries it: its case and result opened, its ids as
    /// lowercase text.
    public init(
        id: UUID, patientID: UUID, assessorID: String?, arrivalAt: Date, assessedAt: Date, level: Int,
        rulesVersion: String, sealed: SealedAssessmentText, seal: FieldSeal
    ) throws {
        let opened = try sealed.opened(assessmentID: id.uuidString, seal: seal)
        self.init(
            id: UUIDText.lowercase(id), patientID: UUIDText.lowercase(patientID), assessorID: assessorID,
            arrivalAt: arrivalAt, assessedAt: assessedAt, level: level, rulesVersion: rulesVersion,
            caseJSON: opened.caseJSON, resultJSON: opened.resultJSON)
    }

    /// The carried case and result, sealed for the store the export is restored into.
    public func sealed(_ seal: FieldSeal) throws -> SealedAssessmentText {
        try SealedAssessmentText(caseJSON: caseJSON, resultJSON: resultJSON, assessmentID: id, seal: seal)
    }
}

/// A new triage assessment as both stores write it: made from the engine's `result`, the
/// result encoded, and the case and result sealed under the assessment's id.
public struct NewAssessment: Sendable {
    /// The assessment.
    public let assessment: TriageAssessment
    /// The result as stored JSON (compact), which the recording decision also keeps.
    public let resultJSON: Data
    /// The sealed case and result columns.
    public let sealed: SealedAssessmentText

    /// The assessment of `patientID` arriving at `arrival`, its case JSON as submitted.
    public init(patientID: UUID, caseJSON: Data, result: TriageResult, arrival: Date, seal: FieldSeal) throws {
        assessment = TriageAssessment(
            patientID: patientID, level: result.level, arrival: arrival, assessedAt: result.assessedAt)
        resultJSON = result.encodedJSON(prettyPrinted: false)
        sealed = try SealedAssessmentText(
            caseJSON: String(decoding: caseJSON, as: UTF8.self),
            resultJSON: String(decoding: resultJSON, as: UTF8.self),
            assessmentID: assessment.id.description, seal: seal)
    }
}
