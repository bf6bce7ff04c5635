import Foundation
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

/// A booking that cannot be made at the requested time, with the nearest free alternatives.
package struct SlotUnavailable: Error, Sendable {
    /// Why (never names another patient).
    package let detail: String
    /// The appointment in the way, when one is.
    package let conflictingTime: TimeRange?
    /// Nearest free starts before and after the requested one.
    package let alternatives: [FreeSlot]
}

/// The scheduling rules that need the store: free slots, booking with its race-proof guard,
/// lifecycle changes, matching, duration prediction. Pure decisions come from the domain
/// modules; this type loads what they need and persists what they decide.
package struct SchedulingService: Sendable {
    /// The ports it asks: the calendar and its bookings, the practice's types and settings, the roster.
    package let store: any SchedulingRepository & AppointmentDetailsRepository & ClinicianRoster
    /// The time its decisions are made at.
    package let clock: Clock

    /// A service over `store`, deciding at `clock`'s time.
    package init(store: any SchedulingRepository & AppointmentDetailsRepository & ClinicianRoster, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    /// What the free-slot finder and the matcher need for a period.
    package struct Snapshot: Sendable {
        package let practice: PracticeProfile
        package let clinicians: [Clinician]
        package let availabilities: [Identifier<Clinician>: Versioned<ClinicianAvailability>]
        package let types: [AppointmentType]
        package let rooms: [Room]
        package let appointments: [Appointment]
        package let finder: FreeSlotFinder

        package var timeZone: TimeZone { finder.calendar.timeZone }

        package func clinician(_ id: UUID) -> Clinician? { clinicians.first { $0.id.rawValue == id } }

        /// When `id` can be booked during `range`: their availability in the practice's zone with
        /// the practice's closures taken out. Every consumer (free slots, matching, intake,
        /// optimize, re-plan) reads working time through here or through the finder, which
        /// applies the same closures.
        package func workingWindows(_ id: Identifier<Clinician>, overlapping range: TimeRange) -> [TimeRange] {
            availabilities[id]?.value.windows(overlapping: range, timeZone: timeZone, closures: practice.closures) ?? []
        }

        /// Prepares the clinicians' working windows over `range` and the free-slot finder.
        init(data: SchedulingData, range: TimeRange) throws {
            guard let zone = TimeZone(identifier: data.practice.timeZone) else {
                throw ValidationError(field: "timeZone", message: "unknown")
            }
            let timetables = data.clinicians.map { clinician in
                ClinicianTimetable(
                    clinicianID: clinician.id.rawValue, specialties: Set(clinician.expertise.map(\.specialty)),
                    working: data.availabilities[clinician.id]?.value.windows(
                        overlapping: range, timeZone: zone,
                        closures: data.practice.closures) ?? [],
                    maxAppointmentsPerDay: clinician.maxAppointmentsPerDay,
                    maxConsecutiveSurgeryMinutes: clinician.preferences.maxConsecutiveSurgeryMinutes)
            }
            (practice, clinicians, availabilities, types, rooms, appointments) =
                (data.practice, data.clinicians, data.availabilities, data.types, data.rooms, data.appointments)
            finder = try FreeSlotFinder(
                practice: data.practice, rooms: data.rooms, timetables: timetables, appointments: data.appointments)
        }
    }

    // MARK: - Loading

    /// Loads everything for `range` (bookings a day either side, so buffers and caps are
    /// right). With `onlyClinician`, only that clinician's timetable is prepared: a check of
    /// one clinician skips the others.
    package func snapshot(
        scope: AccessScope, range: TimeRange, onlyClinician: UUID? = nil,
        onlyType: Identifier<AppointmentType>? = nil
    ) async throws -> Snapshot {
        let margin: TimeInterval = onlyClinician == nil ? 86_400 : 0
        let widened = TimeRange(
            start: range.start.addingTimeInterval(-margin), end: range.end.addingTimeInterval(margin))!
        // For one clinician only their bookings and those sharing the room type matter.
        let data = try await store.schedulingData(
            scope: scope, range: widened, clinicianID: onlyClinician,
            appointmentTypeID: onlyClinician == nil ? nil : onlyType)
        return try Snapshot(data: data, range: widened)
    }

    /// The duration the practice's history predicts for a type (the type's default without history).
    package func predictedMinutes(scope: AccessScope, type: AppointmentType, species: Species?, clinicianID: UUID?)
        async throws
        -> Int
    {
        let predictor = DurationPredictor(history: try await completedVisits(scope: scope))
        return predictor.predict(type: type, species: species ?? .other, clinicianID: clinicianID).minutes
    }

    /// Completed appointments as the duration model's training history.
    package func completedVisits(scope: AccessScope) async throws -> [CompletedVisit] {
        try await store.completedAppointments(scope: scope).compactMap { appointment, species in
            guard let minutes = appointment.actualMinutes, let completedAt = appointment.completedAt else { return nil }
            return CompletedVisit(
                appointmentTypeID: appointment.appointmentTypeID, species: Species(rawValue: species) ?? .other,
                complexity: 0,
                clinicianID: appointment.clinicianID, actualMinutes: minutes, completedAt: completedAt)
        }
    }

    // MARK: - Booking

    /// A booking refused on the picture it was decided on; the alternatives are worked out
    /// after the store's transaction, so refusals do not hold up other bookings.
    package struct BookingRefusal: Error {
        let detail: String
        let conflictingTime: TimeRange?
    }

    /// Books in one store transaction: the slot is checked against the clinician's day and a
    /// free room of the needed type is chosen while no other booking can be written; the
    /// store's triggers refuse anything that would still overlap. A refusal becomes
    /// ``SlotUnavailable`` with the nearest alternatives.
    package func book(
        scope: AccessScope, patientID: UUID, clinicianID: UUID, typeID: Identifier<AppointmentType>, start: Date,
        durationMinutes: Int?, reason: String?, staffNotes: String? = nil, assessmentID: UUID? = nil,
        idempotencyKey: IdempotencyKey?
    ) async throws -> Versioned<Appointment> {
        let now = clock.now()
        var predicted: Int?
        if durationMinutes == nil, let type = try await store.appointmentType(scope: scope, id: typeID) {
            // No length asked for: the practice's history predicts it (the type's default without history).
            predicted = try await predictedMinutes(scope: scope, type: type, species: nil, clinicianID: clinicianID)
        }
        let minutes = durationMinutes ?? predicted
        let practiceID = scope.practiceID
        do {
            let (stored, _) = try await store.bookAppointment(
                scope: scope, patientID: patientID, clinicianID: clinicianID, appointmentTypeID: typeID, reason: reason,
                staffNotes: staffNotes,
                assessmentID: assessmentID, idempotencyKey: idempotencyKey,
                reads: { practice, type in
                    let occupiedMinutes =
                        (minutes ?? type?.defaultDurationMinutes ?? 0) + (type?.bufferAfterMinutes ?? 0)
                    return BookingReads(
                        clinicianPeriod: try Self.bookingDay(of: start, practice: practice),
                        roomWindow: TimeRange(
                            start: start, end: start.addingTimeInterval(Double(max(1, occupiedMinutes)) * 60))!)
                },
                decide: { data in
                    try Self.decideBooking(
                        data: data, practiceID: practiceID, patientID: patientID, clinicianID: clinicianID,
                        typeID: typeID,
                        start: start, durationMinutes: minutes, now: now)
                })
            return stored
        } catch let refusal as BookingRefusal {
            throw try await unavailable(
                scope: scope, clinicianID: clinicianID, typeID: typeID, start: start, minutes: minutes, now: now,
                detail: refusal.detail, conflictingTime: refusal.conflictingTime)
        } catch let conflict as BookingConflict {
            // The store refused a write the check allowed (another process wrote in between).
            throw try await unavailable(
                scope: scope, clinicianID: clinicianID, typeID: typeID, start: start, minutes: minutes, now: now,
                detail: "That time was just taken (\(conflict.resource)).", conflictingTime: conflict.conflictingTime)
        }
    }

    /// A refused booking with the nearest free alternatives on the clinician's day as it is now.
    private func unavailable(
        scope: AccessScope, clinicianID: UUID, typeID: Identifier<AppointmentType>, start: Date, minutes: Int?,
        now: Date,
        detail: String, conflictingTime: TimeRange?
    ) async throws -> SlotUnavailable {
        let day = try Self.bookingDay(of: start, practice: try await store.schedulingPractice(scope: scope))
        // The alternatives are searched as far as they are offered: a week either side.
        let searched =
            TimeRange(
                start: max(now, day.start.addingTimeInterval(-Self.alternativesSpan)),
                end: day.end.addingTimeInterval(Self.alternativesSpan))
            ?? day
        let snapshot = try await snapshot(scope: scope, range: searched, onlyClinician: clinicianID, onlyType: typeID)
        guard let type = snapshot.types.first(where: { $0.id == typeID }) else {
            return SlotUnavailable(detail: detail, conflictingTime: conflictingTime, alternatives: [])
        }
        let query = SlotQuery(
            range: day, appointmentType: type, durationMinutes: minutes ?? type.defaultDurationMinutes,
            clinicianID: clinicianID)
        let found = try Self.unavailable(
            snapshot: snapshot, start: start, query: query, clinicianID: clinicianID, now: now, detail: detail)
        return SlotUnavailable(
            detail: detail, conflictingTime: conflictingTime ?? found.conflictingTime, alternatives: found.alternatives)
    }

    /// How far either side of a refused time the nearest alternatives are looked for.
    package static let alternativesSpan: TimeInterval = 7 * 86_400

    /// The local day of a booking's start: it bounds everything the booking depends on (the
    /// daily cap, shifts, rooms in use); a booking may not cross midnight.
    package static func bookingDay(of start: Date, practice: PracticeProfile) throws -> TimeRange {
        try PracticeCalendar(timeZoneIdentifier: practice.timeZone).day(containing: start)
    }

    /// The booking decision on the picture of the clinician's day and the room type's use
    /// during the booking: the type and clinician exist, the time is free, and a room of the
    /// needed type is free; throws ``BookingRefusal`` or a validation error otherwise.
    package static func decideBooking(
        data: SchedulingData, practiceID: PracticeID, patientID: UUID, clinicianID: UUID,
        typeID: Identifier<AppointmentType>,
        start: Date, durationMinutes: Int?, now: Date
    ) throws -> Appointment {
        let day = try bookingDay(of: start, practice: data.practice)
        let snapshot = try Snapshot(data: data, range: day)
        guard let type = snapshot.types.first(where: { $0.id == typeID }) else {
            throw DomainError.notFound(resource: "appointment type")
        }
        guard snapshot.clinician(clinicianID) != nil else { throw DomainError.notFound(resource: "clinician") }
        let minutes = durationMinutes ?? type.defaultDurationMinutes
        let query = SlotQuery(range: day, appointmentType: type, durationMinutes: minutes, clinicianID: clinicianID)
        var appointment = try Appointment.book(
            practiceID: practiceID, patientID: patientID, clinicianID: clinicianID, type: type,
            start: start, durationMinutes: minutes, now: now
        ).current
        // The finder's own rule decides, so whatever it offered is accepted here and nothing else is.
        switch try snapshot.finder.decide(start, for: query) {
        case .success(let room): appointment.roomID = room?.id
        case .failure(let obstacle):
            throw BookingRefusal(detail: obstacle.detail, conflictingTime: obstacle.conflictingTime)
        }
        return appointment
    }

    /// Applies a lifecycle command; a reschedule is checked against free time like a booking.
    package func transition(
        scope: AccessScope, id: Identifier<Appointment>, command: AppointmentCommand, expectedVersion: Int?
    )
        async throws -> Versioned<Appointment>
    {
        let now = clock.now()
        let current = try await store.appointment(scope: scope, id: id)
        var decision: AppointmentDecision
        do { decision = try current.value.decide(command, at: now) } catch {
            if let domain = error.domainError { throw domain }
            if case .invalid(let validation) = error { throw validation }
            throw DomainError.conflict("\(error)")
        }
        if case .reschedule(let time, let clinician) = command {
            let day = try Self.bookingDay(of: time.start, practice: try await store.schedulingPractice(scope: scope))
            let clinicianID = clinician ?? current.value.clinicianID
            let searched =
                TimeRange(
                    start: max(now, day.start.addingTimeInterval(-Self.alternativesSpan)),
                    end: day.end.addingTimeInterval(Self.alternativesSpan)) ?? day
            let snapshot = try await snapshot(
                scope: scope, range: searched, onlyClinician: clinicianID, onlyType: current.value.appointmentTypeID)
            let type = snapshot.types.first { $0.id == current.value.appointmentTypeID }
            var query = SlotQuery(
                range: day, durationMinutes: current.value.durationMinutes,
                bufferAfterMinutes: current.value.bufferAfterMinutes,
                specialty: type?.requiredSpecialty, roomType: current.value.roomType, clinicianID: clinicianID)
            query.excludingAppointmentID = id
            // The same rule as a booking: the moved appointment keeps its room when that is free, else takes one that
            // is.
            switch try snapshot.finder.decide(time.start, for: query, preferredRoom: current.value.roomID) {
            case .success(let room): decision.current.roomID = room?.id ?? decision.current.roomID
            case .failure(let obstacle):
                throw try Self.unavailable(
                    snapshot: snapshot, start: time.start, query: query, clinicianID: clinicianID, now: now,
                    detail: obstacle.detail)
            }
        }
        do {
            return try await store.saveAppointment(decision, scope: scope, expectedVersion: expectedVersion)
        } catch let conflict as BookingConflict {
            throw SlotUnavailable(
                detail: "That time was just taken (\(conflict.resource)).", conflictingTime: conflict.conflictingTime,
                alternatives: [])
        }
    }

    private static func unavailable(
        snapshot: Snapshot, start: Date, query: SlotQuery, clinicianID: UUID, now: Date, detail: String
    ) throws -> SlotUnavailable {
        let requested = TimeRange(start: start, end: start.addingTimeInterval(Double(query.durationMinutes) * 60))!
        let blocking = snapshot.appointments.first {
            $0.clinicianID == clinicianID && $0.status.holdsTime && $0.occupiedTime.overlaps(requested)
        }
        let alternatives = try snapshot.finder.nearestAlternatives(to: start, for: query, notBefore: now)
        return SlotUnavailable(
            detail: detail, conflictingTime: blocking?.time,
            alternatives: [alternatives.before, alternatives.after].compactMap { $0 })
    }
}
