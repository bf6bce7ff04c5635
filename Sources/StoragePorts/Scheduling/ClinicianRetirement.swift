import Foundation
import Scheduling
import SharedKernel
import Specialists

/// A retired clinician with the appointments they leave behind.
public struct ClinicianRetirement: Sendable {
    /// The clinician as now stored (retired).
    public let clinician: Versioned<Clinician>
    /// Their appointments still to happen (booked or checked in, not yet over), by start: the
    /// practice re-plans them; nothing was moved or cancelled.
    public let appointmentsToReplan: [Versioned<Appointment>]

    /// Creates the value from its parts.
    public init(clinician: Versioned<Clinician>, appointmentsToReplan: [Versioned<Appointment>]) {
        self.clinician = clinician
        self.appointmentsToReplan = appointmentsToReplan
    }
}
