import Foundation
import SharedKernel
import Testing

@testable import Triage

private func assessment(
    _ patient: UUID, _ level: TriageLevel, arrivedMinutesAgo: Double, assessedMinutesAgo: Double? = nil
) -> TriageAssessment {
    TriageAssessment(
        patientID: patient, level: level, arrival: testNow.addingTimeInterval(-arrivedMinutesAgo * 60),
        assessedAt: testNow.addingTimeInterval(-(assessedMinutesAgo ?? arrivedMinutesAgo) * 60))
}

/// A queue holding one patient in `status`, reached only through legal moves.
private func queue(with status: QueueStatus, patient: UUID) throws -> TriageQueue {
    var queue = TriageQueue()
    try queue.handle(.admit(assessment(patient, .yellow, arrivedMinutesAgo: 30)), at: testNow)
    switch status {
    case .waiting: break
    case .inTreatment: try queue.handle(.move(patientID: patient, to: .inTreatment), at: testNow)
    case .done:
        try queue.handle(.move(patientID: patient, to: .inTreatment), at: testNow)
        try queue.handle(.move(patientID: patient, to: .done), at: testNow)
    case .leftWithoutBeingSeen: try queue.handle(.move(patientID: patient, to: .leftWithoutBeingSeen), at: testNow)
    }
    return queue
}

private let allPairs: [(QueueStatus, QueueStatus)] = QueueStatus.allCases.flatMap { from in
    QueueStatus.allCases.map { (from, $0) }
}

@Suite("ER queue")
struct QueueTests {
    @Test("board orders by level, then arrival; target = arrival + max wait")
    func ordering() throws {
        var queue = TriageQueue()
        let a = UUID()
        let b = UUID()
        let c = UUID()
        let d = UUID()
        try queue.handle(.admit(assessment(a, .green, arrivedMinutesAgo: 90)), at: testNow)
        try queue.handle(.admit(assessment(b, .orange, arrivedMinutesAgo: 5)), at: testNow)
        try queue.handle(.admit(assessment(c, .orange, arrivedMinutesAgo: 20)), at: testNow)
        try queue.handle(.admit(assessment(d, .blue, arrivedMinutesAgo: 300)), at: testNow)
        let board = queue.board(now: testNow)
        #expect(board.map(\.entry.patientID) == [c, b, a, d])
        #expect(board.map(\.position) == [1, 2, 3, 4])
        #expect(board[0].targetTime == testNow.addingTimeInterval(-5 * 60))
        #expect(board[0].isOverdue && board[0].minutesLeft == -5 && board[0].overdueMinutes == 5)
        #expect(!board[1].isOverdue && board[1].minutesLeft == 10)
        #expect(board[2].minutesLeft == 30)
        #expect(board[3].isOverdue && board[3].overdueMinutes == 60)
    }

    @Test("a red patient is due on arrival and overdue a moment later; minutes left round down")
    func redIsDueAtOnce() throws {
        var queue = TriageQueue()
        let patient = UUID()
        try queue.handle(
            .admit(TriageAssessment(patientID: patient, level: .red, arrival: testNow, assessedAt: testNow)),
            at: testNow)
        #expect(queue.board(now: testNow)[0].isOverdue == false)
        #expect(queue.board(now: testNow)[0].minutesLeft == 0)
        #expect(queue.board(now: testNow.addingTimeInterval(1))[0].isOverdue)
        var orange = TriageQueue()
        try orange.handle(
            .admit(TriageAssessment(patientID: patient, level: .orange, arrival: testNow, assessedAt: testNow)),
            at: testNow)
        #expect(orange.board(now: testNow.addingTimeInterval(30))[0].minutesLeft == 14)
    }

    @Test("re-triage replaces the level and the board follows the latest assessment, keeping arrival")
    func retriage() throws {
        var queue = TriageQueue()
        let patient = UUID()
        let other = UUID()
        try queue.handle(.admit(assessment(other, .yellow, arrivedMinutesAgo: 40)), at: testNow)
        try queue.handle(.admit(assessment(patient, .green, arrivedMinutesAgo: 30)), at: testNow)
        #expect(queue.board(now: testNow).map(\.entry.patientID) == [other, patient])
        let change = try queue.handle(
            .admit(assessment(patient, .orange, arrivedMinutesAgo: 2, assessedMinutesAgo: 1)), at: testNow)
        guard case .retriaged(let previous, let current) = change else {
            Issue.record("expected a re-triage")
            return
        }
        #expect(previous.level == .green && current.level == .orange)
        #expect(current.arrival == previous.arrival)
        #expect(queue.board(now: testNow).map(\.entry.patientID) == [patient, other])
        #expect(queue.entries.count == 2)
        #expect(queue.board(now: testNow)[0].targetTime == previous.arrival.addingTimeInterval(15 * 60))
    }

    @Test("an older or repeated assessment does not replace the latest one")
    func staleAssessment() throws {
        var queue = TriageQueue()
        let patient = UUID()
        let latest = assessment(patient, .orange, arrivedMinutesAgo: 30, assessedMinutesAgo: 5)
        try queue.handle(.admit(latest), at: testNow)
        #expect(throws: QueueError.self) {
            try queue.handle(
                .admit(assessment(patient, .blue, arrivedMinutesAgo: 30, assessedMinutesAgo: 20)), at: testNow)
        }
        #expect(throws: QueueError.self) { try queue.handle(.admit(latest), at: testNow) }
        #expect(queue.entry(for: patient)?.level == .orange)
    }

    @Test("legal transitions are exactly waiting→inTreatment, waiting→leftWithoutBeingSeen, inTreatment→done")
    func legalTransitions() throws {
        for (from, to) in [
            (QueueStatus.waiting, QueueStatus.inTreatment), (.waiting, .leftWithoutBeingSeen), (.inTreatment, .done),
        ] {
            let patient = UUID()
            var queue = try queue(with: from, patient: patient)
            let change = try queue.handle(.move(patientID: patient, to: to), at: testNow)
            #expect(change.entry.status == to)
            #expect(queue.entry(for: patient)?.status == to)
        }
    }

    @Test(
        "every illegal transition is refused and leaves the queue unchanged",
        arguments: allPairs.filter { !$0.0.canTransition(to: $0.1) })
    func illegalTransition(from: QueueStatus, to: QueueStatus) throws {
        let patient = UUID()
        var queue = try queue(with: from, patient: patient)
        let before = queue
        #expect(throws: QueueError.illegalTransition(patientID: patient, from: from, to: to)) {
            try queue.handle(.move(patientID: patient, to: to), at: testNow)
        }
        #expect(queue == before)
    }

    @Test("moving an unknown patient is refused")
    func unknownPatient() {
        var queue = TriageQueue()
        let stranger = UUID()
        #expect(throws: QueueError.notInQueue(patientID: stranger)) {
            try queue.handle(.move(patientID: stranger, to: .inTreatment), at: testNow)
        }
        #expect(QueueError.notInQueue(patientID: stranger).domainError == .notFound(resource: "queue entry"))
    }

    @Test("done and left patients leave the board; a new assessment after discharge is a new arrival")
    func terminalStates() throws {
        let patient = UUID()
        var queue = try queue(with: .done, patient: patient)
        #expect(queue.board(now: testNow).isEmpty)
        let change = try queue.handle(.admit(assessment(patient, .red, arrivedMinutesAgo: 0)), at: testNow)
        guard case .admitted(let entry) = change else {
            Issue.record("expected admission")
            return
        }
        #expect(entry.status == .waiting && entry.arrival == testNow)
        #expect(queue.board(now: testNow).count == 1)
    }

    @Test("patients in treatment stay on the board but are never overdue")
    func inTreatmentNotOverdue() throws {
        let patient = UUID()
        let queue = try queue(with: .inTreatment, patient: patient)
        let row = try #require(queue.board(now: testNow.addingTimeInterval(7200)).first)
        #expect(row.entry.status == .inTreatment)
        #expect(!row.isOverdue)
    }

    @Test("decide is pure: it returns a change without touching the queue")
    func decideIsPure() throws {
        let queue = TriageQueue()
        let change = try queue.decide(.admit(assessment(UUID(), .yellow, arrivedMinutesAgo: 1)), at: testNow)
        #expect(queue.entries.isEmpty)
        var applied = queue
        applied.apply(change)
        #expect(applied.entries == [change.entry])
    }

    @Test(
        """
        events: admission and re-triage publish patient.triaged and triage.queue_changed; status changes only the latter
        """
    )
    func events() throws {
        var queue = TriageQueue()
        let practice = PracticeID()
        let patient = UUID()
        let admitted = try queue.handle(.admit(assessment(patient, .yellow, arrivedMinutesAgo: 10)), at: testNow)
        let admittedEvents = admitted.events(practiceID: practice, occurredAt: testNow)
        #expect(admittedEvents.map(\.kind) == ["patient.triaged", "triage.queue_changed"])
        #expect(admittedEvents.allSatisfy { $0.practiceID == practice && $0.occurredAt == testNow })
        #expect(admittedEvents[0].payload["level"] == "3")
        #expect(admittedEvents[0].payload["colour"] == "yellow")
        #expect(admittedEvents[0].resourceID == patient.uuidString.lowercased())

        let retriaged = try queue.handle(
            .admit(assessment(patient, .red, arrivedMinutesAgo: 10, assessedMinutesAgo: 1)), at: testNow)
        let retriagedEvents = retriaged.events(practiceID: practice, occurredAt: testNow)
        #expect(retriagedEvents.map(\.kind) == ["patient.triaged", "triage.queue_changed"])
        #expect(retriagedEvents[0].payload["previousLevel"] == "3")
        #expect(retriagedEvents[0].payload["level"] == "1")

        let moved = try queue.handle(.move(patientID: patient, to: .inTreatment), at: testNow)
        let movedEvents = moved.events(practiceID: practice, occurredAt: testNow)
        #expect(movedEvents.map(\.kind) == ["triage.queue_changed"])
        #expect(movedEvents[0].payload["previousStatus"] == "waiting")
        #expect(movedEvents[0].payload["status"] == "inTreatment")
    }

    @Test("an assessment can be made straight from an engine result")
    func assessmentFromResult() throws {
        let result = try triage(json: specExample)
        let patient = UUID()
        let made = TriageAssessment(patientID: patient, result: result)
        #expect(made.level == .orange && made.arrival == result.arrival && made.assessedAt == result.assessedAt)
    }

    @Test("a board of 500 waiting patients is fully ordered")
    func largeBoard() throws {
        var rng = SeededGenerator(seed: 99)
        var queue = TriageQueue()
        for _ in 0..<500 {
            let level = TriageLevel.allCases.randomElement(using: &rng)!
            try queue.handle(
                .admit(assessment(UUID(), level, arrivedMinutesAgo: Double.random(in: 0...300, using: &rng))),
                at: testNow)
        }
        let board = queue.board(now: testNow)
        #expect(board.count == 500)
        for (previous, next) in zip(board, board.dropFirst()) {
            #expect(
                previous.entry.level < next.entry.level
                    || (previous.entry.level == next.entry.level && previous.entry.arrival <= next.entry.arrival))
        }
    }

    @Test(
        "the moves a board offers for each status are exactly those the queue accepts", arguments: QueueStatus.allCases)
    func allowedMovesAreAccepted(status: QueueStatus) throws {
        let patient = UUID()
        for next in QueueStatus.allCases {
            let accepted =
                (try? queue(with: status, patient: patient).decide(.move(patientID: patient, to: next), at: testNow))
                != nil
            #expect(accepted == status.allowedMoves.contains(next), "\(status) → \(next)")
        }
        #expect(QueueStatus.waiting.allowedMoves == [.inTreatment, .leftWithoutBeingSeen])
    }
}
