import Foundation
import SharedKernel
import StoragePorts
import StorageSupport
import Testing
import Triage

/// Reading a stored assessment or override back, as both stores do, without a store.
@Suite("Assessment rows: a stored assessment reads back as written, or its bad column is named")
struct AssessmentRowsTests {
    let seal = FieldSeal(cipher: try! RecordCipher(keyBytes: Array(repeating: 7, count: 32)), practiceID: PracticeID())

    @Test("a sealed result opens under its assessment's id, and an unknown level names its column")
    func assessment() throws {
        let id = UUID()
        let sealed = try SealedAssessmentText(
            caseJSON: #"{"species":"dog"}"#, resultJSON: #"{"level":2}"#, assessmentID: id.uuidString, seal: seal)
        let stored = try AssessmentRows.assessment(
            id: id, patientID: UUID(), assessorID: nil, arrivalMs: 1_000, assessedMs: 61_000, level: 2,
            rulesVersion: "1.2", sealedResult: sealed.resultText, seal: seal)
        #expect(stored.level == .orange && String(decoding: stored.resultJSON, as: UTF8.self) == #"{"level":2}"#)
        #expect(stored.assessedAt.timeIntervalSince(stored.arrival) == 60)
        #expect(
            try sealed.opened(assessmentID: id.uuidString.lowercased(), seal: seal).caseJSON == #"{"species":"dog"}"#)

        #expect {
            _ = try AssessmentRows.assessment(
                id: id, patientID: UUID(), assessorID: nil, arrivalMs: 0, assessedMs: 0, level: 9,
                rulesVersion: "1.2", sealedResult: sealed.resultText, seal: seal)
        } throws: { ($0 as? StoreCorruption)?.column == "triage_assessment.level" }
        // A result moved onto another assessment does not open.
        #expect(throws: (any Error).self) {
            _ = try AssessmentRows.assessment(
                id: UUID(), patientID: UUID(), assessorID: nil, arrivalMs: 0, assessedMs: 0, level: 2,
                rulesVersion: "1.2", sealedResult: sealed.resultText, seal: seal)
        }
    }

    @Test("an override's three levels are read back by name, its reason sealed under its own id")
    func override() throws {
        let written = TriageOverride(
            id: Identifier(), assessmentID: Identifier(), computedLevel: .yellow, previousLevel: .yellow,
            level: .orange,
            reason: "owner reports collapse at home", overriddenBy: "vet-1",
            overriddenAt: Date(timeIntervalSince1970: 5),
            lowersRedFinding: false)
        let reason = try AssessmentRows.sealedReason(of: written, seal: seal)
        #expect(!reason.contains("collapse"))
        let read = try AssessmentRows.override(
            id: written.id.rawValue, assessmentID: written.assessmentID.rawValue, computed: 3, previous: 3, level: 2,
            sealedReason: reason, overriddenBy: "vet-1", overriddenAtMs: 5_000, lowersRedFinding: false, seal: seal)
        #expect(read == written)
        #expect {
            _ = try AssessmentRows.override(
                id: written.id.rawValue, assessmentID: written.assessmentID.rawValue, computed: 3, previous: 0,
                level: 2, sealedReason: reason, overriddenBy: "vet-1", overriddenAtMs: 5_000, lowersRedFinding: false,
                seal: seal)
        } throws: { ($0 as? StoreCorruption)?.column == "triage_override.previous_level" }
    }
}
