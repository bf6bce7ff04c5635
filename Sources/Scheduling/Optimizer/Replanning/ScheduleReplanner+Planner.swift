// MARK: - Planner state

extension ScheduleReplanner {
    /// The schedule being repaired and the moves made so far.
    struct Planner {
        let p: CompiledProblem
        var state: ScheduleState
        let original: [Int: SchedulingAssignment]
        let absent: Int
        /// Requests whose placement changed.
        var moved: Set<Int> = []

        /// Whether request `r` must stay on time (it was on time before).
        func mustBeOnTime(_ r: Int) -> Bool {
            guard let a = original[r] else { return true }
            return a.start <= p.requests[r].deadline
        }

        /// Re-books displaced request `r`; returns the reason when it cannot.
        mutating func rebook(_ r: Int) -> UnplacedReason? {
            let req = p.requests[r]
            if !req.eligible.contains(where: { Int($0.clinician) != absent }) { return .noQualifiedClinician }
            let onTime = mustBeOnTime(r)
            if let choice = state.bestInsertion(
                p, request: r, prefer: .earliest, onTimeOnly: onTime, threshold: Int64.min)
            {
                state.place(
                    p, request: r, clinician: choice.clinician, slot: choice.slot, proficiency: choice.proficiency)
                moved.insert(r)
                return nil
            }
            if chain(r, onTime: onTime) { return nil }
            return onTime ? .noOnTimeSlot : .noSlot
        }

        /// Two-move chain: move one appointment out of the way, then place `r`.
        mutating func chain(_ r: Int, onTime: Bool) -> Bool {
            let req = p.requests[r]
            let lo = max(0, req.earliestSlot)
            let hi = min(p.slotCount, (onTime ? req.deadlineSlot : p.slotCount) + req.durationSlots)
            guard lo < hi else { return false }
            for e in req.eligible where Int(e.clinician) != absent {
                let c = Int(e.clinician)
                let row = c * p.slotCount
                var candidates: [Int] = []
                for s in lo..<hi {
                    let b = Int(state.timeline[row + s])
                    if b >= 0 && !moved.contains(b) && candidates.last != b { candidates.append(b) }
                }
                for b in candidates {
                    let old = (clinician: Int(state.clinicianOf[b]), slot: Int(state.slotOf[b]))
                    let oldProf = state.proficiency(p, request: b, clinician: old.clinician)
                    state.remove(p, request: b)
                    if let first = state.bestInsertion(
                        p, request: r, prefer: .earliest, onTimeOnly: onTime, threshold: Int64.min)
                    {
                        state.place(
                            p, request: r, clinician: first.clinician, slot: first.slot, proficiency: first.proficiency)
                        if let second = state.bestInsertion(
                            p, request: b, prefer: .earliest, onTimeOnly: mustBeOnTime(b),
                            threshold: Int64.min)
                        {
                            state.place(
                                p, request: b, clinician: second.clinician, slot: second.slot,
                                proficiency: second.proficiency)
                            moved.insert(r)
                            moved.insert(b)
                            return true
                        }
                        state.remove(p, request: r)
                    }
                    state.place(p, request: b, clinician: old.clinician, slot: old.slot, proficiency: oldProf)
                }
            }
            return false
        }

        /// The new schedule and the list of moves.
        func result(
            _ problem: SchedulingProblem, original assignments: [SchedulingAssignment],
            unplaced: [UnplacedAppointment]
        ) -> ReplanResult {
            let unplacedIDs = Set(unplaced.map(\.assignment.requestID))
            var kept: [SchedulingAssignment] = []
            var moves: [ReplanMove] = []
            var roomBook = RoomBook(problem)
            let index = Dictionary(problem.requests.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
            for a in assignments where !unplacedIDs.contains(a.requestID) && !moved.contains(index[a.requestID]!) {
                kept.append(a)
                roomBook.hold(a, request: problem.requests[index[a.requestID]!])
            }
            for a in assignments {
                let r = index[a.requestID]!
                guard moved.contains(r) else { continue }
                var to = SchedulingAssignment(
                    requestID: a.requestID, clinicianID: problem.clinicians[Int(state.clinicianOf[r])].id,
                    start: p.minute(ofSlot: Int(state.slotOf[r])))
                to.room = roomBook.take(problem.requests[r], start: to.start)
                kept.append(to)
                moves.append(ReplanMove(from: a, to: to))
            }
            return ReplanResult(assignments: kept, moves: moves, unplaced: unplaced)
        }
    }

    /// Named rooms already held, to give a moved appointment a free room of its type.
    struct RoomBook {
        let counts: [String: Int]
        var held: [String: [(Int, Int)]] = [:]

        init(_ problem: SchedulingProblem) {
            counts = Dictionary(problem.roomTypes.map { ($0.id, $0.count) }, uniquingKeysWith: { a, _ in a })
        }

        mutating func hold(_ a: SchedulingAssignment, request: SchedulingRequest) {
            if let room = a.room { held[room, default: []].append((a.start, a.start + request.duration)) }
        }

        /// The lowest-numbered room of the request's type free for its whole duration, or
        /// `nil` (room left open; capacity per type is already guaranteed).
        mutating func take(_ request: SchedulingRequest, start: Int) -> String? {
            let end = start + request.duration
            for i in 1...max(1, counts[request.roomType] ?? 0) where i <= counts[request.roomType] ?? 0 {
                let room = "\(request.roomType)#\(i)"
                if !(held[room] ?? []).contains(where: { $0.0 < end && start < $0.1 }) {
                    held[room, default: []].append((start, end))
                    return room
                }
            }
            return nil
        }
    }
}
