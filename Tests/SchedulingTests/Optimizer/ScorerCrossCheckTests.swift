import Foundation
import Testing

@testable import Scheduling

// MARK: - Swift scorer against evaluate.py

@Suite("Scorer agrees with evaluate.py")
struct ScorerCrossCheckTests {
    /// Solves each public instance briefly, then scores the result with both checkers.
    @Test(.enabled(if: Fixtures.hasPython), arguments: ["small-s1", "medium-s1", "large-s1"])
    func optimizerSolutionsScoreIdentically(name: String) async throws {
        let instance = try Fixtures.instance(name)
        let problem = instance.problem
        let result = try await ScheduleOptimizer.solve(
            problem, timeLimit: .milliseconds(300), seed: 1,
            options: OptimizerOptions(maxEpochs: 2))
        try expectAgreement(name: name, problem: problem, assignments: result.assignments)
        #expect(result.evaluation.feasible)
    }

    /// An infeasible solution: the reference and the Swift checker both reject it and agree
    /// on the score it would have had.
    @Test(.enabled(if: Fixtures.hasPython))
    func infeasibleSolutionsAreRejectedByBoth() async throws {
        let instance = try Fixtures.instance("small-s1")
        let problem = instance.problem
        let result = try await ScheduleOptimizer.solve(
            problem, timeLimit: .milliseconds(200), seed: 2,
            options: OptimizerOptions(maxEpochs: 1))
        var broken = result.assignments
        broken[0].start += 1
        broken[1].room = "nowhere#9"
        try expectAgreement(name: "small-s1", problem: problem, assignments: broken)
        #expect(!ScheduleScorer.evaluate(problem, broken).feasible)
    }

    private func expectAgreement(name: String, problem: SchedulingProblem, assignments: [SchedulingAssignment]) throws {
        let mine = ScheduleScorer.evaluate(problem, assignments)
        let theirs = try Fixtures.referenceEvaluation(instance: name, assignments: assignments)
        #expect(theirs["feasible"] as? Bool == mine.feasible)
        #expect((theirs["errors"] as? [Any])?.count == mine.violations.count)
        #expect(theirs["request_points"] as? Int == mine.requestPoints)
        #expect(theirs["request_points_max"] as? Int == mine.requestPointsMax)
        #expect(theirs["balance_deviation_minutes"] as? Int == mine.balanceDeviationMinutes)
        #expect(theirs["total_demand_minutes"] as? Int == mine.totalDemandMinutes)
        #expect(theirs["assigned"] as? Int == mine.assigned)
        #expect(theirs["on_time"] as? Int == mine.onTime)
        #expect(theirs["in_preference"] as? Int == mine.inPreference)
        #expect(theirs["urgent_on_time"] as? Int == mine.urgentOnTime)
        #expect(theirs["urgent_total"] as? Int == mine.urgentTotal)
        #expect(theirs["score"] as? Double == mine.score)
        #expect(theirs["score_ignoring_feasibility"] as? Double == mine.scoreIgnoringFeasibility)
        #expect(theirs["s_req"] as? Double == mine.requestShare.doubleValue)
        #expect(theirs["s_bal"] as? Double == mine.balanceShare.doubleValue)
    }
}

// MARK: - Exact arithmetic

@Suite("Exact fractions")
struct ExactFractionTests {
    @Test(arguments: [(0.9, 9, 10), (0.1, 1, 10), (1.0 / 3.0, 1, 3), (0.3333, 1, 3), (0.0, 0, 1), (0.12345, 119, 964)])
    func limitDenominatorMatchesPython(value: Double, numerator: Int, denominator: Int) {
        let f = ExactFraction.limitingDenominator(of: value)
        #expect(f.numerator == Int128(numerator) && f.denominator == Int128(denominator))
    }

    @Test func doubleConversionIsCorrectlyRounded() {
        #expect(ExactFraction(1, 3).doubleValue == 1.0 / 3.0)
        #expect(ExactFraction(2, 3).doubleValue == 2.0 / 3.0)
        #expect(ExactFraction(9, 10).doubleValue == 0.9)
        // Parts above 2^53, where Double(n)/Double(d) would round twice.
        let big = Int128(1) << 80
        #expect(ExactFraction(big + 1, big * 3).doubleValue == 1.0 / 3.0)
        #expect(
            ExactFraction(123_456_789_012_345_678, 987_654_321_098_765_432).doubleValue
                == 0.1249999988609375)
    }
}
