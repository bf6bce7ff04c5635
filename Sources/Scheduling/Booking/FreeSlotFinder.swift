import Foundation
import SharedKernel

/// Finds bookable slots. Pure: give it the practice, its rooms, the clinicians' timetables and
/// the appointments that may be in the way; ask with a ``SlotQuery``.
///
/// A slot `[s, s + duration)` is offered for a clinician when
/// - it lies inside one of the practice's opening intervals (resolved per local day in the
///   practice's zone, so daylight-saving changes move the instants, not the wall times), outside
///   every practice closure (``PracticeClosure``, resolved the same way) and inside the
///   clinician's working time, clear of their `unavailable` time;
/// - `[s, s + duration + buffer)` overlaps no appointment of the clinician that holds time,
///   each counted with its own buffer (the new appointment's buffer may run past closing:
///   it is for notes and cleaning, not for the client);
/// - when a room type is needed, one room of that type in service has no booking of its own
///   in `[s, s + duration + buffer)`, and fewer bookings of the type than such rooms overlap at
///   every instant of it (bookings without a room of their own still take one);
/// - the clinician's appointment limit for that local day is not yet reached;
/// - for a surgery, the clinician's run of back-to-back surgery stays within their limit;
/// - `s` is a multiple of the grid (the query's, else the practice's) after local midnight and
///   lies in the query's range.
public struct FreeSlotFinder: Sendable {
    /// The practice's calendar.
    public let calendar: PracticeCalendar
    let openingHours: [OpeningHours]
    let closures: [PracticeClosure]
    let gridMinutes: Int
    /// Rooms in service, per type, in the order a booking takes them (by name, then id).
    let activeRooms: [RoomType: [Room]]
    let timetables: [PreparedTimetable]
    let bookingsByClinician: [UUID: [PreparedBooking]]
    let roomBookings: [PreparedBooking]

    /// Prepares a finder. Appointments that do not hold time (cancelled, no-show) are ignored.
    ///
    /// - Throws: ``ValidationError`` for an unknown time zone or opening hours outside the day
    ///   (`openingHours[2].closesMinute`), which the calendar could not turn into instants.
    public init(practice: PracticeProfile, rooms: [Room], timetables: [ClinicianTimetable], appointments: [Appointment])
        throws(ValidationError)
    {
        var errors = FieldErrorCollector()
        OpeningHours.validateMinutes(practice.openingHours, into: &errors)
        // A grid that does not divide the hour would leave slots off round times (and zero none at all).
        if !(1...60).contains(practice.slotGridMinutes) || 60 % practice.slotGridMinutes != 0 {
            errors.add("slotGridMinutes", "must divide 60 (5, 10, 15, 20, 30 or 60)")
        }
        try errors.throwIfAny()
        calendar = try PracticeCalendar(timeZoneIdentifier: practice.timeZone)
        openingHours = practice.openingHours
        closures = practice.closures
        gridMinutes = practice.slotGridMinutes
        activeRooms = Dictionary(grouping: rooms.filter(\.isActive), by: \.type).mapValues {
            $0.sorted { ($0.name, UUIDText.lowercase($0.id.rawValue)) < ($1.name, UUIDText.lowercase($1.id.rawValue)) }
        }
        // Deterministic order: slots at the same instant are listed by clinician identifier.
        self.timetables =
            timetables
            .map { PreparedTimetable($0) }
            .sorted { $0.sortKey < $1.sortKey }
        let prepared = appointments.filter(\.status.holdsTime).map(PreparedBooking.init).sorted {
            $0.occupied.start < $1.occupied.start
        }
        bookingsByClinician = Dictionary(grouping: prepared, by: \.clinicianID)
        roomBookings = prepared.filter { $0.roomType != nil }
    }

    /// Free slots for `query`, earliest first; at one instant, by clinician identifier.
    public func slots(for query: SlotQuery) throws(ValidationError) -> [FreeSlot] {
        try query.validate()
        let duration = Int64(query.durationMinutes * 60)
        let buffer = Int64(query.bufferAfterMinutes * 60)
        let grid = Int64((query.gridMinutes ?? gridMinutes) * 60)
        let excluded = query.excludingAppointmentID

        // Per-day work with Foundation happens here, once per query, never per clinician.
        let days = calendar.days(overlapping: query.range)
        let dayStarts = days.map { Int64($0.start.timeIntervalSince1970.rounded(.down)) }
        let dayEnds = days.map { Int64($0.end.timeIntervalSince1970.rounded(.down)) }
        var openIntervals = days.flatMap { calendar.openIntervals(openingHours, on: $0) }
        if !closures.isEmpty, let first = days.first, let last = days.last,
            let span = TimeRange(start: first.start, end: last.end)
        {
            openIntervals = TimeRange.subtracting(
                closures.closedIntervals(overlapping: span, timeZone: calendar.timeZone), from: openIntervals)
        }
        let open = openIntervals.map(SecondRange.inner)
        let requested = [SecondRange.inner(query.range)]

        var roomForbidden: [SecondRange] = []
        if let roomType = query.roomType {
            guard let forbidden = roomForbiddenStarts(roomType, excluding: excluded, duration: duration, buffer: buffer)
            else { return [] }
            roomForbidden = forbidden
        }

        var found: [(start: Int64, order: Int, clinician: UUID)] = []
        for (order, timetable) in timetables.enumerated() {
            if let wanted = query.clinicianID, wanted != timetable.clinicianID { continue }
            if let specialty = query.specialty, !timetable.specialties.contains(specialty) { continue }

            let windows = SecondRange.subtract(
                timetable.unavailable, from: SecondRange.intersect(timetable.working, open))
            var starts: [SecondRange] = []
            for window in windows where window.end - window.start >= duration {
                starts.append(SecondRange(start: window.start, end: window.end - duration + 1))
            }
            starts = SecondRange.intersect(starts, requested)
            if starts.isEmpty { continue }

            let bookings = (bookingsByClinician[timetable.clinicianID] ?? []).filter { $0.id != excluded }
            var forbidden = Self.forbiddenStarts(bookings.map(\.occupied), duration: duration, buffer: buffer)
            if let limit = timetable.maxAppointmentsPerDay {
                forbidden += Self.fullDays(bookings, limit: limit, dayStarts: dayStarts, dayEnds: dayEnds)
            }
            let allowed = SecondRange.subtract(
                roomForbidden, from: SecondRange.subtract(SecondRange.normalized(forbidden), from: starts))
            let surgeryRuns =
                query.roomType == .surgery && timetable.maxConsecutiveSurgeryMinutes != nil
                ? Self.surgeryRuns(bookings.filter { $0.roomType == .surgery }) : []

            for range in allowed {
                let day = SecondRange.lastIndex(in: dayStarts, notAfter: range.start)
                let anchor = day >= 0 ? dayStarts[day] : range.start
                let steps = (range.start - anchor + grid - 1) / grid
                var start = anchor + steps * grid
                while start < range.end {
                    if let cap = timetable.maxConsecutiveSurgeryMinutes, query.roomType == .surgery,
                        Self.runLength(of: start, duration: duration, buffer: buffer, runs: surgeryRuns) > Int64(cap)
                            * 60
                    {
                        start += grid
                        continue
                    }
                    found.append((start, order, timetable.clinicianID))
                    start += grid
                }
            }
        }
        found.sort { $0.start != $1.start ? $0.start < $1.start : $0.order < $1.order }
        if let limit = query.limit, found.count > limit { found.removeLast(found.count - limit) }
        return found.map {
            FreeSlot(
                clinicianID: $0.clinician, start: Date(timeIntervalSince1970: TimeInterval($0.start)),
                end: Date(timeIntervalSince1970: TimeInterval($0.start + duration)))
        }
    }

    // MARK: - Obstacles as forbidden start times

    /// Starts at which no room of `type` can take `[s, s + duration + buffer)`: every room in
    /// service has a booking of its own in the way, or as many bookings of the type as there
    /// are rooms already overlap (a booking without a room of its own still takes one). `nil`
    /// when the practice has no room of the type in service.
    func roomForbiddenStarts(
        _ type: RoomType, excluding excluded: Identifier<Appointment>?, duration: Int64,
        buffer: Int64
    ) -> [SecondRange]? {
        guard let rooms = activeRooms[type], !rooms.isEmpty else { return nil }
        let ofType = roomBookings.filter { $0.roomType == type && $0.id != excluded }
        var everyRoomTaken: [SecondRange]?
        for room in rooms {
            let taken = Self.forbiddenStarts(
                ofType.filter { $0.roomID == room.id }.map(\.occupied), duration: duration, buffer: buffer)
            everyRoomTaken = everyRoomTaken.map { SecondRange.intersect($0, taken) } ?? taken
        }
        let full = Self.forbiddenStarts(
            Self.saturated(ofType, capacity: rooms.count), duration: duration, buffer: buffer)
        return SecondRange.normalized((everyRoomTaken ?? []) + full)
    }

    /// The first room of `type` in service with no booking of its own in
    /// `[start, start + duration + buffer)` (`preferred` first, when it is one of them).
    func freeRoom(
        _ type: RoomType, at start: Int64, duration: Int64, buffer: Int64, excluding excluded: Identifier<Appointment>?,
        preferred: Identifier<Room>?
    ) -> Room? {
        let wanted = SecondRange(start: start, end: start + duration + buffer)
        let rooms = activeRooms[type] ?? []
        let ordered = rooms.filter { $0.id == preferred } + rooms.filter { $0.id != preferred }
        return ordered.first { room in
            !roomBookings.contains {
                $0.roomID == room.id && $0.id != excluded && $0.occupied.start < wanted.end
                    && wanted.start < $0.occupied.end
            }
        }
    }

    /// Starts `s` whose `[s, s + duration + buffer)` would overlap one of `busy`: `(b.start − duration − buffer,
    /// b.end)`.
    static func forbiddenStarts(_ busy: [SecondRange], duration: Int64, buffer: Int64) -> [SecondRange] {
        SecondRange.normalized(busy.map { SecondRange(start: $0.start - duration - buffer + 1, end: $0.end) })
    }

    /// Intervals in which at least `capacity` of `bookings` overlap (every room of the type is in use).
    static func saturated(_ bookings: [PreparedBooking], capacity: Int) -> [SecondRange] {
        // Ends sort before starts at the same second: half-open intervals that touch do not overlap.
        let events = (bookings.map { ($0.occupied.start, 1) } + bookings.map { ($0.occupied.end, -1) })
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        var result: [SecondRange] = []
        var inUse = 0
        var fullSince: Int64?
        for (time, delta) in events {
            inUse += delta
            if inUse >= capacity, fullSince == nil { fullSince = time }
            if inUse < capacity, let since = fullSince {
                if since < time { result.append(SecondRange(start: since, end: time)) }
                fullSince = nil
            }
        }
        return result
    }

    /// Runs of back-to-back surgery: `start` of the first, `end` of the last scheduled time, and
    /// `occupiedEnd` (buffer included) of the last; an appointment starting before the run's
    /// buffer has run out belongs to it.
    static func surgeryRuns(_ bookings: [PreparedBooking]) -> [(start: Int64, end: Int64, occupiedEnd: Int64)] {
        var runs: [(start: Int64, end: Int64, occupiedEnd: Int64)] = []
        for booking in bookings.sorted(by: { $0.start < $1.start }) {
            if let last = runs.last, booking.start <= last.occupiedEnd {
                runs[runs.count - 1] = (
                    last.start, max(last.end, booking.end), max(last.occupiedEnd, booking.occupied.end)
                )
            } else {
                runs.append((booking.start, booking.end, booking.occupied.end))
            }
        }
        return runs
    }

    /// Seconds from the first start to the last end of the surgery run a new surgery at `start`
    /// would be part of.
    static func runLength(
        of start: Int64, duration: Int64, buffer: Int64, runs: [(start: Int64, end: Int64, occupiedEnd: Int64)]
    ) -> Int64 {
        var first = start
        var last = start + duration
        // Runs are disjoint and sorted; the new one joins those it touches (its buffer included).
        for run in runs where run.start <= start + duration + buffer && start <= run.occupiedEnd {
            first = min(first, run.start)
            last = max(last, run.end)
        }
        return last - first
    }

    /// Whole local days on which the clinician already has `limit` appointments.
    static func fullDays(_ bookings: [PreparedBooking], limit: Int, dayStarts: [Int64], dayEnds: [Int64])
        -> [SecondRange]
    {
        var counts = [Int](repeating: 0, count: dayStarts.count)
        for booking in bookings {
            let day = SecondRange.lastIndex(in: dayStarts, notAfter: booking.start)
            if day >= 0, booking.start < dayEnds[day] { counts[day] += 1 }
        }
        return counts.indices.filter { counts[$0] >= limit }.map { SecondRange(start: dayStarts[$0], end: dayEnds[$0]) }
    }
}

// MARK: - Prepared inputs

/// A timetable with its times converted to sorted second ranges.
struct PreparedTimetable: Sendable {
    let clinicianID: UUID
    let sortKey: String
    let specialties: Set<Specialty>
    let working: [SecondRange]
    let unavailable: [SecondRange]
    let maxAppointmentsPerDay: Int?
    let maxConsecutiveSurgeryMinutes: Int?

    init(_ timetable: ClinicianTimetable) {
        clinicianID = timetable.clinicianID
        sortKey = UUIDText.lowercase(timetable.clinicianID)
        specialties = timetable.specialties
        working = SecondRange.normalized(timetable.working.map(SecondRange.inner))
        unavailable = SecondRange.normalized(timetable.unavailable.map(SecondRange.outer))
        maxAppointmentsPerDay = timetable.maxAppointmentsPerDay
        maxConsecutiveSurgeryMinutes = timetable.maxConsecutiveSurgeryMinutes
    }
}

/// An appointment reduced to what blocks time.
struct PreparedBooking: Sendable {
    let id: Identifier<Appointment>
    let clinicianID: UUID
    let roomType: RoomType?
    let roomID: Identifier<Room>?
    /// Scheduled start, for counting appointments per day.
    let start: Int64
    /// Scheduled end (without the buffer).
    let end: Int64
    /// Scheduled time plus buffer.
    let occupied: SecondRange

    init(_ appointment: Appointment) {
        id = appointment.id
        clinicianID = appointment.clinicianID
        roomType = appointment.roomType
        roomID = appointment.roomID
        occupied = SecondRange.outer(appointment.occupiedTime)
        start = occupied.start
        end = Int64(appointment.time.end.timeIntervalSince1970.rounded(.up))
    }
}
