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
}
