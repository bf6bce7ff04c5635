import Foundation
import SharedKernel

// MARK: - The booking decision

/// What keeps a start from being booked: one of the free-slot finder's own rules, named, so a
/// refusal says what is really in the way.
public enum BookingObstacle: Error, Hashable, Sendable {
    /// The start is not on the booking grid (minutes after local midnight).
    case offGrid(gridMinutes: Int)
    /// The start lies outside the period asked about.
    case outsideRange
    /// A practice closure covers some of the time.
    case practiceClosed(reason: String)
    /// The practice is not open for the whole appointment.
    case outsideOpeningHours
    /// The clinician is not one the practice can book (retired, unknown).
    case unknownClinician
    /// The clinician lacks the specialty the appointment type needs.
    case lacksSpecialty(Specialty)
    /// The clinician is not working then (hours, breaks, time off).
    case clinicianNotWorking
    /// Another appointment of the clinician (its buffer included) is in the way.
    case clinicianBusy(conflictingTime: TimeRange)
    /// The clinician's appointment limit for the local day is reached.
    case dailyLimitReached(limit: Int)
    /// Back-to-back surgery would run longer than the clinician's limit.
    case surgeryRunTooLong(limitMinutes: Int)
    /// No room of the needed type in service is free for the whole time (buffer included).
    case noRoomFree(RoomType)
    /// Not free for a reason none of the above names (a start between whole seconds).
    case notFree

    /// The sentence staff read (never names another patient).
    public var detail: String {
        switch self {
        case .offGrid(let grid): return "Appointments start on the practice's \(grid)-minute grid."
        case .outsideRange: return "That time is outside the period asked about."
        case .practiceClosed(let reason): return "The practice is closed at that time (\(reason))."
        case .outsideOpeningHours: return "The practice is not open for the whole appointment at that time."
        case .unknownClinician: return "That clinician cannot be booked."
        case .lacksSpecialty(let specialty):
            return "The clinician does not offer \(specialty.displayName.lowercased())."
        case .clinicianNotWorking: return "The clinician is not working for the whole appointment at that time."
        case .clinicianBusy: return "The clinician is not free for the whole appointment at that time."
        case .dailyLimitReached(let limit):
            return "The clinician already has \(limit) appointments that day, their limit."
        case .surgeryRunTooLong(let minutes):
            return "That would make the clinician's run of surgery longer than \(minutes) minutes."
        case .noRoomFree(let type): return "No \(type.rawValue) room is free for the whole appointment at that time."
        case .notFree: return "That time is not free."
        }
    }

    /// The clinician's appointment in the way, when that is the obstacle.
    public var conflictingTime: TimeRange? {
        if case .clinicianBusy(let time) = self { return time }
        return nil
    }
}

extension FreeSlotFinder {
    /// The one rule for "may this be booked": `start` is accepted for `query` exactly when
    /// ``slots(for:)`` offers it — so anything offered is bookable at that moment, and anything
    /// bookable is offered. An accepted start comes with the room it takes when the query needs
    /// one (`preferredRoom` first, e.g. the room a moved appointment already has); a refused one
    /// with the first rule in its way.
    ///
    /// - Throws: ``ValidationError`` for a query the finder refuses, or one that names no clinician.
    public func decide(
        _ start: Date, for query: SlotQuery,
        preferredRoom: Identifier<Room>? = nil
    ) throws(ValidationError) -> Result<Room?, BookingObstacle> {
        guard query.clinicianID != nil else { throw ValidationError(field: "clinicianId", message: "is required") }
        guard try isFree(start, for: query) else { return .failure(obstacle(at: start, for: query)) }
        guard let roomType = query.roomType else { return .success(nil) }
        let seconds = Int64(start.timeIntervalSince1970.rounded(.down))
        let room = freeRoom(
            roomType, at: seconds, duration: Int64(query.durationMinutes * 60),
            buffer: Int64(query.bufferAfterMinutes * 60),
            excluding: query.excludingAppointmentID, preferred: preferredRoom)
        // The finder offered the start only because a room of the type is free then.
        guard let room else { return .failure(.noRoomFree(roomType)) }
        return .success(room)
    }

    /// The first of the finder's rules that `start` breaks for `query` (with its clinician),
    /// checked in the order staff think of them. Used only to explain a start the finder does
    /// not offer; the finder alone decides.
    func obstacle(at start: Date, for query: SlotQuery) -> BookingObstacle {
        let duration = Int64(query.durationMinutes * 60)
        let buffer = Int64(query.bufferAfterMinutes * 60)
        let seconds = Int64(start.timeIntervalSince1970.rounded(.down))
        let time = TimeRange(start: start, end: start.addingTimeInterval(TimeInterval(duration)))!
        let occupied = SecondRange(start: seconds, end: seconds + duration + buffer)
        let grid = Int64((query.gridMinutes ?? gridMinutes) * 60)
        let dayStart = Int64(calendar.day(containing: start).start.timeIntervalSince1970.rounded(.down))
        if (seconds - dayStart) % grid != 0 { return .offGrid(gridMinutes: Int(grid / 60)) }
        if !query.range.contains(start) { return .outsideRange }
        if let closure = closures.closure(overlapping: time, timeZone: calendar.timeZone) {
            return .practiceClosed(reason: closure.reason)
        }
        let needed = [SecondRange(start: seconds, end: seconds + duration)]
        let open = calendar.days(overlapping: time).flatMap { calendar.openIntervals(openingHours, on: $0) }.map(
            SecondRange.inner)
        if SecondRange.subtract(SecondRange.normalized(open), from: needed) != [] { return .outsideOpeningHours }

        guard let timetable = timetables.first(where: { $0.clinicianID == query.clinicianID }) else {
            return .unknownClinician
        }
        if let specialty = query.specialty, !timetable.specialties.contains(specialty) {
            return .lacksSpecialty(specialty)
        }
        let working = SecondRange.subtract(timetable.unavailable, from: timetable.working)
        if SecondRange.subtract(working, from: needed) != [] { return .clinicianNotWorking }

        let bookings = (bookingsByClinician[timetable.clinicianID] ?? []).filter {
            $0.id != query.excludingAppointmentID
        }
        if let blocking = bookings.first(where: { $0.occupied.start < occupied.end && occupied.start < $0.occupied.end }
        ) {
            return .clinicianBusy(
                conflictingTime: TimeRange(
                    start: Date(timeIntervalSince1970: TimeInterval(blocking.start)),
                    end: Date(timeIntervalSince1970: TimeInterval(blocking.end)))!)
        }
        if let limit = timetable.maxAppointmentsPerDay {
            let dayEnd = Int64(calendar.day(containing: start).end.timeIntervalSince1970.rounded(.down))
            if bookings.filter({ $0.start >= dayStart && $0.start < dayEnd }).count >= limit {
                return .dailyLimitReached(limit: limit)
            }
        }
        if let cap = timetable.maxConsecutiveSurgeryMinutes, query.roomType == .surgery,
            Self.runLength(
                of: seconds, duration: duration, buffer: buffer,
                runs: Self.surgeryRuns(bookings.filter { $0.roomType == .surgery }))
                > Int64(cap) * 60
        {
            return .surgeryRunTooLong(limitMinutes: cap)
        }
        return query.roomType.map(BookingObstacle.noRoomFree) ?? .notFree
    }
}
