// MARK: - Best insertion

/// Where a request can go and what it would add to the objective.
struct InsertionChoice: Sendable {
    var clinician: Int
    var slot: Int
    var proficiency: Int32
    /// Objective change of the placement.
    var delta: Int64
}

/// Which feasible start to take inside the best category: packing left or right changes
/// the gaps later requests can use, so the search alternates between them.
enum StartPreference: Sendable {
    case earliest
    case latest
}

extension ScheduleState {
    /// The placement of request `r` with the largest objective gain, or `nil` when no
    /// placement gains more than `threshold`.
    ///
    /// A request's points depend on the clinician (proficiency, balance) and on only two
    /// properties of the start (on time, in the preferred window). So instead of scanning
    /// every start of every clinician, the search walks the four (on time × in window)
    /// categories by bonus and the clinicians by base value, best first, and stops at the
    /// first feasible start whose value can no longer be beaten.
    func bestInsertion(
        _ p: CompiledProblem, request r: Int, prefer: StartPreference,
        onTimeOnly: Bool = false, threshold: Int64 = 0,
        excluding excluded: Int = -1
    ) -> InsertionChoice? {
        let req = p.requests[r]
        let a = p.pointsCoefficient
        let b = p.deviationCoefficient
        // Base value per eligible clinician, sorted best first (ties: proficiency order, stable).
        var order: [(value: Int64, index: Int32)] = []
        order.reserveCapacity(req.eligible.count)
        for (i, e) in req.eligible.enumerated() where Int(e.clinician) != excluded {
            let c = Int(e.clinician)
            let base =
                a * req.weight * (p.assignPoints + p.qualityPoints * Int64(e.proficiency))
                - b * deviationDelta(p, clinician: c, minutes: req.duration)
            order.append((base, Int32(i)))
        }
        order.sort { $0.value != $1.value ? $0.value > $1.value : $0.index < $1.index }

        var best: InsertionChoice?
        var bestValue = threshold
        for category in p.categories[r] {
            if onTimeOnly && !category.onTime { continue }
            let region = category.region
            if region.isEmpty { continue }
            let bonus = a * category.bonus
            for entry in order {
                let value = entry.value + bonus
                if value <= bestValue { break }
                let e = req.eligible[Int(entry.index)]
                if let s = firstStart(p, request: r, clinician: Int(e.clinician), region: region, prefer: prefer) {
                    bestValue = value
                    best = InsertionChoice(
                        clinician: Int(e.clinician), slot: s, proficiency: e.proficiency, delta: value)
                    break
                }
            }
        }
        return best
    }

    // MARK: - Scanning a clinician

    /// A feasible start slot for request `r` on clinician `c` inside `region`, or `nil`.
    func firstStart(
        _ p: CompiledProblem, request r: Int, clinician c: Int, region: SlotRegion,
        prefer: StartPreference
    ) -> Int? {
        let req = p.requests[r]
        let shifts = p.shifts[c]
        let dayRow = c * p.dayCount
        let cap = p.maxDaily[c]
        let forward = prefer == .earliest
        for k in 0..<shifts.count {
            let shift = shifts[forward ? k : shifts.count - 1 - k]
            guard let range = p.startRange(request: r, shift: shift) else { continue }
            for j in 0..<region.count {
                let (lo0, hi0) = region[forward ? j : region.count - 1 - j]
                let lo = max(lo0, range.lowerBound)
                let hi = min(hi0, range.upperBound)
                guard lo <= hi else { continue }
                // Rule H6 counts by the start's day; a shift crossing midnight is split.
                let firstDay = p.dayOf(slot: lo)
                let lastDay = p.dayOf(slot: hi)
                if firstDay == lastDay {
                    guard dayUse[dayRow + firstDay] < cap else { continue }
                    if let s = scan(p, clinician: c, request: req, lo: lo, hi: hi, forward: forward) { return s }
                    continue
                }
                let days = forward ? Array(firstDay...lastDay) : Array((firstDay...lastDay).reversed())
                for d in days where dayUse[dayRow + d] < cap {
                    let dayLo = max(lo, p.firstSlot(ofDay: d))
                    let dayHi = min(hi, p.firstSlot(ofDay: d + 1) - 1)
                    if let s = scan(p, clinician: c, request: req, lo: dayLo, hi: dayHi, forward: forward) { return s }
                }
            }
        }
        return nil
    }

    /// Scans starts `lo...hi` for one where the clinician is free and a room is available for
    /// the whole duration. On a conflict it jumps past the conflicting slot, so the scan is
    /// linear in the range however long the appointment is.
    @inline(__always)
    func scan(
        _ p: CompiledProblem, clinician c: Int, request req: CompiledProblem.Request,
        lo: Int, hi: Int, forward: Bool
    ) -> Int? {
        let row = c * p.slotCount
        let roomRow = req.room * p.slotCount
        let cap = p.roomCapacity[req.room]
        let n = req.durationSlots
        return timeline.withUnsafeBufferPointer { tl in
            roomUse.withUnsafeBufferPointer { ru in
                if forward {
                    var t = lo
                    outer: while t <= hi {
                        var i = t + n - 1
                        while i >= t {
                            if tl[row + i] != CompiledProblem.free || ru[roomRow + i] >= cap {
                                t = i + 1
                                continue outer
                            }
                            i -= 1
                        }
                        return t
                    }
                } else {
                    var t = hi
                    outer: while t >= lo {
                        var i = t
                        while i < t + n {
                            if tl[row + i] != CompiledProblem.free || ru[roomRow + i] >= cap {
                                t = i - n
                                continue outer
                            }
                            i += 1
                        }
                        return t
                    }
                }
                return nil
            }
        }
    }
}

// MARK: - Start categories

/// A category of starts (on time or late × inside the window or not) as at most two slot ranges.
struct StartCategory: Sendable {
    var onTime: Bool
    /// Weighted points the category adds to the base points.
    var bonus: Int64
    var region: SlotRegion

    /// The four categories of a request, highest bonus first (equal bonuses: on time first).
    static func categories(_ p: CompiledProblem, _ req: CompiledProblem.Request) -> [StartCategory] {
        let lowest = Int.min / 4
        let highest = Int.max / 4
        let onRange = (lowest, req.deadlineSlot)
        let lateRange = (req.deadlineSlot + 1, highest)
        let inPref = SlotRegion(ranges: [(req.prefLo, req.prefHi)])
        let outPref = SlotRegion(ranges: [(lowest, req.prefLo - 1), (req.prefHi + 1, highest)])
        var result: [StartCategory] = []
        for (on, time) in [(true, onRange), (false, lateRange)] {
            for (pref, window) in [(true, inPref), (false, outPref)] {
                let bonus = req.weight * ((on ? p.onTimePoints : 0) + (pref ? p.preferencePoints : 0))
                result.append(StartCategory(onTime: on, bonus: bonus, region: window.intersected(with: time)))
            }
        }
        return result.sorted { $0.bonus != $1.bonus ? $0.bonus > $1.bonus : ($0.onTime && !$1.onTime) }
    }
}

// MARK: - Slot regions

/// At most two closed ranges of start slots.
struct SlotRegion: Sendable {
    private var first: (Int, Int) = (0, -1)
    private var second: (Int, Int) = (0, -1)
    private(set) var count = 0

    init(ranges: [(Int, Int)]) {
        for r in ranges where r.0 <= r.1 { append(r) }
    }

    private mutating func append(_ r: (Int, Int)) {
        if count == 0 { first = r } else { second = r }
        count += 1
    }

    var isEmpty: Bool { count == 0 }

    subscript(i: Int) -> (Int, Int) { i == 0 ? first : second }

    /// The part of the region inside the closed range `other`.
    func intersected(with other: (Int, Int)) -> SlotRegion {
        var result = SlotRegion(ranges: [])
        for i in 0..<count {
            let r = self[i]
            let lo = max(r.0, other.0)
            let hi = min(r.1, other.1)
            if lo <= hi { result.append((lo, hi)) }
        }
        return result
    }
}

extension CompiledProblem {
    /// First slot whose start minute lies in day `d` (relative to `dayBase`).
    @inline(__always) func firstSlot(ofDay d: Int) -> Int {
        ceilDiv((d + dayBase) * SchedulingProblem.minutesPerDay, granularity) - slotBase
    }
}
