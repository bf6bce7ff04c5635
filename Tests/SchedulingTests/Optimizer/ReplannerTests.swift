import SharedKernel
import Testing

@testable import Scheduling

// MARK: - Re-planning around an absence

@Suite("Re-planning when a clinician is unavailable")
struct ReplannerTests {
    static func clinician(_ id: String, _ skills: [String: Int], start: Int = 480, end: Int = 720)
        -> SchedulingClinician
    {
        SchedulingClinician(
            id: id, skills: skills, maxDaily: 6, shifts: [MinuteInterval(start: start, end: end)], targetMinutes: 120)
    }

    static func problem(_ clinicians: [SchedulingClinician], _ requests: [SchedulingRequest]) -> SchedulingProblem {
        SchedulingProblem(
            horizon: MinuteInterval(start: 0, end: 1440), granularity: 5, clinicians: clinicians,
            roomTypes: [SchedulingRoomType(id: "exam", count: 3), SchedulingRoomType(id: "surgery", count: 1)],
            requests: requests)
    }

    @Test func displacedAppointmentsMoveOnceAndOthersStay() throws {
        let problem = Self.problem(
            [
                Self.clinician("A", ["general": 5]), Self.clinician("B", ["general": 3]),
                Self.clinician("C", ["general": 2]),
            ],
            [
                Fixtures.request("R1", "general", 30, urgency: 5, earliest: 480, deadline: 540),
                Fixtures.request("R2", "general", 30, urgency: 1, earliest: 480, deadline: 1400),
                Fixtures.request("R3", "general", 60, urgency: 2, earliest: 480, deadline: 1400),
            ])
        let schedule = [
            SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 480, room: "exam#1"),
            SchedulingAssignment(requestID: "R2", clinicianID: "A", start: 510, room: "exam#1"),
            SchedulingAssignment(requestID: "R3", clinicianID: "B", start: 480, room: "exam#2"),
        ]
        let plan = try ScheduleReplanner.clinicianUnavailable(problem, assignments: schedule, clinicianID: "A", day: 0)
        #expect(plan.unplaced.isEmpty)
        #expect(Set(plan.moves.map(\.from.requestID)) == ["R1", "R2"])
        #expect(plan.moves.allSatisfy { $0.to.clinicianID != "A" })
        #expect(plan.assignments.contains(schedule[2]))
        let r1 = try #require(plan.assignments.first { $0.requestID == "R1" })
        #expect(r1.start <= 540)
        #expect(ScheduleScorer.evaluate(problem, plan.assignments).feasible)
    }

    @Test func unqualifiedAndLateOptionsAreReportedNotBooked() throws {
        let problem = Self.problem(
            [
                Self.clinician("A", ["general": 4, "surgery": 5]),
                Self.clinician("B", ["general": 3], start: 600, end: 720),
            ],
            [
                Fixtures.request("S1", "surgery", 60, urgency: 3, earliest: 480, deadline: 1400),
                Fixtures.request("U1", "general", 30, urgency: 5, earliest: 480, deadline: 540),
            ])
        let schedule = [
            SchedulingAssignment(requestID: "S1", clinicianID: "A", start: 540),
            SchedulingAssignment(requestID: "U1", clinicianID: "A", start: 480),
        ]
        let plan = try ScheduleReplanner.clinicianUnavailable(problem, assignments: schedule, clinicianID: "A", day: 0)
        #expect(plan.moves.isEmpty)
        #expect(
            Set(plan.unplaced.map { "\($0.assignment.requestID):\($0.reason)" })
                == ["S1:noQualifiedClinician", "U1:noOnTimeSlot"])
        #expect(plan.assignments.isEmpty)
    }

    @Test func aTwoMoveChainMakesRoomForAnUrgentCase() throws {
        let problem = Self.problem(
            [Self.clinician("A", ["general": 4]), Self.clinician("B", ["general": 3])],
            [
                Fixtures.request("U1", "general", 30, urgency: 5, earliest: 480, deadline: 485),
                Fixtures.request("R4", "general", 60, urgency: 1, earliest: 480, deadline: 1400),
            ])
        let schedule = [
            SchedulingAssignment(requestID: "U1", clinicianID: "A", start: 480),
            SchedulingAssignment(requestID: "R4", clinicianID: "B", start: 480),
        ]
        let plan = try ScheduleReplanner.clinicianUnavailable(problem, assignments: schedule, clinicianID: "A", day: 0)
        #expect(plan.unplaced.isEmpty)
        #expect(plan.moves.count == 2)
        let u1 = try #require(plan.assignments.first { $0.requestID == "U1" })
        #expect(u1.clinicianID == "B" && u1.start <= 485)
        #expect(ScheduleScorer.evaluate(problem, plan.assignments).feasible)
    }

    @Test func otherDaysAreUntouched() throws {
        var problem = Self.problem(
            [Self.clinician("A", ["general": 4]), Self.clinician("B", ["general": 3])],
            [Fixtures.request("R1", "general", 30, urgency: 1, earliest: 480, deadline: 5000)])
        problem.horizon = MinuteInterval(start: 0, end: 2880)
        problem.clinicians[0].shifts.append(MinuteInterval(start: 1920, end: 2160))
        let schedule = [SchedulingAssignment(requestID: "R1", clinicianID: "A", start: 1920)]
        let plan = try ScheduleReplanner.clinicianUnavailable(problem, assignments: schedule, clinicianID: "A", day: 0)
        #expect(plan.moves.isEmpty && plan.unplaced.isEmpty)
        #expect(plan.assignments == schedule)
    }

    @Test func invalidInputIsRefused() {
        let problem = Fixtures.tinyProblem()
        #expect(throws: ValidationError.self) {
            _ = try ScheduleReplanner.clinicianUnavailable(problem, assignments: [], clinicianID: "nobody", day: 0)
        }
        #expect(throws: ValidationError.self) {
            _ = try ScheduleReplanner.clinicianUnavailable(
                problem, assignments: [SchedulingAssignment(requestID: "R3", clinicianID: "B", start: 480)],
                clinicianID: "A", day: 0)
        }
    }

    /// On a benchmark schedule: nothing urgent becomes late, every move leaves the absent
    /// clinician's day, and the result stays feasible.
    @Test func benchmarkScheduleStaysFeasible() async throws {
        let problem = try Fixtures.instance("small-s1").problem
        let solved = try await ScheduleOptimizer.solve(
            problem, timeLimit: .seconds(30), seed: 1,
            options: OptimizerOptions(movesPerEpoch: 100, maxEpochs: 1))
        let busiest = Dictionary(grouping: solved.assignments, by: \.clinicianID).max {
            $0.value.count < $1.value.count
        }!.key
        let plan = try ScheduleReplanner.clinicianUnavailable(
            problem, assignments: solved.assignments, clinicianID: busiest, day: 0)
        #expect(ScheduleScorer.evaluate(problem, plan.assignments).feasible)
        #expect(!plan.assignments.contains { $0.clinicianID == busiest })
        let deadline = Dictionary(uniqueKeysWithValues: problem.requests.map { ($0.id, $0.deadline) })
        for move in plan.moves where move.from.start <= deadline[move.from.requestID]! {
            #expect(move.to.start <= deadline[move.to.requestID]!)
        }
        #expect(plan.moves.count + plan.unplaced.count >= solved.assignments.count { $0.clinicianID == busiest })
    }
}
