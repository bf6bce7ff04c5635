import Foundation
import Scheduling
import SharedKernel

/// The definitions a practice may tune. Every default is stated here, once, so a number on
/// the dashboard can always be traced to the rule that produced it.
public struct AnalyticsOptions: Hashable, Sendable {
    /// A cancellation is *late* when it is made less than this long before the appointment's
    /// scheduled start (or after it). Default 24 hours: the usual notice a practice asks for,
    /// because a slot freed later rarely fills.
    public var lateCancellationNotice: TimeInterval
    /// The band of booked ÷ bookable time a clinician's load should stay in; outside it the
    /// bottleneck report flags them as over- or under-loaded. Default 60 %–90 %: below 60 %
    /// the rota carries idle time, above 90 % there is no room for emergencies and overruns.
    public var targetLoad: ClosedRange<Double>
    /// Weights of the efficiency score's parts.
    public var efficiencyWeights: EfficiencyWeights
    /// Weeks of the same weekday the demand forecast averages (`k`). Default 4.
    public var forecastWeeks: Int
    /// Settings of the duration model trained on the history before a period when no model
    /// is supplied: fewest visits per level, shrinkage in visits, booking grid in minutes —
    /// the scheduler's defaults.
    public var durationModel: DurationModelSettings
    /// When an insight is worth showing.
    public var insightThresholds: InsightThresholds

    /// Creates options; every argument defaults to the documented standard.
    public init(
        lateCancellationNotice: TimeInterval = 24 * 3600, targetLoad: ClosedRange<Double> = 0.6...0.9,
        efficiencyWeights: EfficiencyWeights = .standard, forecastWeeks: Int = 4,
        durationModel: DurationModelSettings = DurationModelSettings(),
        insightThresholds: InsightThresholds = .standard
    ) {
        self.lateCancellationNotice = lateCancellationNotice
        self.targetLoad = targetLoad
        self.efficiencyWeights = efficiencyWeights
        self.forecastWeeks = forecastWeeks
        self.durationModel = durationModel
        self.insightThresholds = insightThresholds
    }

    /// The standard definitions.
    public static let standard = AnalyticsOptions()
}

/// How the engine trains a `DurationPredictor` when the caller supplies none.
public struct DurationModelSettings: Hashable, Sendable {
    /// Fewest visits for a level of the model to count.
    public var minimumSamples: Int
    /// Prior weight, in visits.
    public var shrinkage: Double
    /// Booking grid the prediction is rounded up to, in minutes.
    public var gridMinutes: Int
    /// Days of completed appointments before a period that a store loads for the model to
    /// learn from (``HistoryWindow``). Default 182: half a year holds every type and species
    /// a practice sees often, and keeps what a year's report reads bounded however long the
    /// practice's history grows.
    public var trainingDays: Int

    /// Creates settings (the scheduler's defaults: 5 visits, shrinkage 5, 5-minute grid; 182 days of history).
    public init(minimumSamples: Int = 5, shrinkage: Double = 5, gridMinutes: Int = 5, trainingDays: Int = 182) {
        self.minimumSamples = minimumSamples
        self.shrinkage = shrinkage
        self.gridMinutes = gridMinutes
        self.trainingDays = trainingDays
    }
}
