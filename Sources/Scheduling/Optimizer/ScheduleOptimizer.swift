import SharedKernel

// MARK: - Public entry point

/// Tuning knobs of ``ScheduleOptimizer``; the defaults are what the benchmark figures use.
public struct OptimizerOptions: Hashable, Sendable {
    /// Parallel search workers. The result depends on this number (not on the machine),
    /// so it is fixed rather than taken from the processor count.
    public var workers: Int
    /// Moves each worker makes per epoch; `nil` chooses by problem size.
    public var movesPerEpoch: Int?
    /// Stop after this many epochs even if time remains (for reproducible tests).
    public var maxEpochs: Int?

    /// Creates options.
    public init(workers: Int = 2, movesPerEpoch: Int? = nil, maxEpochs: Int? = nil) {
        self.workers = workers
        self.movesPerEpoch = movesPerEpoch
        self.maxEpochs = maxEpochs
    }
}

/// A snapshot reported after each completed search epoch.
public struct OptimizerProgress: Hashable, Sendable {
    /// Completed epochs.
    public var epoch: Int
    /// Time since the solve started.
    public var elapsed: Duration
    /// Score of the best schedule so far.
    public var score: Double
    /// Placed requests in the best schedule so far.
    public var assigned: Int
}

/// What the optimizer returns.
public struct OptimizerResult: Hashable, Sendable {
    /// The schedule, with concrete rooms.
    public var assignments: [SchedulingAssignment]
    /// Its evaluation by ``ScheduleScorer``.
    public var evaluation: ScheduleEvaluation
    /// Score of the constructed schedule before improvement.
    public var constructionScore: Double
    /// Completed search epochs (the only quantity that depends on the time limit).
    public var epochs: Int
    /// Ruin-and-recreate moves made in completed epochs, over all workers.
    public var moves: Int
    /// Wall time spent.
    public var elapsed: Duration
}

/// Assigns requests to clinicians and start times, maximizing the vetsched-v1 score under
/// the hard constraints H1–H7.
///
/// Construction places requests by clinical priority at their best position and re-packs
/// clinicians' shifts for leftovers; then parallel ruin-and-recreate search improves the
/// schedule until the time limit. The search runs in epochs: every worker starts an epoch
/// from the best schedule so far with a generator derived from (seed, epoch, worker) and
/// makes a fixed number of moves; the best result wins (ties: lowest worker). A partly run
/// epoch is discarded, so for a given seed the result depends only on how many epochs
/// completed. Urgent requests are finally moved on time wherever the schedule allows.
public enum ScheduleOptimizer {
    /// The constructed schedule alone (priority-ordered best insertion plus re-pack repair,
    /// urgent requests secured), without the improvement search: a quick, deterministic plan.
    ///
    /// - Throws: ``ValidationError`` for a malformed problem.
    public static func construct(_ problem: SchedulingProblem, seed: UInt64 = 0) throws(ValidationError)
        -> [SchedulingAssignment]
    {
        try problem.validate()
        let compiled = CompiledProblem(problem)
        var finisher = SearchWorker(
            compiled, state: Construction.build(compiled, seed: seed), rng: SplitMix64(seed: seed))
        finisher.secureUrgentRequests()
        return RoomAllocation.assignments(problem, compiled, finisher.bestState())
    }

    /// Solves `problem` within about `timeLimit`.
    ///
    /// - Throws: ``ValidationError`` for a malformed problem; `CancellationError` when the
    ///   task is cancelled.
    public static func solve(
        _ problem: SchedulingProblem, timeLimit: Duration, seed: UInt64 = 0,
        options: OptimizerOptions = OptimizerOptions(),
        progress: (@Sendable (OptimizerProgress) -> Void)? = nil
    ) async throws -> OptimizerResult {
        try problem.validate()
        let clock = ContinuousClock()
        let started = clock.now
        // Keep a little of the budget for the final steps (urgent pass, rooms, evaluation),
        // so the whole call, not just the search, fits in the limit.
        let reserve = max(Duration.milliseconds(5), timeLimit / 50)
        let deadline = started.advanced(by: timeLimit - reserve)
        let compiled = CompiledProblem(problem)
        // Construction stops early on a problem too large for the limit: the final steps
        // still need their share (they grow with the number of requests placed).
        let constructionDeadline = started.advanced(by: timeLimit * 6 / 10)
        var best = Construction.build(compiled, seed: seed) { clock.now >= constructionDeadline || Task.isCancelled }
        try Task.checkCancellation()
        let constructionScore = compiled.constants.score(points: Int(best.points), deviation: Int(best.deviation))
            .doubleValue

        let search = EpochSearch(
            problem: compiled, seed: seed, workers: max(1, options.workers),
            movesPerEpoch: options.movesPerEpoch ?? EpochSearch.defaultMoves(compiled))
        var epochs = 0
        var moves = 0
        // With nothing to place, or nobody to place it with, there is nothing to improve: the
        // moves draw random requests and clinicians, and an empty problem has none to draw.
        let searchable = compiled.requestCount > 0 && compiled.clinicianCount > 0
        while searchable, options.maxEpochs.map({ epochs < $0 }) ?? true, clock.now < deadline {
            try Task.checkCancellation()
            guard let outcome = await search.runEpoch(epochs, from: best, deadline: deadline) else { break }
            best = outcome.state
            moves += outcome.moves
            epochs += 1
            if let progress {
                let score = compiled.constants.score(points: Int(best.points), deviation: Int(best.deviation))
                    .doubleValue
                progress(
                    OptimizerProgress(
                        epoch: epochs, elapsed: clock.now - started, score: score,
                        assigned: best.clinicianOf.count(where: { $0 >= 0 })))
            }
        }
        var finisher = SearchWorker(compiled, state: best, rng: SplitMix64(seed: seed))
        finisher.secureUrgentRequests()
        let assignments = RoomAllocation.assignments(problem, compiled, finisher.bestState())
        return OptimizerResult(
            assignments: assignments, evaluation: ScheduleScorer.evaluate(problem, assignments),
            constructionScore: constructionScore, epochs: epochs, moves: moves,
            elapsed: clock.now - started)
    }
}
