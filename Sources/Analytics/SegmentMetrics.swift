import Foundation
import Scheduling
import SharedKernel

/// Everything measured about one segment (the practice, a clinician, a specialty, an
/// appointment type, a room or a species) over a period.
///
/// Appointments are attributed to the period by their scheduled start; booked minutes by the
/// part of the appointment inside the period (see ``Utilization``).
public struct SegmentMetrics: Hashable, Codable, Sendable {
    /// Which slice this is.
    public let segment: Segment
    /// Appointments starting in the period, by status.
    public let appointments: StatusCounts
    /// Booked against available minutes: working windows for the practice, a clinician or a
    /// specialty (the clinicians with that expertise; every clinician for general practice),
    /// opening hours for a room. `nil` for appointment types and species, which own no time.
    public let utilization: Utilization?
    /// Booked minutes inside the period, whatever the dimension.
    public let bookedMinutes: Double
    /// No-shows among appointments whose outcome is known (``StatusCounts/decided``).
    public let noShows: Rate
    /// Late cancellations (less than ``AnalyticsOptions/lateCancellationNotice`` before the
    /// start, or after it) among all appointments starting in the period.
    public let lateCancellations: Rate
    /// Cancellations whose time is unknown, so they could not be judged late or not.
    public let cancellationsWithoutTime: Int
    /// Recorded against booked length, and the duration model's error.
    public let duration: DurationAccuracy
    /// Booking to visit.
    public let leadTime: LeadTime
    /// New and returning patients seen.
    public let patients: PatientMix
    /// Fees of completed appointments (the appointment type's standard fee), per currency.
    public let revenue: [CurrencyAmount]

    /// Creates the figures.
    public init(
        segment: Segment, appointments: StatusCounts, utilization: Utilization?, bookedMinutes: Double, noShows: Rate,
        lateCancellations: Rate, cancellationsWithoutTime: Int, duration: DurationAccuracy, leadTime: LeadTime,
        patients: PatientMix, revenue: [CurrencyAmount]
    ) {
        self.segment = segment
        self.appointments = appointments
        self.utilization = utilization
        self.bookedMinutes = bookedMinutes
        self.noShows = noShows
        self.lateCancellations = lateCancellations
        self.cancellationsWithoutTime = cancellationsWithoutTime
        self.duration = duration
        self.leadTime = leadTime
        self.patients = patients
        self.revenue = revenue
    }

    /// Revenue in `currency`, zero when none was earned in it.
    public func revenue(in currency: String) -> Decimal {
        revenue.first { $0.currency == currency }?.amount ?? 0
    }
}

/// Records the metrics had to skip or could only partly use, so a gap in the data is
/// visible rather than silently folded into a figure. Counted over the period's appointments
/// (by scheduled start) and triage arrivals.
public struct DataQuality: Hashable, Codable, Sendable {
    /// Appointments whose type is not in the history: no fee, no specialty.
    public var unknownAppointmentType = 0
    /// Appointments whose clinician is not in the history: no working time.
    public var unknownClinician = 0
    /// Appointments in a room the history does not know.
    public var unknownRoom = 0
    /// Appointments whose end is not after their start, or which last more than a day: no minutes counted.
    public var invalidTime = 0
    /// Completed appointments without a plausible recorded length (1–1440 min).
    public var completedWithoutDuration = 0
    /// Appointments of unknown species: in no species segment, not predicted by the duration model.
    public var unknownSpecies = 0
    /// Bookings recorded after the appointment's start; their lead time counts as 0.
    public var bookedAfterStart = 0
    /// Triage arrivals whose first-seen time is before the arrival: left out of the waits.
    public var seenBeforeArrival = 0
    /// Appointments with a start that is not a real instant, dropped when the history was indexed.
    public var unreadableAppointments = 0

    /// Nothing skipped.
    public init() {}

    /// Whether every record could be used in full.
    public var isClean: Bool { self == DataQuality() }
}
