// MARK: - Neighbourhoods

extension SearchWorker {
    /// Runs `count` ruin-and-recreate moves. Returns `false` if `shouldStop` interrupted it
    /// (checked every 16 moves), in which case the caller discards the partial run.
    mutating func run(moves count: Int, shouldStop: () -> Bool) -> Bool {
        for i in 0..<count {
            if i & 15 == 15 && shouldStop() { return false }
            step()
        }
        return true
    }

    /// One move: pick a neighbourhood, ruin, recreate; keep it if the objective did not get
    /// worse (equal moves are kept so the search drifts across plateaus).
    mutating func step() {
        // Every neighbourhood draws a request or a clinician at random.
        guard p.requestCount > 0, p.clinicianCount > 0 else { return }
        iterations += 1
        let before = state.objective(p)
        let roll = rng.below(100)
        var targeted = -1
        switch roll {
        case 0..<25: ruinClinicianDay()
        case 25..<55: ruinTimeWindow()
        case 55..<70: ruinRandom(count: 2 + rng.below(5))
        default: targeted = ruinForTarget()
        }
        // A failed insertion scans every qualified clinician, so unplaced requests get a
        // chance in a third of the moves rather than in all of them.
        if rng.chance(1, in: 3) { addUnassigned(limit: 1) }
        orderPool(first: targeted)
        recreate(prefer: rng.chance(1, in: 2) ? .earliest : .latest)
        let after = state.objective(p)
        if after >= before {
            if after > before { acceptedImprovements += 1 }
            commit()
            noteBest()
        } else {
            undo()
        }
    }

    // MARK: - Ruin operators

    /// Empties one clinician's shift: lets the day be re-packed from scratch.
    mutating func ruinClinicianDay() {
        let c = rng.below(p.clinicianCount)
        let shifts = p.shifts[c]
        guard !shifts.isEmpty else { return ruinRandom(count: 3) }
        let shift = shifts[rng.below(shifts.count)]
        let lo = max(0, floorDiv(shift.startMinute, p.granularity) - p.slotBase)
        let hi = min(p.slotCount, ceilDiv(shift.endMinute, p.granularity) - p.slotBase)
        ruinSlots(clinician: c, lo: lo, hi: hi)
        if rng.chance(1, in: 2) { ruinRandom(count: 1 + rng.below(3)) }
    }

    /// Removes everything around a placed request on the clinicians who could take it:
    /// the requests competing for the same time, skills and rooms.
    mutating func ruinTimeWindow() {
        guard let r0 = randomAssigned() else { return }
        let req = p.requests[r0]
        let s0 = Int(state.slotOf[r0])
        let pad = rng.below(13)
        let lo = max(0, s0 - pad)
        let hi = min(p.slotCount, s0 + req.durationSlots + pad)
        let limit = 4 + rng.below(10)
        ruin(r0)
        let eligible = req.eligible
        let offset = rng.below(eligible.count)
        for k in 0..<eligible.count where pool.count < limit {
            let c = Int(eligible[(k + offset) % eligible.count].clinician)
            if rng.chance(1, in: 3) { continue }
            ruinSlots(clinician: c, lo: lo, hi: hi)
        }
    }

    /// Removes a few random placed requests.
    mutating func ruinRandom(count: Int) {
        for _ in 0..<count {
            if let r = randomAssigned() { ruin(r) }
        }
    }

    /// Picks a request that earns less than it could and clears room for it on a clinician
    /// that could give it more; returns the request so it is re-inserted first.
    mutating func ruinForTarget() -> Int {
        var r0 = rng.below(p.requestCount)
        for _ in 0..<8 where !isImprovable(r0) { r0 = rng.below(p.requestCount) }
        let req = p.requests[r0]
        guard !req.eligible.isEmpty else { return -1 }
        // Bias towards proficient clinicians: the list is sorted by proficiency.
        let n = req.eligible.count
        let c = Int(req.eligible[min(rng.below(n), rng.below(n))].clinician)
        // The region worth targeting: on time and in the window if possible.
        var lo = req.earliestSlot
        var hi = req.deadlineSlot + req.durationSlots
        if req.prefLo <= req.prefHi && rng.chance(2, in: 3) {
            lo = max(lo, req.prefLo)
            hi = req.prefHi + req.durationSlots
            if req.urgent { hi = min(hi, req.deadlineSlot + req.durationSlots) }
        }
        if hi - lo > 96 {
            let start = lo + rng.below(hi - lo - 48)
            (lo, hi) = (start, start + 48)
        }
        ruin(r0)
        ruinSlots(clinician: c, lo: max(0, lo), hi: min(p.slotCount, max(lo, hi)))
        return r0
    }

    /// Whether request `r` could still earn more points (unplaced, late, outside its window
    /// or not with its best clinician).
    func isImprovable(_ r: Int) -> Bool {
        guard state.isAssigned(r) else { return true }
        let req = p.requests[r]
        let s = Int(state.slotOf[r])
        if s > req.deadlineSlot || s < req.prefLo || s > req.prefHi { return true }
        return state.proficiency(p, request: r, clinician: Int(state.clinicianOf[r])) < req.eligible[0].proficiency
    }

    // MARK: - Helpers

    /// Ruins every request on clinician `c` that occupies a slot in `lo..<hi`.
    mutating func ruinSlots(clinician c: Int, lo: Int, hi: Int) {
        let row = c * p.slotCount
        var s = lo
        while s < hi {
            let r = state.timeline[row + s]
            if r >= 0 { ruin(Int(r)) }
            s += 1
        }
    }

    mutating func randomAssigned() -> Int? {
        for _ in 0..<16 {
            let r = rng.below(p.requestCount)
            if state.isAssigned(r) { return r }
        }
        return nil
    }

    /// Adds up to `limit` random unplaced requests to the pool, so they keep getting chances.
    /// Drawn from a cache of unplaced requests (pruned lazily), because on large instances
    /// random sampling would almost never hit the few that are left out.
    mutating func addUnassigned(limit: Int) {
        var added = 0
        while added < limit && !unassignedCache.isEmpty {
            let k = rng.below(unassignedCache.count)
            let r = unassignedCache[k]
            if state.isAssigned(r) {
                unassignedCache.swapAt(k, unassignedCache.count - 1)
                unassignedCache.removeLast()
                continue
            }
            if !inPool[r] {
                ruin(r)
            }
            added += 1
        }
    }

    /// Orders the pool for re-insertion: the targeted request first, then by weight (noisy)
    /// or at random, so that different moves explore different insertion orders.
    mutating func orderPool(first: Int) {
        var keyed: [(key: Int64, request: Int)] = []
        let mode = rng.below(3)
        for r in poolRequests {
            let req = p.requests[r]
            let noise = Int64(rng.below(1 << 12))
            let key: Int64
            switch mode {
            case 0: key = (req.weight << 32) + (Int64(req.duration) << 12) + noise
            case 1: key = noise
            default: key = (req.weight << 32) - (Int64(req.eligible.count) << 16) + noise
            }
            keyed.append((r == first ? Int64.max : key, r))
        }
        keyed.sort { $0.key != $1.key ? $0.key > $1.key : $0.request < $1.request }
        poolRequests = keyed.map(\.request)
    }
}
