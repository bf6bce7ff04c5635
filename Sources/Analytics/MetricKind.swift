import Foundation
import Triage

/// A metric that can be charted over time. Appointment metrics can be asked of any
/// segment; triage metrics of the practice or a species (arrivals have no clinician or room);
/// the efficiency score of any segment (its triage part only for the practice or a species).
public enum MetricKind: Hashable, Codable, Sendable {
    /// Appointments starting in the bucket, any status.
    case appointments
    /// Completed appointments.
    case completedAppointments
    /// Cancelled appointments.
    case cancellations
    /// No-shows.
    case noShows
    /// No-shows ÷ appointments with a known outcome.
    case noShowRate
    /// Late cancellations ÷ all appointments.
    case lateCancellationRate
    /// Booked ÷ available minutes (a room: ÷ opening hours).
    case utilization
    /// Minutes booked in all active rooms ÷ opening hours × active rooms (practice only).
    case roomUtilization
    /// Booked minutes.
    case bookedMinutes
    /// Mean `actual − booked` minutes of completed appointments.
    case meanDurationDifference
    /// Mean absolute error of the duration model, minutes.
    case durationModelError
    /// Mean lead time from booking to start, hours.
    case meanLeadTime
    /// Patients seen for the first time.
    case newPatients
    /// Patients seen who had been before.
    case returningPatients
    /// Fees of completed appointments.
    case revenue
    /// Triage arrivals.
    case triageArrivals
    /// Share seen within the maximum wait, for one level or (`nil`) all.
    case vtlCompliance(TriageLevel?)
    /// Patients who waited beyond the maximum, for one level or (`nil`) all.
    case vtlBreaches(TriageLevel?)
    /// Median wait (nearest rank) of one level, minutes.
    case medianWait(TriageLevel)
    /// 90th-percentile wait (nearest rank) of one level, minutes.
    case p90Wait(TriageLevel)
    /// The efficiency score, 0–100.
    case efficiencyScore

    /// Whether computing the metric needs the appointments (the pure triage figures do not).
    var usesAppointments: Bool {
        switch self {
        case .triageArrivals, .vtlCompliance, .vtlBreaches, .medianWait, .p90Wait: return false
        default: return true
        }
    }

    /// Whether the metric needs the clinicians' working time or the opening hours.
    var usesCapacity: Bool {
        switch self {
        case .utilization, .roomUtilization, .efficiencyScore: return true
        default: return false
        }
    }

    /// Whether computing the metric needs the triage arrivals.
    var usesTriage: Bool {
        switch self {
        case .triageArrivals, .vtlCompliance, .vtlBreaches, .medianWait, .p90Wait, .efficiencyScore: return true
        default: return false
        }
    }
}

/// A measured value with its unit.
public enum MetricValue: Hashable, Codable, Sendable {
    /// A number of things.
    case count(Int)
    /// A share, 0…1 (utilization may exceed 1).
    case ratio(Double)
    /// Minutes.
    case minutes(Double)
    /// Hours.
    case hours(Double)
    /// A 0–100 score.
    case score(Double)
    /// Money, per currency.
    case money([CurrencyAmount])

    /// The value as a number for charting; `nil` for money, which must stay exact.
    public var number: Double? {
        switch self {
        case .count(let value): return Double(value)
        case .ratio(let value), .minutes(let value), .hours(let value), .score(let value): return value
        case .money: return nil
        }
    }
}

/// One bucket of a time series.
public struct TimeSeriesPoint: Hashable, Codable, Sendable {
    /// The bucket.
    public let bucket: PeriodBucket
    /// The value; `nil` when the bucket has no data for it (no appointments to divide by, no
    /// working time), never NaN.
    public let value: MetricValue?

    /// Creates a point.
    public init(bucket: PeriodBucket, value: MetricValue?) {
        self.bucket = bucket
        self.value = value
    }
}

/// A metric of one segment over the buckets of a period.
public struct TimeSeries: Hashable, Codable, Sendable {
    /// What is measured.
    public let metric: MetricKind
    /// Whose figures.
    public let segment: Segment
    /// Bucket size.
    public let bucketSize: BucketSize
    /// One point per bucket, in order.
    public let points: [TimeSeriesPoint]

    /// Creates a series.
    public init(metric: MetricKind, segment: Segment, bucketSize: BucketSize, points: [TimeSeriesPoint]) {
        self.metric = metric
        self.segment = segment
        self.bucketSize = bucketSize
        self.points = points
    }
}
