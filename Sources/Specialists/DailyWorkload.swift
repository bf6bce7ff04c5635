import Foundation
import SharedKernel

/// How full one clinician's local day is: what is booked against what they can take.
public struct DailyWorkload: Hashable, Codable, Sendable {
    /// The clinician.
    public var clinicianID: Identifier<Clinician>
    /// The local day.
    public var date: LocalDate
    /// Minutes already booked (appointments that still hold time, buffers excluded).
    public var bookedMinutes: Int
    /// Appointments already booked.
    public var appointmentCount: Int
    /// Minutes that may be booked (see ``ClinicianAvailability/capacityMinutes(on:timeZone:)``).
    public var capacityMinutes: Int
    /// Most appointments in the day (``Clinician/maxAppointmentsPerDay``).
    public var maxAppointments: Int

    /// Creates a workload figure.
    public init(
        clinicianID: Identifier<Clinician>, date: LocalDate, bookedMinutes: Int, appointmentCount: Int,
        capacityMinutes: Int, maxAppointments: Int
    ) {
        self.clinicianID = clinicianID
        self.date = date
        self.bookedMinutes = bookedMinutes
        self.appointmentCount = appointmentCount
        self.capacityMinutes = capacityMinutes
        self.maxAppointments = maxAppointments
    }

    /// Booked share of capacity, 0…1 (1 when there is no capacity at all, so an absent
    /// clinician never looks idle).
    public var utilisation: Double {
        guard capacityMinutes > 0 else { return 1 }
        return min(1, max(0, Double(bookedMinutes) / Double(capacityMinutes)))
    }

    /// Minutes still bookable.
    public var remainingMinutes: Int { max(0, capacityMinutes - bookedMinutes) }

    /// Whether nothing more can be booked: the minutes or the appointment count are used up.
    public var isFull: Bool { remainingMinutes == 0 || appointmentCount >= maxAppointments }
}
