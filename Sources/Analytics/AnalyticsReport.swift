import Foundation
import SharedKernel
import Specialists
import Triage

/// The reports a practice can export.
public enum ReportKind: String, CaseIterable, Codable, Sendable {
    /// Every segment (the practice, each clinician, specialty, appointment type, room and
    /// species) over the period, one row each, with all its figures.
    case segments
    /// The practice's main figures per day, week or month of the period.
    case trend
    /// VTL compliance per level over the period, and overall.
    case vtl
    /// Every triaged patient who waited beyond their level's maximum wait.
    case breaches
    /// Demand against capacity per specialty and clinician over the coming days.
    case bottlenecks
    /// Next week's demand per specialty and day, with the back-tested error.
    case forecast
    /// The period's findings.
    case insights

    /// Whether the report is about a period (`from`/`to`); the look-ahead reports are about
    /// the days from the time of the request.
    public var usesPeriod: Bool { self != .bottlenecks && self != .forecast }
}

/// What a report is asked for.
public struct ReportRequest: Sendable {
    /// Which report.
    public var kind: ReportKind
    /// The period analysed.
    public var period: AnalyticsPeriod
    /// Bucket size of the trend report.
    public var bucket: BucketSize
    /// The instant the figures are judged at (and the look-ahead reports start from).
    public var asOf: Date
    /// Whether money may be shown (the reader's role may see revenue).
    public var includeRevenue: Bool
    /// Days the bottleneck report looks ahead.
    public var horizonDays: Int
    /// Weeks of history the forecast learns from.
    public var historyWeeks: Int

    /// Creates a request (look-ahead defaults: 14 days, 8 weeks of history).
    public init(
        kind: ReportKind, period: AnalyticsPeriod, bucket: BucketSize = .day, asOf: Date, includeRevenue: Bool,
        horizonDays: Int = 14, historyWeeks: Int = 8
    ) {
        self.kind = kind
        self.period = period
        self.bucket = bucket
        self.asOf = asOf
        self.includeRevenue = includeRevenue
        self.horizonDays = horizonDays
        self.historyWeeks = historyWeeks
    }

    /// What the store must load to build the report.
    public func window(options: AnalyticsOptions = .standard) -> HistoryWindow {
        let zone = period.timeZone
        switch kind {
        case .bottlenecks:
            return HistoryWindow(period: nil, bottlenecks: (asOf, horizonDays), timeZone: zone, options: options)
        case .forecast:
            let today = DayGrid(covering: DateInterval(start: asOf, duration: 1), timeZone: zone).days.first?.date
            return HistoryWindow(
                period: nil, forecast: today.map { ($0, historyWeeks) }, timeZone: zone, options: options)
        case .insights:
            let today = DayGrid(covering: DateInterval(start: asOf, duration: 1), timeZone: zone).days.first?.date
            return HistoryWindow(
                period: period, bottlenecks: (asOf, horizonDays), forecast: today.map { ($0, historyWeeks) },
                timeZone: zone, options: options)
        default:
            return HistoryWindow(period: period, timeZone: zone, options: options)
        }
    }
}

extension PracticeAnalytics {
    /// Builds the report `request` asks for. `progress` is told how many of the report's
    /// steps are done (series, segments), for a progress bar on long reports.
    public func report(_ request: ReportRequest, progress: (@Sendable (Int, Int) -> Void)? = nil) -> ReportTable {
        let table: (columns: [ReportColumn], rows: [[ReportCell]])
        switch request.kind {
        case .segments: table = segmentsReport(request, progress: progress)
        case .trend: table = trendReport(request, progress: progress)
        case .vtl: table = vtlReport(request)
        case .breaches: table = breachesReport(request)
        case .bottlenecks: table = bottlenecksReport(request)
        case .forecast: table = forecastReport(request)
        case .insights: table = insightsReport(request)
        }
        return ReportTable(
            kind: request.kind, columns: table.columns, rows: table.rows, timeZone: request.period.timeZone)
    }

    // MARK: - Segments

    private func segmentsReport(_ request: ReportRequest, progress: (@Sendable (Int, Int) -> Void)?) -> (
        columns: [ReportColumn], rows: [[ReportCell]]
    ) {
        progress?(0, 1)
        let metrics = metrics(for: request.period, asOf: request.asOf)
        let all = Dimension.allCases.flatMap { metrics.segments($0) }
        let currencies = request.includeRevenue ? Self.currencies(all.flatMap(\.revenue)) : []
        var columns = [
            ReportColumn("dimension", "text"), ReportColumn("segmentId", "id"), ReportColumn("segment", "text"),
        ]
        columns += ["appointments", "booked", "checkedIn", "inProgress", "completed", "cancelled", "noShow"].map {
            ReportColumn($0, "count")
        }
        columns += [
            ReportColumn("bookedMinutes", "minutes"), ReportColumn("availableMinutes", "minutes"),
            ReportColumn("utilization", "ratio"),
            ReportColumn("noShowRate", "ratio"), ReportColumn("lateCancellations", "count"),
            ReportColumn("lateCancellationRate", "ratio"),
            ReportColumn("cancellationsWithoutTime", "count"), ReportColumn("completedWithDuration", "count"),
            ReportColumn("meanPlannedMinutes", "minutes"), ReportColumn("meanActualMinutes", "minutes"),
            ReportColumn("meanDurationDifference", "minutes"),
            ReportColumn("meanAbsoluteDurationDifference", "minutes"),
            ReportColumn("durationModelError", "minutes"), ReportColumn("meanLeadTime", "hours"),
            ReportColumn("medianLeadTime", "hours"),
            ReportColumn("newPatients", "count"), ReportColumn("returningPatients", "count"),
            ReportColumn("unknownPatients", "count"),
        ]
        columns += currencies.map { ReportColumn("revenue_\($0)", "money") }
        let rows = all.map { figures -> [ReportCell] in
            var row: [ReportCell] = [
                .text(figures.segment.dimension.rawValue), .text(figures.segment.id), .text(figures.segment.name),
            ]
            let counts = figures.appointments
            row += [
                counts.total, counts.booked, counts.checkedIn, counts.inProgress, counts.completed, counts.cancelled,
                counts.noShow,
            ]
            .map(ReportCell.integer)
            row += [
                .number(figures.bookedMinutes), Self.cell(figures.utilization?.availableMinutes),
                Self.cell(figures.utilization?.ratio),
                Self.cell(figures.noShows.value), .integer(figures.lateCancellations.count),
                Self.cell(figures.lateCancellations.value),
                .integer(figures.cancellationsWithoutTime), .integer(figures.duration.count),
                Self.cell(figures.duration.meanPlannedMinutes), Self.cell(figures.duration.meanActualMinutes),
                Self.cell(figures.duration.meanDifferenceMinutes),
                Self.cell(figures.duration.meanAbsoluteDifferenceMinutes),
                Self.cell(figures.duration.modelMAE), Self.cell(figures.leadTime.meanHours),
                Self.cell(figures.leadTime.medianHours),
                .integer(figures.patients.new), .integer(figures.patients.returning),
                .integer(figures.patients.unknown),
            ]
            row += currencies.map { .decimal(figures.revenue(in: $0)) }
            return row
        }
        progress?(1, 1)
        return (columns, rows)
    }

    // MARK: - Trend

    /// The columns of the trend report: one time series each, computed in one pass of the
    /// series engine (working time and the duration model resolved once, each bucket tallied once).
    static let trendMetrics: [MetricKind] = [
        .appointments, .completedAppointments, .cancellations, .noShows, .noShowRate, .lateCancellationRate,
        .bookedMinutes,
        .utilization, .roomUtilization, .meanDurationDifference, .durationModelError, .meanLeadTime, .newPatients,
        .returningPatients,
        .revenue, .triageArrivals, .vtlCompliance(nil), .vtlBreaches(nil), .efficiencyScore,
    ]

    private func trendReport(_ request: ReportRequest, progress: (@Sendable (Int, Int) -> Void)?) -> (
        columns: [ReportColumn], rows: [[ReportCell]]
    ) {
        let metrics = Self.trendMetrics.filter {
            request.includeRevenue || !MetricCatalogue.definition(of: $0).isRevenue
        }
        progress?(0, 1)
        let series = timeSeries(metrics, over: request.period, by: request.bucket, asOf: request.asOf)
        progress?(1, 1)
        let buckets = series.first?.points.map(\.bucket) ?? request.period.buckets(request.bucket)
        var currencies: [String] = []
        for item in series where item.metric == .revenue {
            for point in item.points {
                if case .money(let amounts)? = point.value { currencies += amounts.map(\.currency) }
            }
        }
        currencies = Array(Set(currencies)).sorted()
        var columns = [
            ReportColumn("bucket", "date"), ReportColumn("start", "instant"), ReportColumn("end", "instant"),
        ]
        for item in series {
            let definition = MetricCatalogue.definition(of: item.metric)
            if item.metric == .revenue {
                columns += currencies.map { ReportColumn("revenue_\($0)", "money") }
            } else {
                columns.append(ReportColumn(definition.name, definition.unit.rawValue))
            }
        }
        let rows = buckets.indices.map { index -> [ReportCell] in
            var row: [ReportCell] = [
                .date(buckets[index].label), .instant(buckets[index].start), .instant(buckets[index].end),
            ]
            for item in series {
                let value = index < item.points.count ? item.points[index].value : nil
                if item.metric == .revenue {
                    let amounts: [CurrencyAmount] = if case .money(let amounts)? = value { amounts } else { [] }
                    row += currencies.map { currency in .decimal(amounts.first { $0.currency == currency }?.amount ?? 0)
                    }
                } else if case .count(let count)? = value {
                    row.append(.integer(count))
                } else {
                    row.append(Self.cell(value?.number))
                }
            }
            return row
        }
        return (columns, rows)
    }

    // MARK: - Triage

    private func vtlReport(_ request: ReportRequest) -> (columns: [ReportColumn], rows: [[ReportCell]]) {
        let vtl = metrics(for: request.period, asOf: request.asOf).vtl
        let columns = [
            ReportColumn("level", "text"), ReportColumn("maxWaitMinutes", "minutes"), ReportColumn("arrivals", "count"),
            ReportColumn("judged", "count"), ReportColumn("withinTarget", "count"), ReportColumn("compliance", "ratio"),
            ReportColumn("pending", "count"), ReportColumn("breaches", "count"), ReportColumn("medianWait", "minutes"),
            ReportColumn("p90Wait", "minutes"),
        ]
        var rows = vtl.levels.map { level -> [ReportCell] in
            [
                .text(level.level.colour), .integer(level.maxWaitMinutes), .integer(level.arrivals),
                .integer(level.withinTarget.total),
                .integer(level.withinTarget.count), Self.cell(level.compliance), .integer(level.pending),
                .integer(vtl.breaches.filter { $0.level == level.level }.count), Self.cell(level.medianWaitMinutes),
                Self.cell(level.p90WaitMinutes),
            ]
        }
        rows.append([
            .text("all"), .empty, .integer(vtl.levels.reduce(0) { $0 + $1.arrivals }), .integer(vtl.overall.total),
            .integer(vtl.overall.count), Self.cell(vtl.overall.value),
            .integer(vtl.levels.reduce(0) { $0 + $1.pending }),
            .integer(vtl.breaches.count), .empty, .empty,
        ])
        return (columns, rows)
    }

    private func breachesReport(_ request: ReportRequest) -> (columns: [ReportColumn], rows: [[ReportCell]]) {
        let vtl = metrics(for: request.period, asOf: request.asOf).vtl
        let columns = [
            ReportColumn("patientId", "id"), ReportColumn("level", "text"), ReportColumn("arrival", "instant"),
            ReportColumn("firstSeenAt", "instant"), ReportColumn("waitMinutes", "minutes"),
            ReportColumn("overByMinutes", "minutes"),
        ]
        let rows = vtl.breaches.map { breach -> [ReportCell] in
            [
                .text(UUIDText.lowercase(breach.patientID)), .text(breach.level.colour), .instant(breach.arrival),
                breach.firstSeenAt.map(ReportCell.instant) ?? .empty, Self.cell(breach.waitMinutes),
                Self.cell(breach.overByMinutes),
            ]
        }
        return (columns, rows)
    }

    // MARK: - Look-ahead

    private func bottlenecksReport(_ request: ReportRequest) -> (columns: [ReportColumn], rows: [[ReportCell]]) {
        let report = bottlenecks(asOf: request.asOf, days: request.horizonDays)
        let columns = [
            ReportColumn("firstDay", "date"), ReportColumn("days", "count"), ReportColumn("kind", "text"),
            ReportColumn("id", "id"),
            ReportColumn("name", "text"), ReportColumn("bookedMinutes", "minutes"),
            ReportColumn("requestedMinutes", "minutes"),
            ReportColumn("capacityMinutes", "minutes"), ReportColumn("load", "ratio"),
            ReportColumn("shortfallMinutes", "minutes"),
            ReportColumn("status", "text"),
        ]
        let lead: [ReportCell] = [.date(report.firstDay), .integer(report.days)]
        var rows = report.specialties.map { load -> [ReportCell] in
            lead + [
                .text("specialty"), .text(load.specialty.rawValue), .text(load.specialty.displayName),
                .number(load.bookedMinutes),
                .number(load.requestedMinutes), .number(load.capacityMinutes), Self.cell(load.ratio),
                .number(load.shortfallMinutes),
                .text(load.isBottleneck ? "bottleneck" : "fits"),
            ]
        }
        rows += report.clinicians.map { load -> [ReportCell] in
            lead + [
                .text("clinician"), .text(load.clinician.id), .text(load.clinician.name), .number(load.bookedMinutes),
                .empty,
                .number(load.capacityMinutes), Self.cell(load.load),
                .number(max(0, load.bookedMinutes - load.capacityMinutes)),
                load.band.map { .text($0.rawValue) } ?? .empty,
            ]
        }
        return (columns, rows)
    }

    private func forecastReport(_ request: ReportRequest) -> (columns: [ReportColumn], rows: [[ReportCell]]) {
        let firstDay = bottlenecks(asOf: request.asOf, days: 1).firstDay
        let forecast = forecast(weekStarting: firstDay, historyWeeks: request.historyWeeks)
        let columns = [
            ReportColumn("specialty", "id"), ReportColumn("name", "text"), ReportColumn("date", "date"),
            ReportColumn("appointments", "count"), ReportColumn("minutes", "minutes"),
            ReportColumn("weeksAveraged", "count"),
            ReportColumn("backtestDays", "count"), ReportColumn("appointmentsMAE", "count"),
            ReportColumn("appointmentsMAPE", "ratio"),
            ReportColumn("minutesMAE", "minutes"),
        ]
        let rows = forecast.specialties.flatMap { specialty in
            specialty.days.map { day -> [ReportCell] in
                [
                    .text(specialty.specialty.rawValue), .text(specialty.specialty.displayName), .date(day.date),
                    .number(day.appointments),
                    .number(day.minutes), .integer(forecast.weeksAveraged), .integer(specialty.backtest.days),
                    Self.cell(specialty.backtest.appointmentsMAE),
                    Self.cell(specialty.backtest.appointmentsMAPE.map { $0 / 100 }),
                    Self.cell(specialty.backtest.minutesMAE),
                ]
            }
        }
        return (columns, rows)
    }

    private func insightsReport(_ request: ReportRequest) -> (columns: [ReportColumn], rows: [[ReportCell]]) {
        let dashboard = dashboard(
            period: request.period, asOf: request.asOf, horizonDays: request.horizonDays,
            historyWeeks: request.historyWeeks)
        let columns = [
            ReportColumn("severity", "text"), ReportColumn("kind", "text"), ReportColumn("message", "text"),
            ReportColumn("metric", "text"), ReportColumn("level", "text"), ReportColumn("dimension", "text"),
            ReportColumn("segmentId", "id"), ReportColumn("segment", "text"),
        ]
        let rows = dashboard.insights.map { insight -> [ReportCell] in
            let source = insight.source
            return [
                .text(insight.severity.rawValue), .text(insight.kind.rawValue), .text(insight.message),
                .text(source.metric.name),
                source.metric.level.map { .text($0.colour) } ?? .empty, .text(source.segment.dimension.rawValue),
                .text(source.segment.id), .text(source.segment.name),
            ]
        }
        return (columns, rows)
    }

    // MARK: - Cells

    static func cell(_ value: Double?) -> ReportCell {
        guard let value, value.isFinite else { return .empty }
        return .number(value)
    }

    static func currencies(_ amounts: [CurrencyAmount]) -> [String] {
        Array(Set(amounts.map(\.currency))).sorted()
    }
}
