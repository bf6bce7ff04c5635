import SharedKernel

// MARK: - Construction

/// Builds the starting schedule: requests in order of clinical priority, each at its best
/// placement, then a repair pass that re-packs clinicians' shifts for those left over.
enum Construction {
    /// The order in which requests claim time: most urgent first, then earliest deadline,
    /// fewest qualified clinicians, longest duration (hardest to fit), then input order.
    static func priorityOrder(_ p: CompiledProblem) -> [Int] {
        (0..<p.requestCount).sorted { a, b in
            let x = p.requests[a]
            let y = p.requests[b]
            if x.urgency != y.urgency { return x.urgency > y.urgency }
            if x.deadline != y.deadline { return x.deadline < y.deadline }
            if x.eligible.count != y.eligible.count { return x.eligible.count < y.eligible.count }
            if x.duration != y.duration { return x.duration > y.duration }
            return a < b
        }
    }

    /// The greedy schedule followed by the re-pack repair. `shouldStop` is asked every few
    /// requests: when it says yes (the time limit is near, or the task was cancelled), the
    /// requests not yet placed stay unplaced, so a large problem never outlasts its limit
    /// here (the most urgent are placed first).
    static func build(_ p: CompiledProblem, seed: UInt64, shouldStop: () -> Bool = { false }) -> ScheduleState {
        var state = ScheduleState(p)
        let order = priorityOrder(p)
        for (index, r) in order.enumerated() {
            if index % checkEvery == 0, shouldStop() { return state }
            if let choice = state.bestInsertion(p, request: r, prefer: .earliest) {
                state.place(
                    p, request: r, clinician: choice.clinician, slot: choice.slot, proficiency: choice.proficiency)
            }
        }
        var worker = SearchWorker(p, state: state, rng: SplitMix64(seed: seed))
        for (index, r) in order.enumerated() where !worker.state.isAssigned(r) {
            if index % checkEvery == 0, shouldStop() { break }
            worker.repack(request: r)
        }
        return worker.state
    }

    /// How many requests are placed between two looks at the clock.
    static let checkEvery = 8
}
