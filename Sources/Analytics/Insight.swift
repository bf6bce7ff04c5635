import Foundation
import SharedKernel

/// What an insight is about.
public enum InsightKind: String, CaseIterable, Codable, Sendable {
    /// A VTL level whose maximum wait was missed repeatedly.
    case triageWaits
    /// A clinician booked above the target load over the period.
    case clinicianOverloaded
    /// A clinician booked below the target load over the period.
    case clinicianUnderused
    /// The practice's no-show rate is high.
    case noShowRate
    /// One appointment type, species or clinician has far more no-shows than the practice.
    case noShowHotspot
    /// Many cancellations came at short notice.
    case lateCancellations
    /// An appointment type regularly runs over the time booked for it.
    case durationOverrun
    /// The duration model would have booked lengths closer to the real ones.
    case durationModelGain
    /// A specialty's demand exceeds its capacity over the coming days.
    case specialtyBottleneck
    /// A clinician is booked above the target load over the coming days.
    case clinicianOverbookedAhead
    /// Next week's forecast demand differs markedly from last week's.
    case demandShift
}

/// How urgently an insight asks for attention.
public enum InsightSeverity: String, Codable, Sendable, Comparable {
    /// Worth knowing.
    case info
    /// Worth acting on.
    case warning
    /// Patients or revenue are at risk now.
    case critical

    private var rank: Int { self == .info ? 0 : self == .warning ? 1 : 2 }

    /// Orders by urgency: `info < warning < critical`.
    public static func < (lhs: InsightSeverity, rhs: InsightSeverity) -> Bool { lhs.rank < rhs.rank }
}

/// A number an insight rests on.
public struct InsightFigure: Hashable, Codable, Sendable {
    /// What it is (`breachDays`, `noShowRate`, …).
    public let name: String
    /// The value.
    public let value: Double
    /// Its unit (`count`, `ratio`, `minutes`, `hours`, `percent`, `appointments`).
    public let unit: String

    /// Creates a figure.
    public init(_ name: String, _ value: Double, _ unit: String) {
        self.name = name
        self.value = value
        self.unit = unit
    }
}

/// The metric an insight was drawn from, so a reader can open the chart behind it.
public struct MetricReference: Hashable, Codable, Sendable {
    /// The metric.
    public let metric: MetricKind
    /// Whose figures.
    public let segment: Segment

    /// Creates a reference.
    public init(metric: MetricKind, segment: Segment) {
        self.metric = metric
        self.segment = segment
    }
}

/// A finding in plain language, with the numbers behind it and the metric it comes from.
public struct Insight: Hashable, Codable, Sendable {
    /// What it is about.
    public let kind: InsightKind
    /// How urgent.
    public let severity: InsightSeverity
    /// The sentence shown to the practice manager.
    public let message: String
    /// The numbers the sentence states, and any it rests on.
    public let figures: [InsightFigure]
    /// Where the numbers come from.
    public let source: MetricReference

    /// Creates an insight.
    public init(
        kind: InsightKind, severity: InsightSeverity, message: String, figures: [InsightFigure], source: MetricReference
    ) {
        self.kind = kind
        self.severity = severity
        self.message = message
        self.figures = figures
        self.source = source
    }

    /// The figure called `name`.
    public func figure(_ name: String) -> Double? { figures.first { $0.name == name }?.value }
}

/// When the data is strong enough for an insight. An insight is emitted only when its
/// condition holds *and* it rests on at least the stated number of cases, so a quiet week
/// never produces alarming sentences from two appointments.
public struct InsightThresholds: Hashable, Codable, Sendable {
    /// A level is reported when its compliance is below this share… (default 0.9)
    public var triageComplianceBelow: Double
    /// …and it has at least this many breaches (default 3).
    public var triageMinimumBreaches: Int
    /// The hours most breaches fell in are named when at least this share of them fall in
    /// a window of at most ``triageWindowMaxHours`` (default 0.8 and 3 hours).
    public var triageWindowShare: Double
    /// Widest window of hours named (default 3).
    public var triageWindowMaxHours: Int
    /// Fewest available hours before a clinician's load over the period is judged (default 20).
    public var loadMinimumAvailableHours: Double
    /// The practice's no-show rate is reported at or above this (default 0.10)…
    public var noShowRateAtLeast: Double
    /// …over at least this many appointments with a known outcome (default 20).
    public var noShowMinimumAppointments: Int
    /// A segment is a no-show hotspot at this multiple of the practice's rate or more (default 2)…
    public var hotspotFactor: Double
    /// …with at least this many appointments with a known outcome (default 10) and at least
    /// ``hotspotMinimumNoShows`` no-shows (default 3).
    public var hotspotMinimumAppointments: Int
    /// Fewest no-shows behind a hotspot.
    public var hotspotMinimumNoShows: Int
    /// Late cancellations are reported at or above this share (default 0.10)…
    public var lateCancellationRateAtLeast: Double
    /// …of at least this many appointments (default 20).
    public var lateCancellationMinimumAppointments: Int
    /// A type overruns when its mean `actual − booked` is at least this many minutes (default 5)…
    public var overrunMinutes: Double
    /// …over at least this many completed appointments (default 5).
    public var overrunMinimumCount: Int
    /// The duration model is worth mentioning when it is at least this many minutes closer
    /// than the booked lengths (default 2)…
    public var modelGainMinutes: Double
    /// …over at least this many completed appointments (default 20).
    public var modelGainMinimumCount: Int
    /// A bottleneck is critical (not a warning) at this demand ÷ capacity or more (default 1.2).
    public var bottleneckCriticalRatio: Double
    /// Next week's demand is reported when it differs from last week's by this share or more (default 0.25)…
    public var demandShiftShare: Double
    /// …either week has at least this many appointments (default 10)…
    public var demandShiftMinimumAppointments: Double
    /// …and the back-tested error is at most this percentage (default 50), so a forecast
    /// that has not earned trust does not make claims.
    public var demandShiftMaximumMAPE: Double

    /// Creates thresholds; every argument defaults to the documented standard.
    public init(
        triageComplianceBelow: Double = 0.9, triageMinimumBreaches: Int = 3, triageWindowShare: Double = 0.8,
        triageWindowMaxHours: Int = 3, loadMinimumAvailableHours: Double = 20, noShowRateAtLeast: Double = 0.10,
        noShowMinimumAppointments: Int = 20, hotspotFactor: Double = 2, hotspotMinimumAppointments: Int = 10,
        hotspotMinimumNoShows: Int = 3, lateCancellationRateAtLeast: Double = 0.10,
        lateCancellationMinimumAppointments: Int = 20,
        overrunMinutes: Double = 5, overrunMinimumCount: Int = 5, modelGainMinutes: Double = 2,
        modelGainMinimumCount: Int = 20,
        bottleneckCriticalRatio: Double = 1.2, demandShiftShare: Double = 0.25,
        demandShiftMinimumAppointments: Double = 10,
        demandShiftMaximumMAPE: Double = 50
    ) {
        self.triageComplianceBelow = triageComplianceBelow
        self.triageMinimumBreaches = triageMinimumBreaches
        self.triageWindowShare = triageWindowShare
        self.triageWindowMaxHours = triageWindowMaxHours
        self.loadMinimumAvailableHours = loadMinimumAvailableHours
        self.noShowRateAtLeast = noShowRateAtLeast
        self.noShowMinimumAppointments = noShowMinimumAppointments
        self.hotspotFactor = hotspotFactor
        self.hotspotMinimumAppointments = hotspotMinimumAppointments
        self.hotspotMinimumNoShows = hotspotMinimumNoShows
        self.lateCancellationRateAtLeast = lateCancellationRateAtLeast
        self.lateCancellationMinimumAppointments = lateCancellationMinimumAppointments
        self.overrunMinutes = overrunMinutes
        self.overrunMinimumCount = overrunMinimumCount
        self.modelGainMinutes = modelGainMinutes
        self.modelGainMinimumCount = modelGainMinimumCount
        self.bottleneckCriticalRatio = bottleneckCriticalRatio
        self.demandShiftShare = demandShiftShare
        self.demandShiftMinimumAppointments = demandShiftMinimumAppointments
        self.demandShiftMaximumMAPE = demandShiftMaximumMAPE
    }

    /// The documented defaults.
    public static let standard = InsightThresholds()
}
