import Benchmark

/// Entry point of `swift package benchmark`: each bounded context registers its own benchmarks.
let benchmarks: @Sendable () -> Void = {
    triageBenchmarks()
    optimizerBenchmarks()
    schedulingBenchmarks()
}
