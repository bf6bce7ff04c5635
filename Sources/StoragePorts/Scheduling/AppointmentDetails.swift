import Foundation
import Scheduling
import SharedKernel

/// What an intake ranked for a case, kept with its assessment.
public struct IntakeRanking: Sendable {
    /// The appointment type the intake offered slots for, if any.
    public let appointmentTypeID: Identifier<AppointmentType>?
    /// The ranked clinicians, best first.
    public let ranked: [RankedCandidate]

    /// Creates a ranking.
    public init(appointmentTypeID: Identifier<AppointmentType>?, ranked: [RankedCandidate]) {
        self.appointmentTypeID = appointmentTypeID
        self.ranked = ranked
    }
}

/// An appointment with everything staff read about it beyond the schedule itself.
public struct AppointmentDetails: Sendable {
    /// The appointment and its version.
    public let appointment: Versioned<Appointment>
    /// Why it was booked, as the client said.
    public let reason: String?
    /// Notes for colleagues.
    public let staffNotes: String?
    /// For a booking made from an intake: the assessment, level and match it was booked on.
    public let basis: BookingBasis?
    /// The visit record of this appointment, once written.
    public let visitID: String?

    /// Creates the value from its parts.
    public init(
        appointment: Versioned<Appointment>, reason: String?, staffNotes: String?, basis: BookingBasis?,
        visitID: String?
    ) {
        self.appointment = appointment
        self.reason = reason
        self.staffNotes = staffNotes
        self.basis = basis
        self.visitID = visitID
    }
}

/// A patient's appointments, newest first, with the answers to "when was this patient last
/// in?" and "when are they next due?".
public struct PatientAppointments: Sendable {
    /// A page of appointments, newest first.
    public let page: Page<AppointmentDetails>
    /// The latest appointment the patient came to (checked in, in progress or completed), if any.
    public let lastSeen: Versioned<Appointment>?
    /// The next appointment still to come, if any.
    public let next: Versioned<Appointment>?

    /// Creates the value from its parts.
    public init(page: Page<AppointmentDetails>, lastSeen: Versioned<Appointment>?, next: Versioned<Appointment>?) {
        self.page = page
        self.lastSeen = lastSeen
        self.next = next
    }
}
