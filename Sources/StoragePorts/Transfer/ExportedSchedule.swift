import Foundation
import Scheduling
import SharedKernel
import Specialists

/// The practice's scheduling in an export: clinicians (active or not, since past
/// appointments name them), their availability, rooms, appointment types and every
/// appointment with its lifecycle. Calendar-feed links are not exported: they are secrets
/// of the store they were issued by, and are issued again after a restore.
public struct ExportedSchedule: Codable, Hashable, Sendable {
    /// Clinicians with their expertise, by name.
    public var clinicians: [ExportedClinician]
    /// Each clinician's availability (week, breaks, time off, extra sessions) with its version.
    public var availabilities: [ExportedAvailability]
    /// Rooms, by name.
    public var rooms: [Room]
    /// Appointment types, by name.
    public var appointmentTypes: [AppointmentType]
    /// Every appointment, by start.
    public var appointments: [ExportedAppointment]

    /// Creates the scheduling part of an export.
    public init(
        clinicians: [ExportedClinician], availabilities: [ExportedAvailability], rooms: [Room],
        appointmentTypes: [AppointmentType], appointments: [ExportedAppointment]
    ) {
        self.clinicians = clinicians
        self.availabilities = availabilities
        self.rooms = rooms
        self.appointmentTypes = appointmentTypes
        self.appointments = appointments
    }
}

/// A clinician and whether they still take bookings.
public struct ExportedClinician: Codable, Hashable, Sendable {
    /// The clinician's profile and expertise.
    public var clinician: Clinician
    /// `false` once the clinician has left; their past appointments keep naming them.
    public var active: Bool

    /// Creates the value from its parts.
    public init(clinician: Clinician, active: Bool) {
        self.clinician = clinician
        self.active = active
    }
}

/// A clinician's availability as stored, with its version (the `ETag` clients hold).
public struct ExportedAvailability: Codable, Hashable, Sendable {
    /// The availability.
    public var availability: ClinicianAvailability
    /// Its version.
    public var version: Int

    /// Creates the value from its parts.
    public init(availability: ClinicianAvailability, version: Int) {
        self.availability = availability
        self.version = version
    }
}

extension ExportedAvailability {
    /// Each clinician's stored availability with its version, in clinician order: the order
    /// both stores export them in, so a practice's export reads the same from either.
    public static func ordered(_ stored: some Collection<Versioned<ClinicianAvailability>>) -> [ExportedAvailability] {
        stored.sorted { $0.value.clinicianID < $1.value.clinicianID }
            .map { ExportedAvailability(availability: $0.value, version: $0.version) }
    }
}

/// An appointment with what the domain value does not carry: the reason given when booking,
/// when it was booked, and its version.
public struct ExportedAppointment: Codable, Hashable, Sendable {
    /// The appointment, with status and lifecycle times.
    public var appointment: Appointment
    /// Reason given when booking.
    public var reason: String?
    /// When it was booked.
    public var bookedAt: Date
    /// Its version (the `ETag` clients hold).
    public var version: Int
    /// Notes for colleagues; absent in older exports.
    public var staffNotes: String? = nil
    /// For a booking made from an intake, what it was booked on; absent in older exports.
    public var intake: BookingBasis? = nil
    /// When it was cancelled, for a cancelled appointment whose moment is known (absent in
    /// exports made before it was kept).
    public var cancelledAt: Date? = nil
    /// Its notes, oldest first; absent in older exports.
    public var notes: [AppointmentNote]? = nil

    /// Creates the value from its parts.
    public init(
        appointment: Appointment, reason: String?, bookedAt: Date, version: Int, staffNotes: String? = nil,
        intake: BookingBasis? = nil,
        cancelledAt: Date? = nil, notes: [AppointmentNote]? = nil
    ) {
        self.notes = notes
        self.appointment = appointment
        self.reason = reason
        self.bookedAt = bookedAt
        self.version = version
        self.staffNotes = staffNotes
        self.intake = intake
        self.cancelledAt = cancelledAt
    }
}
