import Foundation
import SharedKernel

/// One VEVENT of a clinician's calendar feed.
public struct ICalendarEvent: Hashable, Codable, Sendable {
    /// iCalendar status values VetNet uses.
    public enum Status: String, Codable, Sendable {
        /// The appointment stands (or took place).
        case confirmed = "CONFIRMED"
        /// Called off; calendar apps strike it through or remove it.
        case cancelled = "CANCELLED"
    }

    /// Globally unique and stable across feeds, so calendar apps update rather than duplicate.
    public var uid: String
    /// Start instant (written in UTC).
    public var start: Date
    /// End instant (written in UTC).
    public var end: Date
    /// Title: patient name and appointment type only, never medical detail.
    public var summary: String
    /// Status.
    public var status: Status
    /// Room name, if any.
    public var location: String?

    /// Creates an event.
    public init(
        uid: String, start: Date, end: Date, summary: String, status: Status = .confirmed, location: String? = nil
    ) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.status = status
        self.location = location
    }

    /// The event for an appointment. The summary is `patientName – appointmentTypeName`; the
    /// feed leaves the practice's systems, so nothing else about the patient goes into it.
    public init(
        appointment: Appointment, patientName: String, appointmentTypeName: String, roomName: String? = nil,
        uidDomain: String = "vetnet"
    ) {
        self.init(
            uid: "\(appointment.id.description)@\(uidDomain)", start: appointment.time.start, end: appointment.time.end,
            summary: "\(patientName) – \(appointmentTypeName)",
            status: appointment.status == .cancelled ? .cancelled : .confirmed, location: roomName)
    }
}
