import SharedKernel

// MARK: - Validation

extension SchedulingProblem {
    /// Checks that the problem is well formed, reporting every bad field by its path
    /// (`requests[3].duration`), so a caller can show all errors at once.
    ///
    /// The optimizer relies on these invariants (positive durations, known room types,
    /// unique ids); it does not re-check them in its inner loops.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        if horizon.start >= horizon.end { errors.add("horizon", "must end after it starts") }
        if granularity <= 0 { errors.add("granularity", "must be a positive number of minutes") }
        let roomIDs = Set(roomTypes.map(\.id))
        if roomIDs.count != roomTypes.count { errors.add("roomTypes", "ids must be unique") }
        for (i, room) in roomTypes.enumerated() where room.count < 0 {
            errors.add("roomTypes[\(i)].count", "must not be negative")
        }
        let clinicianIDs = Set(clinicians.map(\.id))
        if clinicianIDs.count != clinicians.count { errors.add("clinicians", "ids must be unique") }
        for (i, clinician) in clinicians.enumerated() {
            if clinician.maxDaily < 0 { errors.add("clinicians[\(i)].maxDaily", "must not be negative") }
            if clinician.targetMinutes < 0 { errors.add("clinicians[\(i)].targetMinutes", "must not be negative") }
            for (k, shift) in clinician.shifts.enumerated() where shift.start >= shift.end {
                errors.add("clinicians[\(i)].shifts[\(k)]", "must end after it starts")
            }
            for (k, pause) in clinician.breaks.enumerated() where pause.start >= pause.end {
                errors.add("clinicians[\(i)].breaks[\(k)]", "must end after it starts")
            }
            for (skill, level) in clinician.skills where level < 0 {
                errors.add("clinicians[\(i)].skills.\(skill)", "must not be negative")
            }
        }
        if Set(requests.map(\.id)).count != requests.count { errors.add("requests", "ids must be unique") }
        for (i, request) in requests.enumerated() {
            if request.duration <= 0 { errors.add("requests[\(i)].duration", "must be positive") }
            if request.weight < 0 { errors.add("requests[\(i)].weight", "must not be negative") }
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
            if booking.interval.start >= booking.interval.end {
                errors.add("fixedBookings[\(i)].interval", "must end after it starts")
            }
            if let room = booking.roomType, !roomIDs.contains(room) {
                errors.add("fixedBookings[\(i)].roomType", "unknown room type \(room)")
            }
        }
        for (name, share) in [("weights.requestShare", weights.requestShare), ("weights.balanceShare", weights.balanceShare)]
        where !(share.isFinite && share >= 0 && share <= 1_000_000) {
            errors.add(name, "must be a finite, non-negative number")
        }
        try errors.throwIfAny()
    }
}
