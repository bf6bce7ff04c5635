import Foundation
import SharedKernel

/// What the free-slot finder needs to know about one clinician, already resolved to instants.
///
/// `working` is the output of the Specialists context's
/// `ClinicianAvailability.windows(overlapping:timeZone:)`: the weekly pattern and extra
/// sessions in the practice's zone, with breaks and time off removed. Bookings are not part
/// of it; the finder reads them from the appointments it is given.
public struct ClinicianTimetable: Hashable, Codable, Sendable {
    /// The clinician (`Identifier<Clinician>.rawValue`).
    public var clinicianID: UUID
    /// Specialties the clinician may be booked for; matched against a query's specialty.
    public var specialties: Set<Specialty>
    /// When the clinician can be booked.
    public var working: [TimeRange]
    /// Further blocked time inside `working` (a meeting, a break added today).
    public var unavailable: [TimeRange]
    /// Most appointments in one local day; `nil` for no limit.
    public var maxAppointmentsPerDay: Int?
    /// Longest run of back-to-back surgery (appointments in a surgery room, each starting
    /// before the previous one's buffer has run out), from the first start to the last end, in
    /// minutes; `nil` for no limit. A surgery that would make a run longer is not offered.
    public var maxConsecutiveSurgeryMinutes: Int?

    /// Creates a timetable.
    public init(
        clinicianID: UUID, specialties: Set<Specialty>, working: [TimeRange], unavailable: [TimeRange] = [],
        maxAppointmentsPerDay: Int? = nil, maxConsecutiveSurgeryMinutes: Int? = nil
    ) {
        self.clinicianID = clinicianID
        self.specialties = specialties
        self.working = working
        self.unavailable = unavailable
        self.maxAppointmentsPerDay = maxAppointmentsPerDay
        self.maxConsecutiveSurgeryMinutes = maxConsecutiveSurgeryMinutes
    }
}
