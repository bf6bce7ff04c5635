// MARK: - Checker and scorer

/// Checks a schedule against rules H1–H7 and scores it exactly as the vetsched-v1 reference
/// checker (`Benchmarks/vetsched-v1/evaluate.py`) does: same rules in the same order, the
/// score in exact rational arithmetic with the shares limited to denominators ≤ 1000.
///
/// Fixed bookings, which the benchmark does not have, count as occupied clinician time,
/// as appointments of their day, as workload and (with a room type) as room use.
public enum ScheduleScorer {
    /// Evaluates `assignments` for `problem`, keeping at most `maxViolations` messages.
    public static func evaluate(
        _ problem: SchedulingProblem, _ assignments: [SchedulingAssignment],
        maxViolations: Int = 50
    ) -> ScheduleEvaluation {
        var violations: [ScheduleViolation] = []
        func fail(_ rule: HardConstraint, _ message: String) {
            if violations.count < maxViolations { violations.append(ScheduleViolation(rule: rule, message: message)) }
        }
        let day = SchedulingProblem.minutesPerDay
        let weights = problem.weights
        let clinicians = Dictionary(problem.clinicians.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let requests = Dictionary(problem.requests.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let roomCounts = Dictionary(problem.roomTypes.map { ($0.id, $0.count) }, uniquingKeysWith: { a, _ in a })

        var seen = Set<String>()
        var perClinician: [String: [(start: Int, end: Int, id: String)]] = [:]
        var perRoomType: [String: [(Int, Int)]] = [:]
        var perRoom: [String: [(start: Int, end: Int, id: String)]] = [:]
        var dayCount: [DayKey: Int] = [:]
        var booked: [String: Int] = [:]
        for fixed in problem.fixedBookings {
            perClinician[fixed.clinicianID, default: []].append((fixed.interval.start, fixed.interval.end, fixed.id))
            dayCount[DayKey(clinician: fixed.clinicianID, day: floorDiv(fixed.interval.start, day)), default: 0] += 1
            booked[fixed.clinicianID, default: 0] += fixed.interval.end - fixed.interval.start
            if let room = fixed.roomType {
                perRoomType[room, default: []].append((fixed.interval.start, fixed.interval.end))
            }
        }
        var points = 0
        var assigned = 0
        var onTime = 0
        var inPreference = 0
        var urgentOnTime = 0
        for a in assignments {
            let rid = a.requestID
            let sid = a.clinicianID
            let t = a.start
            guard let r = requests[rid] else {
                fail(.h1, "H1 unknown request \(rid)")
                continue
            }
            guard seen.insert(rid).inserted else {
                fail(.h1, "H1 duplicate request \(rid)")
                continue
            }
            guard let s = clinicians[sid] else {
                fail(.h1, "H1 unknown specialist \(sid) for \(rid)")
                continue
            }
            let e = t + r.duration
            let prof = s.proficiency(in: r.specialty)
            if prof < 1 { fail(.h2, "H2 \(sid) lacks \(r.specialty) for \(rid)") }
            if t % problem.granularity != 0 { fail(.h3, "H3 \(rid) start \(t) not multiple of \(problem.granularity)") }
            if t < r.earliestStart { fail(.h3, "H3 \(rid) starts \(t) before earliest_start \(r.earliestStart)") }
            if t < problem.horizon.start || e > problem.horizon.end { fail(.h3, "H3 \(rid) outside horizon") }
            if !s.shifts.contains(where: { $0.start <= t && e <= $0.end }) {
                fail(.h4, "H4 \(rid) [\(t),\(e)) not inside a shift of \(sid)")
            }
            for pause in s.breaks where t < pause.end && pause.start < e {
                fail(.h4, "H4 \(rid) [\(t),\(e)) overlaps break of \(sid)")
            }
            perClinician[sid, default: []].append((t, e, rid))
            dayCount[DayKey(clinician: sid, day: floorDiv(t, day)), default: 0] += 1
            perRoomType[r.roomType, default: []].append((t, e))
            if let room = a.room {
                let parts = room.split(separator: "#", omittingEmptySubsequences: false)
                let index = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
                let type = parts.count == 2 ? String(parts[0]) : nil
                let count = roomCounts[r.roomType] ?? 0
                if type != r.roomType || index < 1 || index > count {
                    fail(.h7, "H7 \(rid) bad room \(room) (needs \(r.roomType))")
                }
                perRoom[room, default: []].append((t, e, rid))
            }
            booked[sid, default: 0] += r.duration
            let on = t <= r.deadline
            let pref = r.preferredWindow.start <= t && e <= r.preferredWindow.end
            points +=
                r.weight
                * (weights.assign + weights.qualityPerProficiency * prof
                    + (on ? weights.onTime : 0) + (pref ? weights.preference : 0))
            assigned += 1
            if on { onTime += 1 }
            if pref { inPreference += 1 }
            if r.isUrgent && on { urgentOnTime += 1 }
        }
        for sid in perClinician.keys.sorted() {
            let list = perClinician[sid]!.sorted { ($0.start, $0.end, $0.id) < ($1.start, $1.end, $1.id) }
            for (x, y) in zip(list, list.dropFirst()) where y.start < x.end {
                fail(.h5, "H5 \(sid): \(x.id) [\(x.start),\(x.end)) overlaps \(y.id) [\(y.start),\(y.end))")
            }
        }
        for key in dayCount.keys.sorted(by: { ($0.clinician, $0.day) < ($1.clinician, $1.day) }) {
            let count = dayCount[key]!
            let cap = clinicians[key.clinician]?.maxDaily ?? 0
            if count > cap { fail(.h6, "H6 \(key.clinician) day \(key.day): \(count) > max_daily \(cap)") }
        }
        for type in perRoomType.keys.sorted() {
            let concurrency = maxConcurrency(perRoomType[type]!)
            let cap = roomCounts[type] ?? 0
            if concurrency > cap { fail(.h7, "H7 room type \(type): concurrency \(concurrency) > \(cap)") }
        }
        for room in perRoom.keys.sorted() {
            let list = perRoom[room]!.sorted { ($0.start, $0.end, $0.id) < ($1.start, $1.end, $1.id) }
            for (x, y) in zip(list, list.dropFirst()) where y.start < x.end {
                fail(.h7, "H7 room \(room): \(x.id) overlaps \(y.id)")
            }
        }
        return summarize(
            problem, violations: violations, points: points, booked: booked, assigned: assigned,
            onTime: onTime, inPreference: inPreference, urgentOnTime: urgentOnTime)
    }

    // MARK: - Score

    private static func summarize(
        _ problem: SchedulingProblem, violations: [ScheduleViolation], points: Int,
        booked: [String: Int], assigned: Int, onTime: Int, inPreference: Int,
        urgentOnTime: Int
    ) -> ScheduleEvaluation {
        let constants = ScoreConstants(problem)
        let deviation = problem.clinicians.reduce(0) { $0 + abs((booked[$1.id] ?? 0) - $1.targetMinutes) }
        let sReq = ExactFraction(Int128(points), Int128(constants.maxPoints))
        let sBal =
            constants.totalDemand == 0
            ? ExactFraction(1)
            : ExactFraction(1) - ExactFraction(Int128(deviation), Int128(2 * constants.totalDemand))
        let score = constants.score(points: points, deviation: deviation)
        return ScheduleEvaluation(
            violations: violations, exactScore: score, requestShare: sReq, balanceShare: sBal,
            requestPoints: points, requestPointsMax: constants.maxPoints, balanceDeviationMinutes: deviation,
            totalDemandMinutes: constants.totalDemand, assigned: assigned,
            unassigned: problem.requests.count - assigned, onTime: onTime, inPreference: inPreference,
            urgentOnTime: urgentOnTime, urgentTotal: problem.requests.count(where: \.isUrgent))
    }

    /// Largest number of intervals running at one instant (ends before starts at equal times).
    static func maxConcurrency(_ intervals: [(Int, Int)]) -> Int {
        var events: [(Int, Int)] = []
        events.reserveCapacity(intervals.count * 2)
        for (a, b) in intervals {
            events.append((a, 1))
            events.append((b, -1))
        }
        events.sort { $0 < $1 }
        var current = 0
        var best = 0
        for (_, delta) in events {
            current += delta
            best = max(best, current)
        }
        return best
    }

    private struct DayKey: Hashable {
        var clinician: String
        var day: Int
    }
}

/// Floor division (Python's `//`), so negative minutes fall on the previous day.
func floorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
