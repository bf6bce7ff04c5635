import SharedKernel

// MARK: - Limits

/// Bounds on the numbers and sizes of a ``SchedulingProblem``.
///
/// The optimizer does exact integer arithmetic on minutes, grid slots and points, and keeps a
/// grid of every clinician's and room type's slots in memory; these bounds keep all of it far
/// from overflow and within memory. They are generous: the largest vetsched-v1 instance has a
/// 5-day horizon, 200 clinicians, 5000 requests of at most 240 minutes and weights of at most 8.
public enum SchedulingLimits {
    /// Longest horizon, in days.
    public static let maxHorizonDays = 366
    /// Largest magnitude of any minute (horizon, shifts, breaks, starts, deadlines, windows,
    /// fixed bookings): about a century either side of minute 0.
    public static let maxMinute = 100 * 366 * SchedulingProblem.minutesPerDay
    /// Coarsest start-time grid, in minutes (one day).
    public static let maxGranularity = SchedulingProblem.minutesPerDay
    /// Longest request, in minutes (one day).
    public static let maxDuration = SchedulingProblem.minutesPerDay
    /// Largest request weight.
    public static let maxWeight = 1_000
    /// Largest value of each point weight (`assign`, `qualityPerProficiency`, `onTime`, `preference`).
    public static let maxPoints = 1_000
    /// Largest proficiency (the scale is 1…5).
    public static let maxProficiency = 100
    /// Largest daily appointment cap and room count.
    public static let maxCount = 100_000
    /// Largest share of the score (the benchmark's are 0.9 and 0.1).
    public static let maxShare = 1_000.0
    /// Most clinicians.
    public static let maxClinicians = 10_000
    /// Most requests.
    public static let maxRequests = 100_000
    /// Most room types.
    public static let maxRoomTypes = 1_000
    /// Most fixed bookings.
    public static let maxFixedBookings = 1_000_000
    /// Most grid cells ((clinicians + room types) × horizon slots) the optimizer may allocate.
    public static let maxGridCells = 50_000_000
    /// Largest fair-share target, in minutes: all requests at their longest.
    public static let maxTargetMinutes = maxRequests * maxDuration
    /// The search compares objectives (`a·points − b·deviation`) as 64-bit integers; a problem
    /// whose attainable objective exceeds this is refused rather than scored inexactly.
    static let maxObjective = Int128(Int64.max / 4)
}

// MARK: - Validation

extension SchedulingProblem {
    /// Checks that the problem is well formed and within ``SchedulingLimits``, reporting every
    /// bad field by its path (`requests[3].duration`), so a caller can show all errors at once.
    ///
    /// The optimizer relies on these invariants (positive durations, known room types,
    /// unique ids, bounded numbers); it does not re-check them in its inner loops.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        typealias L = SchedulingLimits
        let minutes = -L.maxMinute...L.maxMinute
        func checkMinute(_ value: Int, _ field: String) {
            if !minutes.contains(value) {
                errors.add(field, "must be within \(L.maxMinute) minutes of minute 0 (about a century)")
            }
        }
        func checkInterval(_ interval: MinuteInterval, _ field: String) {
            checkMinute(interval.start, field + ".start")
            checkMinute(interval.end, field + ".end")
        }
        func checkCount(_ count: Int, _ limit: Int, _ field: String) {
            if count > limit { errors.add(field, "must have at most \(limit) entries") }
        }

        checkInterval(horizon, "horizon")
        if horizon.start >= horizon.end {
            errors.add("horizon", "must end after it starts")
        } else if minutes.contains(horizon.start), minutes.contains(horizon.end),
            horizon.end - horizon.start > L.maxHorizonDays * SchedulingProblem.minutesPerDay
        {
            errors.add("horizon", "must span at most \(L.maxHorizonDays) days")
        }
        if granularity <= 0 {
            errors.add("granularity", "must be a positive number of minutes")
        } else if granularity > L.maxGranularity {
            errors.add("granularity", "must be at most \(L.maxGranularity) minutes (one day)")
        }
        checkCount(clinicians.count, L.maxClinicians, "clinicians")
        checkCount(requests.count, L.maxRequests, "requests")
        checkCount(roomTypes.count, L.maxRoomTypes, "roomTypes")
        checkCount(fixedBookings.count, L.maxFixedBookings, "fixedBookings")
        if granularity > 0, horizon.start < horizon.end, minutes.contains(horizon.start), minutes.contains(horizon.end)
        {
            let slots = (horizon.end - horizon.start) / granularity + 2
            if (clinicians.count + roomTypes.count) * slots > L.maxGridCells {
                errors.add(
                    "horizon",
                    "with \(clinicians.count) clinicians and \(roomTypes.count) room types, must have at most "
                        + "\(L.maxGridCells) clinician-slots; use a coarser granularity or a shorter horizon")
            }
        }
        let roomIDs = Set(roomTypes.map(\.id))
        if roomIDs.count != roomTypes.count { errors.add("roomTypes", "ids must be unique") }
        for (i, room) in roomTypes.enumerated() where !(0...L.maxCount).contains(room.count) {
            errors.add("roomTypes[\(i)].count", "must be 0 to \(L.maxCount)")
        }
        let clinicianIDs = Set(clinicians.map(\.id))
        if clinicianIDs.count != clinicians.count { errors.add("clinicians", "ids must be unique") }
        for (i, clinician) in clinicians.enumerated() {
            if !(0...L.maxCount).contains(clinician.maxDaily) {
                errors.add("clinicians[\(i)].maxDaily", "must be 0 to \(L.maxCount)")
            }
            if !(0...L.maxTargetMinutes).contains(clinician.targetMinutes) {
                errors.add("clinicians[\(i)].targetMinutes", "must be 0 to \(L.maxTargetMinutes)")
            }
            for (k, shift) in clinician.shifts.enumerated() {
                checkInterval(shift, "clinicians[\(i)].shifts[\(k)]")
                if shift.start >= shift.end { errors.add("clinicians[\(i)].shifts[\(k)]", "must end after it starts") }
            }
            for (k, pause) in clinician.breaks.enumerated() {
                checkInterval(pause, "clinicians[\(i)].breaks[\(k)]")
                if pause.start >= pause.end { errors.add("clinicians[\(i)].breaks[\(k)]", "must end after it starts") }
            }
            for (skill, level) in clinician.skills.sorted(by: { $0.key < $1.key })
            where !(0...L.maxProficiency).contains(level) {
                errors.add("clinicians[\(i)].skills.\(skill)", "must be 0 to \(L.maxProficiency)")
            }
        }
        if Set(requests.map(\.id)).count != requests.count { errors.add("requests", "ids must be unique") }
        for (i, request) in requests.enumerated() {
            if request.duration <= 0 {
                errors.add("requests[\(i)].duration", "must be positive")
            } else if request.duration > L.maxDuration {
                errors.add("requests[\(i)].duration", "must be at most \(L.maxDuration) minutes (one day)")
            }
            if !(0...L.maxWeight).contains(request.weight) {
                errors.add("requests[\(i)].weight", "must be 0 to \(L.maxWeight)")
            }
            checkMinute(request.earliestStart, "requests[\(i)].earliestStart")
            checkMinute(request.deadline, "requests[\(i)].deadline")
            checkInterval(request.preferredWindow, "requests[\(i)].preferredWindow")
            if !roomIDs.contains(request.roomType) {
                errors.add("requests[\(i)].roomType", "unknown room type \(request.roomType)")
            }
            if request.preferredWindow.start > request.preferredWindow.end {
                errors.add("requests[\(i)].preferredWindow", "must not end before it starts")
            }
        }
        for (i, booking) in fixedBookings.enumerated() {
            if !clinicianIDs.contains(booking.clinicianID) {
                errors.add("fixedBookings[\(i)].clinicianID", "unknown clinician \(booking.clinicianID)")
            }
            checkInterval(booking.interval, "fixedBookings[\(i)].interval")
            if booking.interval.start >= booking.interval.end {
                errors.add("fixedBookings[\(i)].interval", "must end after it starts")
            }
            if let room = booking.roomType, !roomIDs.contains(room) {
                errors.add("fixedBookings[\(i)].roomType", "unknown room type \(room)")
            }
        }
        for (name, points) in [
            ("weights.assign", weights.assign), ("weights.qualityPerProficiency", weights.qualityPerProficiency),
            ("weights.onTime", weights.onTime), ("weights.preference", weights.preference),
        ]
        where !(0...L.maxPoints).contains(points) {
            errors.add(name, "must be 0 to \(L.maxPoints)")
        }
        for (name, share) in [
            ("weights.requestShare", weights.requestShare), ("weights.balanceShare", weights.balanceShare),
        ]
        where !(share.isFinite && share >= 0 && share <= L.maxShare) {
            errors.add(name, "must be a finite number from 0 to \(Int(L.maxShare))")
        }
        try errors.throwIfAny()
        // Every number is bounded now, so the score's constants can be computed safely.
        if !ScoreConstants(self).objectiveFits(self) {
            throw ValidationError(
                field: "requests",
                message: "together with the weights, the requests are too many, too long or "
                    + "too heavily weighted to be scored exactly; split the problem or lower the weights")
        }
    }
}
