import Foundation
import SharedKernel
import Testing

@testable import Scheduling

// MARK: - Optimizer properties

@Suite("Schedule optimizer")
struct OptimizerTests {
    @Test func sameSeedSameSchedule() async throws {
        let problem = try Fixtures.instance("small-s1").problem
        let options = OptimizerOptions(movesPerEpoch: 200, maxEpochs: 3)
        // The epochs bound the work; a limit no loaded machine reaches keeps the clock out of it
        // (construction stops at 60 % of the limit, which a busy test run could reach in one
        // solve and not the other).
        let a = try await ScheduleOptimizer.solve(problem, timeLimit: .seconds(3600), seed: 7, options: options)
        let b = try await ScheduleOptimizer.solve(problem, timeLimit: .seconds(3600), seed: 7, options: options)
        #expect(a.epochs == 3 && b.epochs == 3)
        #expect(a.assignments == b.assignments)
        #expect(a.evaluation == b.evaluation)
    }

    @Test func searchImprovesOnConstruction() async throws {
        let problem = try Fixtures.instance("small-s1").problem
        // Bounded by the epochs, not the clock (see sameSeedSameSchedule).
        let result = try await ScheduleOptimizer.solve(
            problem, timeLimit: .seconds(3600), seed: 1,
            options: OptimizerOptions(movesPerEpoch: 300, maxEpochs: 4))
        #expect(result.evaluation.feasible)
        #expect(result.evaluation.score > result.constructionScore)
        #expect(result.evaluation.score > 0.92)
    }

    /// Instances from other generator seeds: always feasible, urgent requests on time
    /// whenever the final schedule leaves an on-time place.
    @Test(.enabled(if: Fixtures.hasPython), arguments: [("small", 2), ("small", 3), ("small", 4), ("medium", 5)])
    func generatedInstancesAreSolvedFeasibly(size: String, seed: Int) async throws {
        let problem = try Fixtures.generated(size: size, seed: seed).problem
        let result = try await ScheduleOptimizer.solve(
            problem, timeLimit: .milliseconds(500), seed: UInt64(seed),
            options: OptimizerOptions(maxEpochs: 3))
        #expect(result.evaluation.feasible, "\(result.evaluation.violations.prefix(3))")
        #expect(result.evaluation.assigned > problem.requests.count * 8 / 10)
        if size == "small" { expectUrgentOnTimeWhenPossible(problem, result.assignments) }
    }

    @Test func urgentRequestsAreOnTimeWhenPossible() async throws {
        let problem = try Fixtures.instance("small-s1").problem
        let result = try await ScheduleOptimizer.solve(
            problem, timeLimit: .seconds(3600), seed: 3,
            options: OptimizerOptions(movesPerEpoch: 100, maxEpochs: 2))
        expectUrgentOnTimeWhenPossible(problem, result.assignments)
    }

    @Test func malformedProblemsNameTheField() async {
        var problem = Fixtures.tinyProblem()
        problem.requests[1].duration = 0
        problem.requests[2].roomType = "lab"
        do {
            _ = try await ScheduleOptimizer.solve(problem, timeLimit: .milliseconds(10))
            Issue.record("a malformed problem was accepted")
        } catch let error as ValidationError {
            #expect(error.errors.map(\.field) == ["requests[1].duration", "requests[2].roomType"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func fixedBookingsAreWorkedAround() async throws {
        var problem = Fixtures.tinyProblem()
        problem.fixedBookings = [
            SchedulingFixedBooking(
                id: "F1", clinicianID: "A", interval: MinuteInterval(start: 480, end: 600), roomType: "surgery"),
            SchedulingFixedBooking(
                id: "F2", clinicianID: "B", interval: MinuteInterval(start: 480, end: 540), roomType: "exam"),
        ]
        let result = try await ScheduleOptimizer.solve(
            problem, timeLimit: .seconds(5), options: OptimizerOptions(maxEpochs: 2))
        #expect(result.evaluation.feasible, "\(result.evaluation.violations)")
        for a in result.assignments {
            let r = problem.requests.first { $0.id == a.requestID }!
            let interval = MinuteInterval(start: a.start, end: a.start + r.duration)
            for f in problem.fixedBookings where f.clinicianID == a.clinicianID {
                #expect(!interval.overlaps(f.interval))
            }
        }
        // The surgery needs A, who is busy until 600 and on a break until 630.
        #expect(result.assignments.first { $0.requestID == "R3" }?.start ?? 0 >= 630)
    }

    // MARK: - Helpers

    /// For every urgent request that is late or unplaced, no on-time placement exists with
    /// the rest of the schedule fixed (checked by brute force with the scorer).
    private func expectUrgentOnTimeWhenPossible(_ problem: SchedulingProblem, _ assignments: [SchedulingAssignment]) {
        let placed = Dictionary(uniqueKeysWithValues: assignments.map { ($0.requestID, $0) })
        for request in problem.requests where request.isUrgent {
            if let a = placed[request.id], a.start <= request.deadline { continue }
            let others = assignments.filter { $0.requestID != request.id }.map {
                SchedulingAssignment(requestID: $0.requestID, clinicianID: $0.clinicianID, start: $0.start)
            }
            var start = (request.earliestStart + problem.granularity - 1) / problem.granularity * problem.granularity
            while start <= request.deadline {
                for clinician in problem.clinicians where clinician.proficiency(in: request.specialty) > 0 {
                    let trial =
                        others + [SchedulingAssignment(requestID: request.id, clinicianID: clinician.id, start: start)]
                    #expect(
                        !ScheduleScorer.evaluate(problem, trial, maxViolations: 1).feasible,
                        "\(request.id) could start at \(start) with \(clinician.id)")
                }
                start += problem.granularity
            }
        }
    }
}
