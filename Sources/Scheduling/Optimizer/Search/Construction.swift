// MARK: - Construction

/// Builds the starting schedule: requests in order of clinical priority, each at its best
/// placement, then a repair pass that re-packs clinicians' shifts for those left over.
enum Construction {
    /// The order in which requests claim time: most urgent first, then earliest deadline,
    /// fewest qualified clinicians, longest duration (hardest to fit), then input order.
    static func priorityOrder(_ p: CompiledProblem) -> [Int] {
        (0..<p.requestCount).sorted { a, b in
            let x = p.requests[a], y = p.requests[b]
            if x.urgency != y.urgency { return x.urgency > y.urgency }
            if x.deadline != y.deadline { return x.deadline < y.deadline }
            if x.eligible.count != y.eligible.count { return x.eligible.count < y.eligible.count }
            if x.duration != y.duration { return x.duration > y.duration }
            return a < b
        }
    }

    /// The greedy schedule followed by the re-pack repair.
    static func build(_ p: CompiledProblem, seed: UInt64) -> ScheduleState {
        var state = ScheduleState(p)
        let order = priorityOrder(p)
        for r in order {
            if let choice = state.bestInsertion(p, request: r, prefer: .earliest) {
                state.place(p, request: r, clinician: choice.clinician, slot: choice.slot, proficiency: choice.proficiency)
            }
        }
        var worker = SearchWorker(p, state: state, rng: SplitMix64(seed: seed))
        for r in order where !worker.state.isAssigned(r) {
            worker.repack(request: r)
        }
        return worker.state
    }
}
