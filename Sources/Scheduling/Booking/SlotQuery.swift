import Foundation
import SharedKernel

/// A request for free slots: how long, for what, with whom, when.
public struct SlotQuery: Hashable, Codable, Sendable {
    /// Slot *starts* lie in this range; a slot may end after it (inside opening hours).
    public var range: TimeRange
    /// Length of the appointment in minutes.
    public var durationMinutes: Int
    /// Minutes kept free after it for the clinician and the room.
    public var bufferAfterMinutes: Int
    /// Specialty the clinician must have, if any.
    public var specialty: Specialty?
    /// Room type needed, if any.
    public var roomType: RoomType?
    /// Only this clinician, if given.
    public var clinicianID: UUID?
    /// Booking grid in minutes: starts fall on multiples of it after local midnight. Must
    /// divide 60, so daylight-saving shifts (whole hours) keep the grid on round wall times.
    /// `nil` uses the practice's grid (``PracticeProfile/slotGridMinutes``).
    public var gridMinutes: Int?
    /// An appointment to ignore as an obstacle (the one being rescheduled).
    public var excludingAppointmentID: Identifier<Appointment>?
    /// At most this many slots, earliest first.
    public var limit: Int?
    /// The appointment type is retired: nothing new is offered or booked as it (an appointment
    /// already booked as it may still be moved).
    public var typeRetired = false

    /// Creates a query.
    public init(
        range: TimeRange, durationMinutes: Int, bufferAfterMinutes: Int = 0, specialty: Specialty? = nil,
        roomType: RoomType? = nil, clinicianID: UUID? = nil, gridMinutes: Int? = nil,
        excludingAppointmentID: Identifier<Appointment>? = nil, limit: Int? = nil
    ) {
        self.range = range
        self.durationMinutes = durationMinutes
        self.bufferAfterMinutes = bufferAfterMinutes
        self.specialty = specialty
        self.roomType = roomType
        self.clinicianID = clinicianID
        self.gridMinutes = gridMinutes
        self.excludingAppointmentID = excludingAppointmentID
        self.limit = limit
    }

    /// Creates a query for an appointment type: its default duration (unless `durationMinutes`
    /// is given, e.g. a predicted one), buffer, specialty and room type.
    public init(
        range: TimeRange, appointmentType: AppointmentType, durationMinutes: Int? = nil, clinicianID: UUID? = nil,
        gridMinutes: Int? = nil, excludingAppointmentID: Identifier<Appointment>? = nil, limit: Int? = nil
    ) {
        self.init(
            range: range, durationMinutes: durationMinutes ?? appointmentType.defaultDurationMinutes,
            bufferAfterMinutes: appointmentType.bufferAfterMinutes, specialty: appointmentType.requiredSpecialty,
            roomType: appointmentType.requiredRoomType, clinicianID: clinicianID, gridMinutes: gridMinutes,
            excludingAppointmentID: excludingAppointmentID, limit: limit)
        self.typeRetired = appointmentType.isRetired
    }

    /// Checks the query, naming each bad field.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        if !(1...720).contains(durationMinutes) { errors.add("durationMinutes", "must be 1 to 720 minutes") }
        if !(0...240).contains(bufferAfterMinutes) { errors.add("bufferAfterMinutes", "must be 0 to 240 minutes") }
        if let gridMinutes, !(1...60).contains(gridMinutes) || 60 % gridMinutes != 0 {
            errors.add("gridMinutes", "must divide 60 (1, 5, 10, 15, 30 …)")
        }
        if let limit, limit < 1 { errors.add("limit", "must be at least 1") }
        if typeRetired && excludingAppointmentID == nil {
            errors.add("appointmentTypeId", "is retired: it is no longer offered or booked")
        }
        // A bound that keeps one request from asking for years of slots.
        if range.duration > 62 * 86_400 { errors.add("range", "must span at most 62 days") }
        // Slot arithmetic works in whole seconds; instants outside the calendar years 1–9999
        // are no appointment time, and far enough out would not fit in an integer.
        if !Self.bookableInstants.contains(range.start.timeIntervalSince1970) {
            errors.add("range.start", "must be a date in the years 1 to 9999")
        }
        if !Self.bookableInstants.contains(range.end.timeIntervalSince1970) {
            errors.add("range.end", "must be a date in the years 1 to 9999")
        }
        try errors.throwIfAny()
    }

    /// Seconds since 1970 of 0001-01-01T00:00:00Z through 9999-12-31T23:59:59Z.
    static let bookableInstants: ClosedRange<TimeInterval> = -62_135_596_800...253_402_300_799
}

/// A bookable slot: a clinician and a time.
public struct FreeSlot: Hashable, Codable, Sendable {
    /// The clinician.
    public var clinicianID: UUID
    /// Start.
    public var start: Date
    /// End (start + duration; the buffer is not included).
    public var end: Date

    /// Creates a slot.
    public init(clinicianID: UUID, start: Date, end: Date) {
        self.clinicianID = clinicianID
        self.start = start
        self.end = end
    }
}
