// MARK: - Search state

/// A schedule under construction: flat occupancy arrays plus the objective maintained
/// incrementally, so that placing or removing one request costs O(duration) and never a
/// rescan of the schedule.
struct ScheduleState: Sendable {
    /// Request index per clinician slot, or ``CompiledProblem/free``/``CompiledProblem/blocked``.
    var timeline: [Int32]
    /// Running appointments per room type and slot.
    var roomUse: [Int32]
    /// Appointments per clinician-day.
    var dayUse: [Int32]
    /// Booked minutes per clinician.
    var booked: [Int]
    /// Clinician of each request, -1 when unassigned.
    var clinicianOf: [Int32]
    /// Start slot of each request (meaningful when assigned).
    var slotOf: [Int32]
    /// Points each placed request earns (to subtract them on removal without recomputing).
    var pointsOf: [Int64]
    /// Σ points of placed requests.
    private(set) var points: Int64 = 0
    /// Σ |booked − target| over clinicians.
    private(set) var deviation: Int64 = 0

    init(_ p: CompiledProblem) {
        timeline = p.baseTimeline
        roomUse = p.baseRoomUse
        dayUse = p.baseDayUse
        booked = p.baseBooked
        clinicianOf = [Int32](repeating: -1, count: p.requestCount)
        slotOf = [Int32](repeating: 0, count: p.requestCount)
        pointsOf = [Int64](repeating: 0, count: p.requestCount)
        deviation = (0..<p.clinicianCount).reduce(0) { $0 + Int64(abs(booked[$1] - p.target[$1])) }
    }

    /// The value the search maximizes; the score is an increasing affine function of it.
    @inline(__always) func objective(_ p: CompiledProblem) -> Int64 {
        p.pointsCoefficient * points - p.deviationCoefficient * deviation
    }

    @inline(__always) func isAssigned(_ r: Int) -> Bool { clinicianOf[r] >= 0 }

    /// Change of the deviation term if clinician `c` gains `minutes` (negative to lose them).
    @inline(__always) func deviationDelta(_ p: CompiledProblem, clinician c: Int, minutes: Int) -> Int64 {
        let t = p.target[c]
        let b = booked[c]
        return Int64(abs(b + minutes - t) - abs(b - t))
    }

    // MARK: - Place and remove

    /// Places request `r` on clinician `c` at slot `s`; the caller has checked feasibility.
    mutating func place(_ p: CompiledProblem, request r: Int, clinician c: Int, slot s: Int, proficiency: Int32) {
        let req = p.requests[r]
        let row = c * p.slotCount
        let roomRow = req.room * p.slotCount
        for i in s..<(s + req.durationSlots) {
            timeline[row + i] = Int32(r)
            roomUse[roomRow + i] += 1
        }
        let day = p.dayOf(slot: s)
        dayUse[c * p.dayCount + day] += 1
        deviation += deviationDelta(p, clinician: c, minutes: req.duration)
        booked[c] += req.duration
        let pts = p.points(
            request: r, proficiency: proficiency, onTime: s <= req.deadlineSlot,
            inPreference: s >= req.prefLo && s <= req.prefHi)
        clinicianOf[r] = Int32(c)
        slotOf[r] = Int32(s)
        pointsOf[r] = pts
        points += pts
    }

    /// Removes request `r` (which must be placed).
    mutating func remove(_ p: CompiledProblem, request r: Int) {
        let req = p.requests[r]
        let c = Int(clinicianOf[r])
        let s = Int(slotOf[r])
        let row = c * p.slotCount
        let roomRow = req.room * p.slotCount
        for i in s..<(s + req.durationSlots) {
            timeline[row + i] = CompiledProblem.free
            roomUse[roomRow + i] -= 1
        }
        dayUse[c * p.dayCount + p.dayOf(slot: s)] -= 1
        deviation += deviationDelta(p, clinician: c, minutes: -req.duration)
        booked[c] -= req.duration
        points -= pointsOf[r]
        pointsOf[r] = 0
        clinicianOf[r] = -1
    }

    /// Proficiency of clinician `c` for request `r` (0 if not eligible).
    func proficiency(_ p: CompiledProblem, request r: Int, clinician c: Int) -> Int32 {
        for e in p.requests[r].eligible where Int(e.clinician) == c { return e.proficiency }
        return 0
    }

    /// The placed requests as (request, clinician, start minute).
    func placements(_ p: CompiledProblem) -> [(request: Int, clinician: Int, start: Int)] {
        (0..<p.requestCount).compactMap { r in
            clinicianOf[r] >= 0 ? (r, Int(clinicianOf[r]), p.minute(ofSlot: Int(slotOf[r]))) : nil
        }
    }
}

extension CompiledProblem {
    /// Day index (relative to `dayBase`) of an appointment starting in slot `s`.
    @inline(__always) func dayOf(slot s: Int) -> Int {
        floorDiv(minute(ofSlot: s), SchedulingProblem.minutesPerDay) - dayBase
    }
}
