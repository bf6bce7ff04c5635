import Foundation
import SharedKernel
import Testing

@testable import Triage

/// Overrides, re-assessment and the board's announcements: the rules of the emergency desk
/// around the engine (VTL/MTS judgement, spec §2.5).
@Suite("Clinical judgement, re-assessment and board deadlines")
struct ClinicalJudgementTests {
    static let patient = UUID()

    /// An assessment of `computed` level, the latest of its patient, currently at `current`.
    static func assessment(_ computed: TriageLevel, current: TriageLevel? = nil, latest: Bool = true)
        -> OverriddenAssessment
    {
        OverriddenAssessment(
            id: Identifier(), computedLevel: computed, currentLevel: current ?? computed, isLatest: latest)
    }

    static func fieldErrors(_ body: () throws -> Void) -> [String] {
        do { try body() } catch let error as ValidationError { return error.errors.map(\.field) } catch {
            return ["unexpected \(error)"]
        }
        return []
    }

    @Test("anyone who may triage can raise a level with a reason: a receptionist raises green to orange")
    func receptionistRaises() throws {
        let override = try TriageOverride.decide(
            OverrideRequest(level: .orange, reason: "  owner says he collapsed twice  "),
            on: Self.assessment(.green), by: "reception-1", role: .receptionist, at: testNow)
        #expect(override.direction == .raised)
        #expect(override.computedLevel == .green)
        #expect(override.previousLevel == .green)
        #expect(override.level == .orange)
        #expect(override.reason == "owner says he collapsed twice")
        #expect(override.overriddenBy == "reception-1")
        #expect(override.overriddenAt == testNow)
        #expect(!override.lowersRedFinding)
    }

    @Test("lowering is a veterinarian's decision: a technician, a receptionist and an administrator are refused")
    func onlyVeterinariansLower() throws {
        for role in [Role.technician, .receptionist, .administrator] {
            #expect(throws: DomainError.forbidden(action: "lower a triage level (a veterinarian's decision)")) {
                try TriageOverride.decide(
                    OverrideRequest(level: .green, reason: "settled"), on: Self.assessment(.yellow), by: "x",
                    role: role, at: testNow)
            }
        }
        let lowered = try TriageOverride.decide(
            OverrideRequest(level: .green, reason: "settled"), on: Self.assessment(.yellow), by: "vet",
            role: .veterinarian, at: testNow)
        #expect(lowered.direction == .lowered)
        #expect(!lowered.lowersRedFinding)
    }

    @Test(
        """
        lowering a case in which a red discriminator fired needs the explicit confirmation, and is marked for the board
        """
    )
    func loweringRedNeedsConfirmation() throws {
        let red = Self.assessment(.red)
        let refused = Self.fieldErrors {
            _ = try TriageOverride.decide(
                OverrideRequest(level: .yellow, reason: "post-ictal, stable"), on: red, by: "vet",
                role: .veterinarian, at: testNow)
        }
        #expect(refused == ["confirmLoweringRed"])
        let confirmed = try TriageOverride.decide(
            OverrideRequest(level: .yellow, reason: "post-ictal, stable", confirmLoweringRed: true),
            on: red, by: "vet", role: .veterinarian, at: testNow)
        #expect(confirmed.lowersRedFinding)
        // A red case already overridden to orange and lowered again still needs the confirmation.
        let again = Self.fieldErrors {
            _ = try TriageOverride.decide(
                OverrideRequest(level: .green, reason: "fine"), on: Self.assessment(.red, current: .orange),
                by: "vet", role: .veterinarian, at: testNow)
        }
        #expect(again == ["confirmLoweringRed"])
    }

    @Test("a reason is required, the level must change, and only the latest assessment is overridden")
    func refusals() throws {
        #expect(
            Self.fieldErrors {
                _ = try TriageOverride.decide(
                    OverrideRequest(level: .red, reason: " \n "), on: Self.assessment(.orange), by: "x",
                    role: .technician,
                    at: testNow)
            } == ["reason"])
        #expect(
            Self.fieldErrors {
                _ = try TriageOverride.decide(
                    OverrideRequest(level: .orange, reason: "same"), on: Self.assessment(.red, current: .orange),
                    by: "x",
                    role: .veterinarian, at: testNow)
            } == ["level"])
        #expect(
            Self.fieldErrors {
                _ = try TriageOverride.decide(
                    OverrideRequest(level: .red, reason: String(repeating: "a", count: 501)),
                    on: Self.assessment(.orange),
                    by: "x", role: .technician, at: testNow)
            } == ["reason"])
        #expect(throws: DomainError.conflict("a newer assessment of this patient exists: override that one")) {
            try TriageOverride.decide(
                OverrideRequest(level: .red, reason: "worse"), on: Self.assessment(.orange, latest: false), by: "x",
                role: .technician, at: testNow)
        }
    }

    /// A queue with the patient admitted at `level`, arrived and assessed `minutesAgo`.
    static func queue(_ level: TriageLevel, minutesAgo: Double) throws -> (TriageQueue, TriageAssessment) {
        var queue = TriageQueue()
        let assessment = TriageAssessment(
            patientID: patient, level: level, arrival: testNow.addingTimeInterval(-minutesAgo * 60),
            assessedAt: testNow.addingTimeInterval(-minutesAgo * 60))
        try queue.handle(.admit(assessment), at: assessment.assessedAt)
        return (queue, assessment)
    }

    @Test(
        """
        on the board the level and target follow the override; the flag stays until the patient is seen; a new \
        assessment clears it
        """
    )
    func boardFollowsOverride() throws {
        var (queue, assessment) = try Self.queue(.red, minutesAgo: 2)
        let override = try TriageOverride.decide(
            OverrideRequest(level: .yellow, reason: "stable", confirmLoweringRed: true),
            on: OverriddenAssessment(id: assessment.id, computedLevel: .red, currentLevel: .red, isLatest: true),
            by: "vet", role: .veterinarian, at: testNow)
        let change = try queue.handle(.override(patientID: Self.patient, override), at: testNow)
        guard case .overridden(let previous, let current) = change else {
            Issue.record("expected an override, got \(change)")
            return
        }
        #expect(previous.level == .red)
        #expect(current.level == .yellow)
        #expect(current.targetTime == assessment.arrival.addingTimeInterval(3600))
        #expect(current.isLoweredRedAwaitingCare)
        #expect(queue.board(now: testNow).first?.entry.isLoweredRedAwaitingCare == true)
        let events = change.events(practiceID: PracticeID(), occurredAt: testNow)
        #expect(events.map(\.kind) == [TriageEventKind.levelOverridden, TriageEventKind.queueChanged])
        #expect(events[0].payload["direction"] == "lowered")
        #expect(events[0].payload["computedLevel"] == "1")

        try queue.handle(.move(patientID: Self.patient, to: .inTreatment), at: testNow)
        #expect(queue.entry(for: Self.patient)?.isLoweredRedAwaitingCare == false)

        // Another patient: re-triaged after an override, the new assessment stands on its own.
        var (other, first) = try Self.queue(.green, minutesAgo: 10)
        let raise = try TriageOverride.decide(
            OverrideRequest(level: .orange, reason: "worried"),
            on: OverriddenAssessment(id: first.id, computedLevel: .green, currentLevel: .green, isLatest: true),
            by: "r", role: .receptionist, at: testNow)
        try other.handle(.override(patientID: Self.patient, raise), at: testNow)
        try other.handle(
            .admit(
                TriageAssessment(
                    patientID: Self.patient, level: .yellow, arrival: first.arrival,
                    assessedAt: testNow.addingTimeInterval(60))), at: testNow.addingTimeInterval(60))
        #expect(other.entry(for: Self.patient)?.override == nil)
        #expect(other.entry(for: Self.patient)?.level == .yellow)
    }

    @Test("an override of an assessment the board no longer follows is refused as stale")
    func staleOverride() throws {
        var (queue, first) = try Self.queue(.yellow, minutesAgo: 30)
        try queue.handle(
            .admit(
                TriageAssessment(patientID: Self.patient, level: .green, arrival: first.arrival, assessedAt: testNow)),
            at: testNow)
        let override = try TriageOverride.decide(
            OverrideRequest(level: .orange, reason: "x"),
            on: OverriddenAssessment(id: first.id, computedLevel: .yellow, currentLevel: .yellow, isLatest: true),
            by: "r", role: .receptionist, at: testNow)
        #expect(throws: QueueError.staleAssessment(patientID: Self.patient, assessmentID: first.id)) {
            try queue.handle(.override(patientID: Self.patient, override), at: testNow)
        }
    }

    @Test(
        """
        a waiting patient past the maximum wait is due a re-assessment; after one, again a maximum wait (at least 15 \
        min) later
        """
    )
    func reassessmentDue() throws {
        // Yellow (60 min) arrived 61 minutes ago: overdue and due a re-assessment since the target.
        var (queue, assessment) = try Self.queue(.yellow, minutesAgo: 61)
        var row = try #require(queue.board(now: testNow).first)
        #expect(row.isOverdue)
        #expect(row.isReassessmentDue)
        #expect(row.entry.reassessmentDueAt == assessment.arrival.addingTimeInterval(3600))
        // Re-assessed in place now at yellow: the board keeps the arrival; the next is due an hour from now.
        try queue.handle(
            .admit(
                TriageAssessment(
                    patientID: Self.patient, level: .yellow, arrival: assessment.arrival, assessedAt: testNow)),
            at: testNow)
        #expect(queue.entries.count == 1)
        row = try #require(queue.board(now: testNow).first)
        #expect(row.entry.arrival == assessment.arrival)
        #expect(!row.isReassessmentDue)
        #expect(row.entry.reassessmentDueAt == testNow.addingTimeInterval(3600))
        // Red's wait is zero: its re-assessment falls due 15 minutes after each assessment.
        let (red, redAssessment) = try Self.queue(.red, minutesAgo: 14)
        #expect(red.board(now: testNow).first?.isReassessmentDue == false)
        #expect(red.entry(for: Self.patient)?.reassessmentDueAt == redAssessment.assessedAt.addingTimeInterval(15 * 60))
        // In treatment: never due.
        var treated = try Self.queue(.yellow, minutesAgo: 90).0
        try treated.handle(.move(patientID: Self.patient, to: .inTreatment), at: testNow)
        #expect(treated.board(now: testNow).first?.isReassessmentDue == false)
    }

    @Test("each deadline is announced once: overdue and re-assessment due, then nothing until a new assessment")
    func announcedOnce() throws {
        var (queue, assessment) = try Self.queue(.orange, minutesAgo: 20)
        let due = queue.dueAnnouncements(at: testNow)
        #expect(due.map(\.deadline) == [.overdue, .reassessmentDue])
        for item in due {
            let change = try queue.handle(.announce(patientID: item.patientID, item.deadline), at: testNow)
            let kinds = change.events(practiceID: PracticeID(), occurredAt: testNow).map(\.kind)
            #expect(
                kinds == [item.deadline == .overdue ? TriageEventKind.patientOverdue : TriageEventKind.reassessmentDue])
        }
        #expect(queue.dueAnnouncements(at: testNow.addingTimeInterval(600)).isEmpty)
        #expect(throws: QueueError.nothingToAnnounce(patientID: Self.patient, deadline: .overdue)) {
            try queue.handle(.announce(patientID: Self.patient, .overdue), at: testNow)
        }
        // Re-assessed at orange: still past the target (arrival + 15 min), so overdue is announced
        // again for the new level, and the re-assessment 15 minutes after this one.
        try queue.handle(
            .admit(
                TriageAssessment(
                    patientID: Self.patient, level: .orange, arrival: assessment.arrival, assessedAt: testNow)),
            at: testNow)
        #expect(queue.dueAnnouncements(at: testNow).map(\.deadline) == [.overdue])
        #expect(
            queue.dueAnnouncements(at: testNow.addingTimeInterval(15 * 60)).map(\.deadline) == [
                .overdue, .reassessmentDue,
            ])
    }
}
