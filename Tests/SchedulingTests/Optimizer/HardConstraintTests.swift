import Testing

@testable import Scheduling

// MARK: - Each hard rule is detected

@Suite("Hard constraints H1–H7")
struct HardConstraintTests {
    static let problem = Fixtures.tinyProblem()

    /// A feasible baseline: R1 with A at 480, R2 with B at 480, R3 with A at 630.
    static let valid = [
        SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480, room: "exam#1"),
        SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 510),
        SchedulingAssignment(requestID: "R3", clinicianID: "A", start: 630, room: "surgery#1"),
    ]

    @Test func baselineIsFeasible() {
        let e = ScheduleScorer.evaluate(Self.problem, Self.valid)
        #expect(e.feasible, "\(e.violations)")
        #expect(e.assigned == 3 && e.urgentOnTime == 1 && e.urgentTotal == 1)
    }

    /// Each case changes the baseline so exactly one rule breaks.
    @Test(arguments: [
        (HardConstraint.h1, [SchedulingAssignment(requestID: "R9", clinicianID: "A", start: 480)]),
        (
            .h1,
            [
                SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480),
                SchedulingAssignment(requestID: "R1", clinicianID: "B", start: 540),
            ]
        ),
        (.h1, [SchedulingAssignment(requestID: "R1", clinicianID: "Z", start: 480)]),
        (.h2, [SchedulingAssignment(requestID: "R3", clinicianID: "B", start: 480)]),
        (.h3, [SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 482)]),
        (.h3, [SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 475)]),
        (.h4, [SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 700)]),
        (.h4, [SchedulingAssignment(requestID: "R2", clinicianID: "A", start: 590)]),
        (
            .h5,
            [
                SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480),
                SchedulingAssignment(requestID: "R2", clinicianID: "A", start: 500),
            ]
        ),
        (
            .h7,
            [
                SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480),
                SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 490),
            ]
        ),
        (.h7, [SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480, room: "surgery#1")]),
        (.h7, [SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480, room: "exam#2")]),
    ])
    func ruleIsDetected(rule: HardConstraint, assignments: [SchedulingAssignment]) {
        let e = ScheduleScorer.evaluate(Self.problem, assignments)
        #expect(!e.feasible)
        #expect(e.score == 0)
        // The checker reports rules in evaluate.py's order, so the broken rule comes first
        // (a start before the shift is also outside it: H3 then H4).
        #expect(e.violations.first?.rule == rule, "\(e.violations)")
        #expect(e.violations.allSatisfy { $0.message.hasPrefix($0.rule.rawValue + " ") })
    }

    @Test func dailyCapIsDetected() {
        var problem = Self.problem
        problem.clinicians[1].maxDaily = 1
        let e = ScheduleScorer.evaluate(
            problem,
            [
                SchedulingAssignment(requestID: "R1", clinicianID: "B", start: 480),
                SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 540),
            ])
        #expect(e.violations.map(\.rule) == [.h6])
    }

    @Test func namedRoomsMayNotOverlap() {
        var problem = Self.problem
        problem.roomTypes[0].count = 2
        let e = ScheduleScorer.evaluate(
            problem,
            [
                SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480, room: "exam#1"),
                SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 490, room: "exam#1"),
            ])
        #expect(e.violations.map(\.rule) == [.h7])
        #expect(e.violations.first?.message.contains("room exam#1") == true)
    }

    @Test func fixedBookingsOccupyTheClinician() {
        var problem = Self.problem
        problem.fixedBookings = [
            SchedulingFixedBooking(id: "X", clinicianID: "B", interval: MinuteInterval(start: 480, end: 540))
        ]
        let e = ScheduleScorer.evaluate(problem, [SchedulingAssignment(requestID: "R2", clinicianID: "B", start: 500)])
        #expect(e.violations.map(\.rule) == [.h5])
    }
}
