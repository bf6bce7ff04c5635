import Foundation
import Triage

/// The unit a metric is measured in, as the API and reports name it.
public enum MetricUnit: String, CaseIterable, Codable, Sendable {
    /// A number of things.
    case count
    /// A share, 0…1 (utilization may exceed 1).
    case ratio
    /// Minutes.
    case minutes
    /// Hours.
    case hours
    /// A 0–100 score.
    case score
    /// Money, in major units (pounds, euros) of one currency.
    case money
}

/// Whether a metric is asked of one VTL level.
public enum LevelUse: String, Codable, Sendable {
    /// The metric has no level.
    case none
    /// One level, or every level together when none is given.
    case optional
    /// One level must be named.
    case required
}

/// What one chartable metric is: its stable name, unit, the breakdowns it exists for, and
/// whether it reveals money (which the role must be allowed to see).
public struct MetricDefinition: Hashable, Sendable {
    /// Stable name (`noShowRate`), used in URLs, reports and insight links.
    public let name: String
    /// Unit of its values.
    public let unit: MetricUnit
    /// One sentence saying what is measured.
    public let summary: String
    /// Whether it is asked per VTL level.
    public let level: LevelUse
    /// The breakdowns it is computed for: appointment metrics for every dimension, triage
    /// metrics for the practice and per species (arrivals carry no clinician, type or room),
    /// room utilization for the practice only.
    public let dimensions: [Dimension]
    /// Whether its values are money (revenue).
    public let isRevenue: Bool

    /// The metric for `level` (ignored unless the metric takes one); `nil` when a required
    /// level is missing.
    public func kind(level: TriageLevel?) -> MetricKind? {
        switch name {
        case "vtlCompliance": return .vtlCompliance(level)
        case "vtlBreaches": return .vtlBreaches(level)
        case "medianWait": return level.map(MetricKind.medianWait)
        case "p90Wait": return level.map(MetricKind.p90Wait)
        default: return MetricCatalogue.plain[name]
        }
    }
}

/// Every metric a time series can be drawn for, by name.
public enum MetricCatalogue {
    private static let everyDimension = Dimension.allCases
    private static let triageDimensions: [Dimension] = [.practice, .species]

    /// All metrics, in the order a screen lists them.
    public static let all: [MetricDefinition] = [
        MetricDefinition(
            name: "appointments", unit: .count, summary: "Appointments starting in the bucket, any status.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "completedAppointments", unit: .count, summary: "Completed appointments.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "cancellations", unit: .count, summary: "Cancelled appointments.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "noShows", unit: .count, summary: "Appointments the patient did not come to.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "noShowRate", unit: .ratio, summary: "No-shows among appointments whose outcome is known.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "lateCancellationRate", unit: .ratio,
            summary: "Cancellations made less than the notice period (24 h) before the start, among all appointments.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "utilization", unit: .ratio,
            summary: "Booked minutes over available minutes (working time; opening hours for a room).",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "roomUtilization", unit: .ratio,
            summary: "Minutes booked in all active rooms over opening hours times the active rooms.",
            level: .none, dimensions: [.practice], isRevenue: false),
        MetricDefinition(
            name: "bookedMinutes", unit: .minutes,
            summary: "Minutes booked (appointments that hold time), clipped to the bucket.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "meanDurationDifference", unit: .minutes,
            summary: "Mean of actual minus booked minutes of completed appointments (positive: overruns).",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "durationModelError", unit: .minutes,
            summary: "Mean absolute error of the duration model trained on the history before the period.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "meanLeadTime", unit: .hours, summary: "Mean time from booking to the appointment's start.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "newPatients", unit: .count, summary: "Patients who came for the first time.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "returningPatients", unit: .count, summary: "Patients who came and had been before.",
            level: .none, dimensions: everyDimension, isRevenue: false),
        MetricDefinition(
            name: "revenue", unit: .money,
            summary: "Fees of completed appointments (the type's standard fee), per currency.",
            level: .none, dimensions: everyDimension, isRevenue: true),
        MetricDefinition(
            name: "triageArrivals", unit: .count, summary: "Triaged arrivals at the emergency service.",
            level: .none, dimensions: triageDimensions, isRevenue: false),
        MetricDefinition(
            name: "vtlCompliance", unit: .ratio,
            summary: "Share of judged triaged patients first seen within their level's maximum wait.",
            level: .optional, dimensions: triageDimensions, isRevenue: false),
        MetricDefinition(
            name: "vtlBreaches", unit: .count,
            summary: "Triaged patients who waited beyond their level's maximum wait.",
            level: .optional, dimensions: triageDimensions, isRevenue: false),
        MetricDefinition(
            name: "medianWait", unit: .minutes, summary: "Median wait from arrival to first seen (nearest rank).",
            level: .required, dimensions: triageDimensions, isRevenue: false),
        MetricDefinition(
            name: "p90Wait", unit: .minutes, summary: "90th-percentile wait from arrival to first seen (nearest rank).",
            level: .required, dimensions: triageDimensions, isRevenue: false),
        MetricDefinition(
            name: "efficiencyScore", unit: .score,
            summary: "The efficiency score, 0–100 (its triage part for the practice and per species only).",
            level: .none, dimensions: everyDimension, isRevenue: false),
    ]

    /// The metrics without a level, by name.
    static let plain: [String: MetricKind] = [
        "appointments": .appointments, "completedAppointments": .completedAppointments, "cancellations": .cancellations,
        "noShows": .noShows, "noShowRate": .noShowRate, "lateCancellationRate": .lateCancellationRate,
        "utilization": .utilization,
        "roomUtilization": .roomUtilization, "bookedMinutes": .bookedMinutes,
        "meanDurationDifference": .meanDurationDifference,
        "durationModelError": .durationModelError, "meanLeadTime": .meanLeadTime, "newPatients": .newPatients,
        "returningPatients": .returningPatients, "revenue": .revenue, "triageArrivals": .triageArrivals,
        "efficiencyScore": .efficiencyScore,
    ]

    /// The metric called `name`.
    public static func definition(named name: String) -> MetricDefinition? { all.first { $0.name == name } }

    /// The definition of `kind`.
    public static func definition(of kind: MetricKind) -> MetricDefinition {
        // Every kind has a definition: the table above names each case once.
        definition(named: kind.name)!
    }
}

extension MetricKind {
    /// The metric's stable name (``MetricDefinition/name``).
    public var name: String {
        switch self {
        case .appointments: return "appointments"
        case .completedAppointments: return "completedAppointments"
        case .cancellations: return "cancellations"
        case .noShows: return "noShows"
        case .noShowRate: return "noShowRate"
        case .lateCancellationRate: return "lateCancellationRate"
        case .utilization: return "utilization"
        case .roomUtilization: return "roomUtilization"
        case .bookedMinutes: return "bookedMinutes"
        case .meanDurationDifference: return "meanDurationDifference"
        case .durationModelError: return "durationModelError"
        case .meanLeadTime: return "meanLeadTime"
        case .newPatients: return "newPatients"
        case .returningPatients: return "returningPatients"
        case .revenue: return "revenue"
        case .triageArrivals: return "triageArrivals"
        case .vtlCompliance: return "vtlCompliance"
        case .vtlBreaches: return "vtlBreaches"
        case .medianWait: return "medianWait"
        case .p90Wait: return "p90Wait"
        case .efficiencyScore: return "efficiencyScore"
        }
    }

    /// The VTL level the metric is asked of, if any.
    public var level: TriageLevel? {
        switch self {
        case .vtlCompliance(let level), .vtlBreaches(let level): return level
        case .medianWait(let level), .p90Wait(let level): return level
        default: return nil
        }
    }
}
