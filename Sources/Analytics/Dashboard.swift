import Foundation
import SharedKernel
import Specialists

/// Everything the practice manager's dashboard shows, computed in one call.
public struct Dashboard: Hashable, Codable, Sendable {
    /// The period's figures, overall and broken down.
    public let metrics: PracticeMetrics
    /// When patients arrive over the period.
    public let arrivals: ArrivalPattern
    /// Demand against capacity over the coming days.
    public let bottlenecks: BottleneckReport
    /// The coming week's demand per specialty.
    public let forecast: DemandForecast
    /// Findings, most severe first.
    public let insights: [Insight]

    /// Creates a dashboard.
    public init(
        metrics: PracticeMetrics, arrivals: ArrivalPattern, bottlenecks: BottleneckReport, forecast: DemandForecast,
        insights: [Insight]
    ) {
        self.metrics = metrics
        self.arrivals = arrivals
        self.bottlenecks = bottlenecks
        self.forecast = forecast
        self.insights = insights
    }
}

extension PracticeAnalytics {
    /// The dashboard for `period` as seen at `asOf`: the period's metrics and arrival
    /// pattern, bottlenecks over the `horizonDays` local days from `asOf`'s day, the forecast
    /// of the seven days from `asOf`'s day learnt from the `historyWeeks` weeks before it, and
    /// the insights all of these support.
    public func dashboard(period: AnalyticsPeriod, asOf: Date, horizonDays: Int = 14, historyWeeks: Int = 8)
        -> Dashboard
    {
        let metrics = metrics(for: period, asOf: asOf)
        let bottlenecks = bottlenecks(asOf: asOf, days: horizonDays)
        let forecast = forecast(weekStarting: bottlenecks.firstDay, historyWeeks: historyWeeks)
        return Dashboard(
            metrics: metrics, arrivals: arrivalPattern(for: period), bottlenecks: bottlenecks, forecast: forecast,
            insights: insights(metrics: metrics, bottlenecks: bottlenecks, forecast: forecast))
    }
}
