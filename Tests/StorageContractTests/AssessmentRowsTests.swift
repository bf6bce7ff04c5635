import Foundation
import SharedKernel
import StoragePorts
import StorageSupport
import Testing
import Triage

/// Reading a stored assessment or override back, as both stores do, without a store.
@Suite("Assessment rows: a stored assessment reads back as written, or its bad column is named")
struct AssessmentRowsTests {
    let practiceID = PracticeID()
    var seal: FieldSeal { FieldSeal(cipher: Self.cipher, practiceID: practiceID) }
    static let cipher = try! RecordCipher(keyBytes: Array(repeating: 7, count: 32))

    /// An assessment's row holding `sealed` under `id`.
    func row(id: UUID, level: Int64, sealed: SealedAssessmentText) -> StoredRowTests.Cells {
        StoredRowTests.cells(
            [
                "id": .text(UUIDText.lowercase(id)), "patient_id": .text(UUIDText.lowercase(UUID())),
                "arrival_at_ms": .integer(1_000), "assessed_at_ms": .integer(61_000), "level": .integer(level),
                "rules_version": .text("1.2"), "result_json": .text(sealed.resultText),
                "case_json": .text(sealed.caseText),
            ], null: ["assessor_id"])
    }

    @Test("a sealed result opens under its assessment's id, and an unknown level names its column")
    func assessment() throws {
        let id = UUID()
        let sealed = try SealedAssessmentText(
            caseJSON: #"{"species":"dog"}"#, resultJSON: #"{"level":2}"#, assessmentID: id.uuidString, seal: seal)
        let stored = try AssessmentRows.assessment(from: row(id: id, level: 2, sealed: sealed), seal: seal)
        #expect(stored.level == .orange && String(decoding: stored.resultJSON, as: UTF8.self) == #"{"level":2}"#)
        #expect(stored.assessedAt.timeIntervalSince(stored.arrival) == 60)
        #expect(stored.assessorID == nil)
        let exported = try AssessmentRows.exported(from: row(id: id, level: 2, sealed: sealed), seal: seal)
        #expect(exported.caseJSON == #"{"species":"dog"}"# && exported.level == 2)

        for read in [
            { _ = try AssessmentRows.assessment(from: row(id: id, level: 9, sealed: sealed), seal: seal) },
            { _ = try AssessmentRows.exported(from: row(id: id, level: 9, sealed: sealed), seal: seal) },
        ] as [() throws -> Void] {
            StoredRowTests.refused("triage_assessment.level", read)
        }
        // A result moved onto another assessment does not open.
        #expect(throws: (any Error).self) {
            _ = try AssessmentRows.assessment(from: row(id: UUID(), level: 2, sealed: sealed), seal: seal)
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
        let row = StoredRowTests.cells(
            [
                "id": .text(written.id.description), "assessment_id": .text(written.assessmentID.description),
                "computed_level": .integer(3), "previous_level": .integer(3), "level": .integer(2),
                "reason": .text(reason), "overridden_by": .text("vet-1"), "overridden_at_ms": .integer(5_000),
                "lowers_red_finding": .flag(false), "practice_id": .text(practiceID.description),
            ], null: [])
        let seals = { (practice: PracticeID) in FieldSeal(cipher: Self.cipher, practiceID: practice) }
        #expect(try AssessmentRows.override(from: row, seal: seals) == written)
        var broken = row
        broken.values["previous_level"] = .integer(0)
        StoredRowTests.refused("triage_override.previous_level") {
            _ = try AssessmentRows.override(from: broken, seal: seals)
        }
        // Sealed with one practice's key, the reason does not open as another practice's.
        broken = row
        broken.values["practice_id"] = .text(PracticeID().description)
        #expect(throws: (any Error).self) { _ = try AssessmentRows.override(from: broken, seal: seals) }
    }

    @Test("a triaged arrival is carried with its patient's id in lower case; a malformed id or level is refused")
    func arrival() throws {
        let patientID = UUID()
        let arrival = StoredRowTests.cells(
            [
                "patient_id": .text(patientID.uuidString), "arrival_at_ms": .integer(StoredRowTests.start),
                "level": .integer(1), "first_seen_at_ms": .integer(StoredRowTests.start + 120_000),
            ], null: ["left_at_ms"])
        let carried = try AssessmentRows.exportedArrival(from: arrival)
        #expect(carried.patientID == UUIDText.lowercase(patientID) && carried.level == 1 && carried.leftAt == nil)
        #expect(carried.firstSeenAt?.timeIntervalSince(carried.arrivalAt) == 120)
        var broken = arrival
        broken.values["patient_id"] = .text("Rex")
        StoredRowTests.refused("triage_arrival.patient_id") { _ = try AssessmentRows.exportedArrival(from: broken) }
        broken = arrival
        broken.values["level"] = .integer(6)
        StoredRowTests.refused("triage_arrival.level") { _ = try AssessmentRows.exportedArrival(from: broken) }
    }

    @Test("a board entry reads with the override it shows; an unknown status or a missing flag names its column")
    func boardEntry() throws {
        let patientID = UUID()
        let shown = TriageOverride(
            id: Identifier(), assessmentID: Identifier(), computedLevel: .green, previousLevel: .green, level: .yellow,
            reason: "pale gums", overriddenBy: "vet-2", overriddenAt: Date(timeIntervalSince1970: 60),
            lowersRedFinding: false)
        let sealedOverride = try seal.seal(
            String(decoding: try shown.storedJSON(), as: UTF8.self), .queueOverride, id: UUIDText.lowercase(patientID))
        let entry = StoredRowTests.cells(
            [
                "assessment_id": .text(shown.assessmentID.description),
                "patient_id": .text(UUIDText.lowercase(patientID)),
                "level": .integer(3), "arrival_at_ms": .integer(1_000), "assessed_at_ms": .integer(2_000),
                "status": .text("waiting"), "status_changed_at_ms": .integer(2_000),
                "practice_id": .text(practiceID.description), "override_json": .text(sealedOverride),
                "overdue_announced": .flag(true), "reassessment_announced": .flag(false),
            ], null: [])
        let seals = { (practice: PracticeID) in FieldSeal(cipher: Self.cipher, practiceID: practice) }
        let read = try AssessmentRows.queueEntry(from: entry, table: "triage_queue", seal: seals)
        #expect(read.level == .yellow && read.status == .waiting && read.override == shown && read.overdueAnnounced)
        var broken = entry
        broken.values["status"] = .text("napping")
        StoredRowTests.refused("triage_queue.status") {
            _ = try AssessmentRows.queueEntry(from: broken, table: "triage_queue", seal: seals)
        }
        broken = entry
        broken.values["reassessment_announced"] = .some(nil)
        StoredRowTests.refused("triage_queue_entry.reassessment_announced") {
            _ = try AssessmentRows.queueEntry(from: broken, table: "triage_queue_entry", seal: seals)
        }
    }
}
