import Foundation
import Scheduling
import SharedKernel
import Specialists

/// Everything free slots, booking and matching depend on for a period, read in one
/// transaction (a consistent picture, and one trip to the store instead of six).
public struct SchedulingData: Sendable {
    public let practice: PracticeProfile
    public let clinicians: [Clinician]
    public let availabilities: [Identifier<Clinician>: Versioned<ClinicianAvailability>]
    public let types: [AppointmentType]
    public let rooms: [Room]
    public let appointments: [Appointment]

    /// Creates the picture (stores build it; tests build one by hand).
    public init(
        practice: PracticeProfile, clinicians: [Clinician],
        availabilities: [Identifier<Clinician>: Versioned<ClinicianAvailability>],
        types: [AppointmentType], rooms: [Room], appointments: [Appointment]
    ) {
        self.practice = practice
        self.clinicians = clinicians
        self.availabilities = availabilities
        self.types = types
        self.rooms = rooms
        self.appointments = appointments
    }
}

/// What a booking decision depends on: the clinician's appointments over `clinicianPeriod`
/// (their day: shifts, buffers, the daily cap) and the appointments of the needed room type
/// over `roomWindow` (the booking's occupied time: room capacity). Reading no more than that
/// keeps the booking transaction short however busy the day is.
public struct BookingReads: Sendable {
    /// The clinician's appointments overlapping this period are read.
    public var clinicianPeriod: TimeRange
    /// Other clinicians' appointments of the type's room type overlapping this window are read.
    public var roomWindow: TimeRange

    /// Creates the description of a booking's reads.
    public init(clinicianPeriod: TimeRange, roomWindow: TimeRange) {
        self.clinicianPeriod = clinicianPeriod
        self.roomWindow = roomWindow
    }
}
