// MARK: - Compiled problem

/// The problem translated to flat integer arrays on the start-time grid, the form the
/// search works on. Slot `s` is the grid cell starting at minute `(slotBase + s)·granularity`.
///
/// Occupancy is tracked per slot; an appointment whose duration is not a multiple of the
/// grid blocks its last partial slot entirely, which is conservative (never infeasible).
struct CompiledProblem: Sendable {
    /// A shift of a clinician as a range of start slots, before request-specific trimming.
    struct Shift: Sendable {
        /// First minute of the shift.
        var startMinute: Int
        /// End minute of the shift (exclusive).
        var endMinute: Int
        /// Day index (relative to `dayBase`) that rule H6 counts the shift's appointments on.
        var day: Int
    }

    /// A request's constants.
    struct Request: Sendable {
        var duration: Int
        var durationSlots: Int
        var weight: Int64
        var room: Int
        var earliestSlot: Int
        /// Last start slot that is on time.
        var deadlineSlot: Int
        /// Start slots inside the preferred window: `prefLo...prefHi` (may be empty).
        var prefLo: Int
        var prefHi: Int
        var urgent: Bool
        var urgency: Int
        var deadline: Int
        /// Eligible clinicians and their proficiency, by decreasing proficiency.
        var eligible: [(clinician: Int32, proficiency: Int32)]
    }

    let granularity: Int
    let slotBase: Int
    let slotCount: Int
    let dayBase: Int
    let dayCount: Int
    let horizonEnd: Int
    let clinicianCount: Int
    let requestCount: Int
    let roomTypeCount: Int

    let shifts: [[Shift]]
    let maxDaily: [Int32]
    let target: [Int]
    let roomCapacity: [Int32]
    let requests: [Request]
    /// Start categories per request, best bonus first.
    private(set) var categories: [[StartCategory]] = []

    /// Clinician occupancy before any request is placed: `free` inside shifts, `blocked`
    /// outside them, on breaks and under fixed bookings. Index `c·slotCount + s`.
    let baseTimeline: [Int32]
    /// Room use by fixed bookings, index `k·slotCount + s`.
    let baseRoomUse: [Int32]
    /// Appointments per clinician-day from fixed bookings, index `c·dayCount + d`.
    let baseDayUse: [Int32]
    /// Minutes booked by fixed bookings per clinician.
    let baseBooked: [Int]

    /// Points = assign + quality·prof + onTime·[on] + preference·[pref], times the weight.
    let assignPoints: Int64
    let qualityPoints: Int64
    let onTimePoints: Int64
    let preferencePoints: Int64
    /// objective = pointsCoefficient·points − deviationCoefficient·deviation.
    let pointsCoefficient: Int64
    let deviationCoefficient: Int64
    /// The problem's score constants, to report scores.
    let constants: ScoreConstants

    static let free: Int32 = -1
    static let blocked: Int32 = -2

    // MARK: - Compilation

    init(_ problem: SchedulingProblem) {
        let g = problem.granularity
        granularity = g
        slotBase = ceilDiv(problem.horizon.start, g)
        slotCount = max(0, ceilDiv(problem.horizon.end, g) - slotBase)
        horizonEnd = problem.horizon.end
        let day = SchedulingProblem.minutesPerDay
        dayBase = floorDiv(problem.horizon.start, day)
        dayCount = max(1, floorDiv(problem.horizon.end - 1, day) - dayBase + 1)
        clinicianCount = problem.clinicians.count
        requestCount = problem.requests.count
        roomTypeCount = problem.roomTypes.count

        let roomIndex = Dictionary(problem.roomTypes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let clinicianIndex = Dictionary(
            problem.clinicians.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        roomCapacity = problem.roomTypes.map { Int32($0.count) }
        maxDaily = problem.clinicians.map { Int32($0.maxDaily) }
        target = problem.clinicians.map(\.targetMinutes)

        var timeline = [Int32](repeating: Self.blocked, count: clinicianCount * slotCount)
        var shifts: [[Shift]] = []
        let (slotBase, slotCount, dayBase) = (slotBase, slotCount, dayBase)
        func slots(of interval: MinuteInterval) -> Range<Int> {
            let lo = max(0, floorDiv(interval.start, g) - slotBase)
            let hi = min(slotCount, ceilDiv(interval.end, g) - slotBase)
            return lo..<max(lo, hi)
        }
        for (c, clinician) in problem.clinicians.enumerated() {
            let row = c * slotCount
            for shift in clinician.shifts {
                for s in slots(of: shift) { timeline[row + s] = Self.free }
            }
            for pause in clinician.breaks {
                for s in slots(of: pause) { timeline[row + s] = Self.blocked }
            }
            shifts.append(
                clinician.shifts.sorted { $0.start < $1.start }.map {
                    Shift(startMinute: $0.start, endMinute: $0.end, day: floorDiv($0.start, day) - dayBase)
                })
        }
        var roomUse = [Int32](repeating: 0, count: roomTypeCount * slotCount)
        var dayUse = [Int32](repeating: 0, count: clinicianCount * dayCount)
        var booked = [Int](repeating: 0, count: clinicianCount)
        for fixed in problem.fixedBookings {
            guard let c = clinicianIndex[fixed.clinicianID] else { continue }
            for s in slots(of: fixed.interval) { timeline[c * slotCount + s] = Self.blocked }
            if let type = fixed.roomType, let k = roomIndex[type] {
                for s in slots(of: fixed.interval) { roomUse[k * slotCount + s] += 1 }
            }
            let d = floorDiv(fixed.interval.start, day) - dayBase
            if d >= 0 && d < dayCount { dayUse[c * dayCount + d] += 1 }
            booked[c] += fixed.interval.end - fixed.interval.start
        }
        self.shifts = shifts
        baseTimeline = timeline
        baseRoomUse = roomUse
        baseDayUse = dayUse
        baseBooked = booked

        requests = problem.requests.map { r in
            var eligible: [(clinician: Int32, proficiency: Int32)] = []
            for (c, clinician) in problem.clinicians.enumerated() {
                let p = clinician.proficiency(in: r.specialty)
                if p >= 1 { eligible.append((Int32(c), Int32(p))) }
            }
            eligible.sort { ($0.proficiency, -$0.clinician) > ($1.proficiency, -$1.clinician) }
            return Request(
                duration: r.duration, durationSlots: ceilDiv(r.duration, g), weight: Int64(r.weight),
                room: roomIndex[r.roomType] ?? 0,
                earliestSlot: max(0, ceilDiv(r.earliestStart, g) - slotBase),
                deadlineSlot: floorDiv(r.deadline, g) - slotBase,
                prefLo: ceilDiv(r.preferredWindow.start, g) - slotBase,
                prefHi: floorDiv(r.preferredWindow.end - r.duration, g) - slotBase,
                urgent: r.isUrgent, urgency: r.urgency, deadline: r.deadline, eligible: eligible)
        }
        let w = problem.weights
        assignPoints = Int64(w.assign)
        qualityPoints = Int64(w.qualityPerProficiency)
        onTimePoints = Int64(w.onTime)
        preferencePoints = Int64(w.preference)
        constants = ScoreConstants(problem)
        (pointsCoefficient, deviationCoefficient) = constants.objectiveCoefficients
        categories = requests.map { StartCategory.categories(self, $0) }
    }

    // MARK: - Helpers

    /// First minute of slot `s`.
    @inline(__always) func minute(ofSlot s: Int) -> Int { (slotBase + s) * granularity }

    /// Start slots of request `r` inside `shift`: inside the shift, the horizon, and not before
    /// the earliest start. Empty when the request does not fit.
    @inline(__always) func startRange(request r: Int, shift: Shift) -> ClosedRange<Int>? {
        let req = requests[r]
        let lo = max(req.earliestSlot, ceilDiv(shift.startMinute, granularity) - slotBase, 0)
        let end = min(shift.endMinute, horizonEnd)
        let hi = floorDiv(end - req.duration, granularity) - slotBase
        return lo <= hi ? lo...hi : nil
    }

    /// Weighted points of request `r` with proficiency `p`, on time or not, in the window or not.
    @inline(__always) func points(request r: Int, proficiency p: Int32, onTime: Bool, inPreference: Bool) -> Int64 {
        let req = requests[r]
        return req.weight
            * (assignPoints + qualityPoints * Int64(p)
                + (onTime ? onTimePoints : 0) + (inPreference ? preferencePoints : 0))
    }
}

/// Ceiling division for any signs.
@inline(__always) func ceilDiv(_ a: Int, _ b: Int) -> Int { -floorDiv(-a, b) }
