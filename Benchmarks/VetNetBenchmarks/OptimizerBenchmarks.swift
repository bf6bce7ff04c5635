import Benchmark
import Foundation
import Scheduling

// MARK: - Schedule optimizer benchmarks

/// Registers the optimizer's benchmarks: the construction (greedy by priority plus re-pack
/// repair) on the vetsched-v1 `small-s1` instance, the part of a solve that does not
/// depend on the time limit.
func optimizerBenchmarks() {
    let file = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("../vetsched-v1/instances/small-s1.json").standardizedFileURL
    guard let data = try? Data(contentsOf: file),
          let instance = try? JSONDecoder().decode(VetschedInstance.self, from: data) else {
        // Without the instance file there is nothing meaningful to measure.
        return
    }
    let problem = instance.problem
    Benchmark("Optimizer construction small-s1 (20x100)",
              configuration: .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
                                   maxDuration: .seconds(5), maxIterations: 1000)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try ScheduleOptimizer.construct(problem))
        }
    }
}
