import Foundation
import SharedKernel

// MARK: - Booking

extension Appointment {
    /// How long after a time has begun it may still be booked or moved to: five minutes.
    ///
    /// Free slots are offered from now, rounded up to the slot step, and the animal is at the
    /// desk while the receptionist picks one. A slot that began a moment ago is still the right
    /// one to book, so the booking accepts it; a start further back is in the past.
    public static let lateStartGraceSeconds: TimeInterval = 5 * 60

    /// Whether `start` is too far in the past to book at `now` (see ``lateStartGraceSeconds``).
    public static func startIsPast(_ start: Date, now: Date) -> Bool {
        start < now.addingTimeInterval(-lateStartGraceSeconds)
    }

    /// Decides a new booking of `type` at `start`. Checks the request only; whether the time is
    /// free is for the free-slot finder and, finally, the store's overlap constraint.
    ///
    /// - Parameter durationMinutes: the booked length; the type's default when `nil` (a
    ///   predicted duration is passed here).
    public static func book(
        id: Identifier<Appointment> = .init(), practiceID: PracticeID, patientID: UUID, clinicianID: UUID,
        type: AppointmentType, start: Date, durationMinutes: Int? = nil, roomID: Identifier<Room>? = nil,
        now: Date
    ) throws(ValidationError) -> AppointmentDecision {
        var errors = FieldErrorCollector()
        let minutes = durationMinutes ?? type.defaultDurationMinutes
        if !(1...720).contains(minutes) { errors.add("durationMinutes", "must be 1 to 720 minutes") }
        if startIsPast(start, now: now) { errors.add("start", "must not be more than 5 minutes in the past") }
        try errors.throwIfAny()
        let appointment = Appointment(
            id: id, practiceID: practiceID, patientID: patientID, clinicianID: clinicianID, appointmentTypeID: type.id,
            roomType: type.requiredRoomType, roomID: roomID,
            time: TimeRange(start: start, end: start.addingTimeInterval(TimeInterval(minutes * 60)))!,
            bufferAfterMinutes: type.bufferAfterMinutes)
        return AppointmentDecision(previous: nil, current: appointment, eventKind: AppointmentEventKind.booked)
    }
}

// MARK: - Decide and apply

extension Appointment {
    /// Decides what `command` does at `now`, without changing the appointment.
    public func decide(_ command: AppointmentCommand, at now: Date) throws(AppointmentLifecycleError)
        -> AppointmentDecision
    {
        let target = command.targetStatus
        guard status.canTransition(to: target) else { throw .illegalTransition(from: status, to: target) }
        var next = self
        next.status = target
        let kind: String
        switch command {
        case .reschedule(let newTime, let newClinician):
            var errors = FieldErrorCollector()
            if Self.startIsPast(newTime.start, now: now) {
                errors.add("start", "must not be more than 5 minutes in the past")
            }
            if newTime == time && (newClinician == nil || newClinician == clinicianID) {
                errors.add("start", "is the current time; nothing would change")
            }
            if let error = Self.validation(errors) { throw .invalid(error) }
            next.time = newTime
            if let newClinician { next.clinicianID = newClinician }
            kind = AppointmentEventKind.moved

        case .checkIn:
            next.checkedInAt = now
            kind = AppointmentEventKind.checkedIn

        case .start:
            next.startedAt = now
            kind = AppointmentEventKind.started

        case .complete(let given):
            // Measured from the start command; rounded up so a 20 min 10 s consultation counts as 21.
            let measured = Int((now.timeIntervalSince(startedAt ?? now) / 60).rounded(.up))
            let minutes = given ?? max(1, measured)
            if !(1...1440).contains(minutes) {
                throw .invalid(ValidationError(field: "actualMinutes", message: "must be 1 to 1440 minutes"))
            }
            next.completedAt = now
            next.actualMinutes = minutes
            kind = AppointmentEventKind.completed

        case .cancel(let reason):
            let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty {
                throw .invalid(ValidationError(field: "reason", message: "a cancellation needs a reason"))
            }
            next.cancellationReason = trimmed
            kind = AppointmentEventKind.cancelled

        case .markNoShow:
            if now < time.start { throw .noShowBeforeStart(scheduledStart: time.start) }
            kind = AppointmentEventKind.noShow
        }
        return AppointmentDecision(previous: self, current: next, eventKind: kind)
    }

    /// Decides and applies `command`; returns the decision for the caller to persist and publish.
    @discardableResult
    public mutating func handle(_ command: AppointmentCommand, at now: Date) throws(AppointmentLifecycleError)
        -> AppointmentDecision
    {
        let decision = try decide(command, at: now)
        self = decision.current
        return decision
    }

    private static func validation(_ errors: FieldErrorCollector) -> ValidationError? {
        errors.errors.isEmpty ? nil : ValidationError(errors.errors)
    }
}
