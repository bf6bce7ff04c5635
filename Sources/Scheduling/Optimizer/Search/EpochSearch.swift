import SharedKernel

// MARK: - Epoch-synchronised parallel search

/// Runs search workers in lock-step epochs on a task group.
///
/// Determinism: a worker's moves depend only on its start state and its generator, which is
/// derived from (seed, epoch, worker index); the winner of an epoch is chosen by objective
/// and then by worker index, never by which task finished first. Time is only consulted to
/// decide whether another epoch starts and to abandon one that overruns the deadline.
struct EpochSearch: Sendable {
    let problem: CompiledProblem
    let seed: UInt64
    let workers: Int
    let movesPerEpoch: Int

    /// Moves per epoch: enough to amortise the synchronisation, few enough that an epoch is
    /// a small fraction of the shortest useful time limit.
    static func defaultMoves(_ p: CompiledProblem) -> Int {
        max(100, min(1500, 150_000 / max(1, p.requestCount)))
    }

    struct Outcome: Sendable {
        var state: ScheduleState
        var moves: Int
    }

    /// Runs epoch `epoch` from `start`; `nil` when the deadline interrupted it.
    func runEpoch(_ epoch: Int, from start: ScheduleState, deadline: ContinuousClock.Instant) async -> Outcome? {
        let p = problem
        let seed = seed
        let moves = movesPerEpoch
        let results = await withTaskGroup(of: (Int, Int64, ScheduleState, Int)?.self) { group in
            for w in 0..<workers {
                group.addTask {
                    var worker = SearchWorker(p, state: start, rng: SplitMix64(seed: seed, epoch: epoch, worker: w))
                    let clock = ContinuousClock()
                    let finished = worker.run(moves: moves) { clock.now >= deadline || Task.isCancelled }
                    guard finished else { return nil }
                    return (w, worker.bestObjective, worker.bestState(), worker.iterations)
                }
            }
            var collected: [(Int, Int64, ScheduleState, Int)?] = []
            for await result in group { collected.append(result) }
            return collected
        }
        var winner: (Int, Int64, ScheduleState, Int)?
        var total = 0
        for result in results {
            guard let result else { return nil }
            total += result.3
            if let current = winner, (current.1, -current.0) >= (result.1, -result.0) { continue }
            winner = result
        }
        return winner.map { Outcome(state: $0.2, moves: total) }
    }
}
