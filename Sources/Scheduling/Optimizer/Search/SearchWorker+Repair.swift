// MARK: - Construction repair and the urgent guarantee

extension SearchWorker {
    /// Tries to fit an unplaced request by re-packing one clinician's shift around it: the
    /// shift is emptied, the request goes in first, the others are re-inserted anywhere.
    /// Keeps the first re-pack that improves the objective.
    mutating func repack(request r: Int, maxAttempts: Int = 24) {
        let req = p.requests[r]
        var attempts = 0
        for e in req.eligible {
            let c = Int(e.clinician)
            for shift in p.shifts[c] {
                guard p.startRange(request: r, shift: shift) != nil else { continue }
                // Bounded: construction must stay fast on thousands of requests.
                attempts += 1
                if attempts > maxAttempts { return }
                let before = state.objective(p)
                let lo = max(0, floorDiv(shift.startMinute, p.granularity) - p.slotBase)
                let hi = min(p.slotCount, ceilDiv(shift.endMinute, p.granularity) - p.slotBase)
                ruin(r)
                ruinSlots(clinician: c, lo: lo, hi: hi)
                orderPool(first: r)
                recreate(prefer: .earliest)
                if state.objective(p) > before {
                    commit()
                    noteBest()
                    return
                }
                undo()
            }
        }
    }

    /// Moves every urgent request that is late or unplaced to an on-time start when one
    /// exists with the rest of the schedule unchanged, even at a cost to the objective:
    /// a clinically urgent case is never left late when it could be seen in time.
    mutating func secureUrgentRequests() {
        for r in 0..<p.requestCount where p.requests[r].urgent {
            let req = p.requests[r]
            if state.isAssigned(r) && Int(state.slotOf[r]) <= req.deadlineSlot { continue }
            let old =
                state.isAssigned(r)
                ? (clinician: Int(state.clinicianOf[r]), slot: Int(state.slotOf[r]))
                : nil
            if let old {
                let prof = state.proficiency(p, request: r, clinician: old.clinician)
                state.remove(p, request: r)
                if let choice = state.bestInsertion(
                    p, request: r, prefer: .earliest, onTimeOnly: true, threshold: Int64.min)
                {
                    state.place(
                        p, request: r, clinician: choice.clinician, slot: choice.slot, proficiency: choice.proficiency)
                } else {
                    state.place(p, request: r, clinician: old.clinician, slot: old.slot, proficiency: prof)
                }
            } else if let choice = state.bestInsertion(
                p, request: r, prefer: .earliest, onTimeOnly: true, threshold: Int64.min)
            {
                state.place(
                    p, request: r, clinician: choice.clinician, slot: choice.slot, proficiency: choice.proficiency)
            }
        }
        forceBest()
    }

    /// Makes the current schedule the result even if its objective is lower.
    mutating func forceBest() {
        bestObjective = state.objective(p)
        bestClinician = state.clinicianOf
        bestSlot = state.slotOf
    }
}
