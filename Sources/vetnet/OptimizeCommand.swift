import ArgumentParser
import Foundation
import Scheduling

// MARK: - vetnet optimize

/// `vetnet optimize INSTANCE.json [-o SOLUTION.json] [--time-limit SECONDS] [--seed N]`:
/// solves a vetsched-v1 instance and writes the solution file `evaluate.py` scores.
struct OptimizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Optimize a vetsched-v1 scheduling instance.",
        discussion: """
            Reads a vetsched-v1 instance, assigns requests to clinicians and start times within \
            the time limit and prints the score and its parts. The solution JSON can be checked \
            with Benchmarks/vetsched-v1/evaluate.py. The same seed gives the same schedule for \
            the same number of completed search epochs.
            """)

    @Argument(help: "The vetsched-v1 instance (JSON).")
    var instance: String

    @Option(name: [.short, .customLong("output")], help: "Where to write the solution JSON.")
    var output: String?

    @Option(name: .customLong("time-limit"), help: "Time limit in seconds.")
    var timeLimit: Double = 5

    @Option(help: "Random seed of the search.")
    var seed: UInt64 = 0

    func validate() throws {
        guard timeLimit.isFinite, timeLimit > 0 else {
            throw ArgumentParser.ValidationError("--time-limit must be a positive number of seconds")
        }
    }

    func run() async throws {
        let clock = ContinuousClock()
        let started = clock.now
        let data = try Data(contentsOf: URL(fileURLWithPath: instance))
        let parsed = try JSONDecoder().decode(VetschedInstance.self, from: data)
        // A live progress line only makes sense on a terminal; pipes and logs get the summary only.
        let showProgress = isatty(2) == 1
        // The limit covers reading the instance too, so the solver gets what is left.
        let budget = Duration.milliseconds(Int((timeLimit * 1000).rounded())) - (clock.now - started)
        let result = try await ScheduleOptimizer.solve(
            parsed.problem, timeLimit: max(budget, .milliseconds(1)), seed: seed,
            progress: showProgress ? Self.reportProgress : nil)
        if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let seconds = Self.seconds(result.elapsed)
        if let output {
            let solution = VetschedSolution(
                instance: parsed.name, solver: "vetnet optimize (seed \(seed))",
                score: result.evaluation.score, timeSeconds: seconds,
                assignments: result.assignments)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(solution).write(to: URL(fileURLWithPath: output))
        }
        print(Self.summary(result, seconds: seconds, name: parsed.name ?? instance))
    }

    // MARK: - Output

    @Sendable static func reportProgress(_ progress: OptimizerProgress) {
        let line = String(
            format: "\r\u{1B}[Kepoch %d  score %.6f  assigned %d  %.1f s",
            progress.epoch, progress.score, progress.assigned, seconds(progress.elapsed))
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func summary(_ result: OptimizerResult, seconds: Double, name: String) -> String {
        let e = result.evaluation
        let total = e.assigned + e.unassigned
        var lines = [
            "instance        \(name)",
            String(format: "score           %.6f%@", e.score, e.feasible ? "" : "  (INFEASIBLE)"),
            String(format: "s_req           %.6f", e.requestShare.doubleValue),
            String(
                format: "s_bal           %.6f  (deviation %d of %d demand minutes)", e.balanceShare.doubleValue,
                e.balanceDeviationMinutes, e.totalDemandMinutes),
            "assigned        \(e.assigned)/\(total)",
            "on time         \(e.onTime)/\(e.assigned)",
            "in preference   \(e.inPreference)/\(e.assigned)",
            "urgent on time  \(e.urgentOnTime)/\(e.urgentTotal)",
            String(format: "construction    %.6f", result.constructionScore),
            String(format: "time            %.3f s  (%d epochs, %d moves)", seconds, result.epochs, result.moves),
        ]
        lines += e.violations.prefix(10).map { "violation       \($0.message)" }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
