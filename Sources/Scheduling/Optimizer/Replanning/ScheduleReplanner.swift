import SharedKernel

// MARK: - Re-planning around an absent clinician

/// Re-books the appointments of a clinician who becomes unavailable for a day, moving as
/// few appointments as possible and never making an on-time appointment late.
///
/// Each displaced appointment (most urgent, then earliest deadline first) goes to its best
/// on-time placement with everyone else kept where they are: one move each. Only when that
/// fails does the planner try a two-move chain, shifting one appointment of a qualified
/// clinician (itself kept on time) to make room. An appointment that was already late may
/// go anywhere. Pure: it returns the decision and changes nothing.
public enum ScheduleReplanner {
    /// Re-plans `assignments` (a feasible schedule for `problem`) for `clinicianID` being
    /// unavailable on day `day` (minutes `[1440·day, 1440·(day+1))`).
    ///
    /// - Throws: ``ValidationError`` when the problem is malformed, the clinician is unknown
    ///   or the schedule breaks a hard constraint.
    public static func clinicianUnavailable(
        _ problem: SchedulingProblem, assignments: [SchedulingAssignment],
        clinicianID: String, day: Int
    ) throws(ValidationError) -> ReplanResult {
        try problem.validate()
        guard let absent = problem.clinicians.firstIndex(where: { $0.id == clinicianID }) else {
            throw ValidationError(field: "clinicianID", message: "unknown clinician \(clinicianID)")
        }
        let check = ScheduleScorer.evaluate(problem, assignments, maxViolations: 5)
        if !check.feasible {
            throw ValidationError(check.violations.map { FieldError(field: "assignments", message: $0.message) })
        }
        // The absent clinician keeps only the shifts of other days.
        var reduced = problem
        let dayStart = day * SchedulingProblem.minutesPerDay
        let dayEnd = dayStart + SchedulingProblem.minutesPerDay
        reduced.clinicians[absent].shifts.removeAll { $0.start < dayEnd && dayStart < $0.end }
        let p = CompiledProblem(reduced)
        let requestIndex = Dictionary(
            problem.requests.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        let clinicianIndex = Dictionary(
            problem.clinicians.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })

        var state = ScheduleState(p)
        var displaced: [Int] = []
        var original: [Int: SchedulingAssignment] = [:]
        for a in assignments {
            let r = requestIndex[a.requestID]!
            let c = clinicianIndex[a.clinicianID]!
            original[r] = a
            if c == absent && floorDiv(a.start, SchedulingProblem.minutesPerDay) == day {
                displaced.append(r)
            } else {
                let slot = a.start / p.granularity - p.slotBase
                state.place(
                    p, request: r, clinician: c, slot: slot, proficiency: state.proficiency(p, request: r, clinician: c)
                )
            }
        }
        displaced.sort { a, b in
            let x = problem.requests[a]
            let y = problem.requests[b]
            return (-x.urgency, x.deadline, a) < (-y.urgency, y.deadline, b)
        }
        var planner = Planner(p: p, state: state, original: original, absent: absent)
        var unplaced: [UnplacedAppointment] = []
        for r in displaced {
            if let reason = planner.rebook(r) {
                unplaced.append(UnplacedAppointment(assignment: original[r]!, reason: reason))
            }
        }
        return planner.result(problem, original: assignments, unplaced: unplaced)
    }
}
