import Foundation
import SharedKernel
import StoragePorts
import Testing
import Triage

/// The assessment recording decision both stores ask, without a store: who joins or moves on
/// the ER board, and what the practice's trail and live stream hear of it.
@Suite("Assessment recording: one decision for both stores")
struct AssessmentRecordingTests {
    let scope = AccessScope.system(PracticeID())
    let patient = UUID()
    let arrival = Date(timeIntervalSince1970: 1_790_000_000)

    func assessed(spo2: Double, at offset: TimeInterval) -> (TriageAssessment, TriageResult) {
        let now = arrival.addingTimeInterval(offset)
        let result = TriageEngine(clock: .fixed(now)).evaluate(
            TriageCase(species: .dog, vitals: Vitals(spo2: spo2)), arrival: arrival)
        let assessment = TriageAssessment(
            patientID: patient, level: result.level, arrival: arrival, assessedAt: result.assessedAt)
        return (assessment, result)
    }

    func decide(
        _ pair: (TriageAssessment, TriageResult), admit: Bool = true, entry: QueueEntry? = nil, at offset: TimeInterval
    ) throws -> AssessmentRecording {
        try AssessmentRecording.decide(
            pair.0, result: pair.1, resultJSON: Data("{}".utf8), admitToQueue: admit, boardEntry: entry, scope: scope,
            now: arrival.addingTimeInterval(offset))
    }

    @Test("a first assessment admits the patient: the trail names its level, the stream hears the triage and the board")
    func admits() throws {
        let orange = assessed(spo2: 85, at: 60)
        let decision = try decide(orange, at: 60)
        #expect(decision.change?.entry.status == .waiting && decision.change?.entry.level == .orange)
        #expect(decision.events.map(\.kind) == [TriageEventKind.patientTriaged, TriageEventKind.queueChanged])
        #expect(decision.audit.action == .triageAssess)
        #expect(decision.audit.detail == "level=\(TriageLevel.orange.rawValue) assessment=\(orange.0.id)")
        #expect(decision.stored.id == orange.0.id && decision.stored.level == .orange)

        // A re-triage moves the entry it finds to the latest assessment.
        let worse = assessed(spo2: 70, at: 300)
        let moved = try decide(worse, entry: decision.change?.entry, at: 300)
        #expect(moved.change?.entry.assessmentID == worse.0.id && moved.change?.entry.level == worse.1.level)
        #expect(moved.events.map(\.kind) == [TriageEventKind.patientTriaged, TriageEventKind.queueChanged])
    }

    @Test("an intake booked for later stays off the board, and its triage is still news")
    func keptOff() throws {
        let green = assessed(spo2: 98, at: 60)
        let decision = try decide(green, admit: false, at: 60)
        #expect(decision.change == nil)
        #expect(decision.events.map(\.kind) == [TriageEventKind.patientTriaged])
    }

    func stored(_ pair: (TriageAssessment, TriageResult)) -> StoredAssessment {
        StoredAssessment(
            id: pair.0.id, patientID: patient, assessorID: nil, arrival: arrival, assessedAt: pair.1.assessedAt,
            level: pair.1.level, rulesVersion: pair.1.rulesVersion, resultJSON: Data("{}".utf8))
    }

    func clinician(_ role: Role) -> AccessScope {
        AccessScope(practiceID: scope.practiceID, actorID: UserID(), role: role, requestID: nil)
    }

    @Test("an override of the assessment the patient waits on re-ranks the board; the trail names who and why")
    func overrideMovesTheBoard() throws {
        let orange = assessed(spo2: 85, at: 60)
        let waiting = try decide(orange, at: 60).change?.entry
        let vet = clinician(.veterinarian)
        let raised = try OverrideRecording.decide(
            OverrideRequest(level: .red, reason: "tiring fast"), on: stored(orange), isLatest: true,
            boardEntry: waiting, scope: vet, now: arrival.addingTimeInterval(120))
        #expect(raised.override.level == .red && raised.override.overriddenBy == vet.actorID?.description)
        #expect(raised.change?.entry.level == .red)
        #expect(raised.events.map(\.kind) == [TriageEventKind.levelOverridden, TriageEventKind.queueChanged])
        #expect(raised.audit.action == .triageOverride)
        #expect(raised.audit.resourceID == UUIDText.lowercase(patient))
        #expect(raised.audit.detail == raised.override.auditDetail)
    }

    @Test(
        "an override off the board is its own event; a stale assessment, a nurse lowering, no one signed in: refused"
    )
    func overrideRefusals() throws {
        let orange = assessed(spo2: 85, at: 60)
        let now = arrival.addingTimeInterval(120)
        let offBoard = try OverrideRecording.decide(
            OverrideRequest(level: .red, reason: "tiring fast"), on: stored(orange), isLatest: true,
            boardEntry: nil, scope: clinician(.veterinarian), now: now)
        #expect(offBoard.change == nil)
        #expect(offBoard.events.map(\.kind) == [TriageEventKind.levelOverridden])

        let lower = OverrideRequest(level: .yellow, reason: "settled on oxygen")
        #expect(throws: DomainError.self) {
            try OverrideRecording.decide(
                lower, on: stored(orange), isLatest: false, boardEntry: nil, scope: clinician(.veterinarian), now: now)
        }
        #expect(throws: DomainError.self) {
            try OverrideRecording.decide(
                lower, on: stored(orange), isLatest: true, boardEntry: nil, scope: clinician(.technician), now: now)
        }
        #expect(throws: DomainError.forbidden(action: "override a triage level")) {
            try OverrideRecording.decide(
                lower, on: stored(orange), isLatest: true, boardEntry: nil, scope: scope, now: now)
        }
        // The vet may lower it.
        let lowered = try OverrideRecording.decide(
            lower, on: stored(orange), isLatest: true, boardEntry: nil, scope: clinician(.veterinarian), now: now)
        #expect(lowered.override.level == .yellow)
    }
}
