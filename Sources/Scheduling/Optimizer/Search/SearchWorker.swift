import SharedKernel

// MARK: - Ruin-and-recreate worker

/// One search trajectory: ruin part of the schedule, re-insert greedily, keep the result
/// if the objective did not get worse, otherwise undo. Everything it does is driven by its
/// own seeded generator, so a worker given the same start state and seed repeats itself.
struct SearchWorker: Sendable {
    let p: CompiledProblem
    var state: ScheduleState
    var rng: SplitMix64
    /// Best objective seen and the schedule that reached it.
    var bestObjective: Int64
    var bestClinician: [Int32]
    var bestSlot: [Int32]
    var iterations = 0
    /// Requests that were unplaced when last seen (may hold stale or repeated entries).
    var unassignedCache: [Int]
    var acceptedImprovements = 0

    /// Removed requests with their old placement, to undo a rejected move.
    private var removedLog: [(request: Int, clinician: Int, slot: Int, proficiency: Int32)] = []
    /// Requests inserted by the current move.
    private var insertedLog: [Int] = []
    /// Requests waiting to be re-inserted.
    var pool: [Int] = []
    var inPool: [Bool]

    init(_ p: CompiledProblem, state: ScheduleState, rng: SplitMix64) {
        self.p = p
        self.state = state
        self.rng = rng
        bestObjective = state.objective(p)
        bestClinician = state.clinicianOf
        bestSlot = state.slotOf
        inPool = [Bool](repeating: false, count: p.requestCount)
        unassignedCache = (0..<p.requestCount).filter { !state.isAssigned($0) }
    }

    /// The best schedule found, as a state.
    func bestState() -> ScheduleState {
        var s = ScheduleState(p)
        for r in 0..<p.requestCount where bestClinician[r] >= 0 {
            let c = Int(bestClinician[r])
            s.place(
                p, request: r, clinician: c, slot: Int(bestSlot[r]),
                proficiency: s.proficiency(p, request: r, clinician: c))
        }
        return s
    }

    // MARK: - Move bookkeeping

    /// Takes request `r` out of the schedule (if placed) and queues it for re-insertion.
    mutating func ruin(_ r: Int) {
        guard !inPool[r] else { return }
        inPool[r] = true
        pool.append(r)
        guard state.isAssigned(r) else { return }
        let c = Int(state.clinicianOf[r])
        removedLog.append((r, c, Int(state.slotOf[r]), state.proficiency(p, request: r, clinician: c)))
        state.remove(p, request: r)
    }

    /// Re-inserts the pool in its current order, each at its best position.
    mutating func recreate(prefer: StartPreference) {
        for r in pool {
            inPool[r] = false
            if let choice = state.bestInsertion(p, request: r, prefer: prefer) {
                state.place(
                    p, request: r, clinician: choice.clinician, slot: choice.slot, proficiency: choice.proficiency)
                insertedLog.append(r)
            } else {
                unassignedCache.append(r)
            }
        }
        pool.removeAll(keepingCapacity: true)
    }

    /// Restores the schedule from before the current move.
    mutating func undo() {
        for r in insertedLog.reversed() { state.remove(p, request: r) }
        for entry in removedLog.reversed() {
            state.place(
                p, request: entry.request, clinician: entry.clinician, slot: entry.slot, proficiency: entry.proficiency)
        }
        commit()
    }

    mutating func commit() {
        removedLog.removeAll(keepingCapacity: true)
        insertedLog.removeAll(keepingCapacity: true)
    }

    /// Records the current schedule if it beats the best.
    mutating func noteBest() {
        let value = state.objective(p)
        if value > bestObjective {
            bestObjective = value
            bestClinician = state.clinicianOf
            bestSlot = state.slotOf
        }
    }

    var poolRequests: [Int] {
        get { pool }
        set { pool = newValue }
    }
}
