import Analytics
import Foundation
import OpenAPIRuntime
import PracticeServices
import SharedKernel
import Specialists
import StoragePorts

extension APIHandler {
    var analytics: AnalyticsService { AnalyticsService(store: store, cache: analyticsCache) }

    /// The main figures of the dashboard's trend (revenue only for roles that may see it).
    static var trendMetrics: [MetricKind] {
        [
            .appointments, .completedAppointments, .noShowRate, .lateCancellationRate, .utilization, .triageArrivals,
            .vtlCompliance(nil),
            .efficiencyScore, .revenue,
        ]
    }

    // MARK: - Dashboard

    // The handlers of this file are translation only (the figures are computed, optimized, in
    // the Analytics module) and are compiled without optimization: optimized, Swift 6.3.1's
    // release compiler crashes (signal 11) splitting their coroutines since the analytics use
    // case moved to PracticeServices.

    @_optimize(none)
    func getAnalyticsDashboard(_ input: Operations.GetAnalyticsDashboard.Input) async throws
        -> Operations.GetAnalyticsDashboard.Output
    {
        let caller = try await authorize(.readAnalytics, action: .analyticsDashboardRead, resourceType: .practice)
        let revenue = caller.account.role.allows(.readRevenue)
        let period = try await analytics.period(from: input.query.from, to: input.query.to, scope: caller.scope)
        let asOf = store.clock.now()
        let bucket = input.query.bucket.flatMap { BucketSize(rawValue: $0.rawValue) } ?? period.defaultBucket
        let trendMetrics = Self.trendMetrics.filter { revenue || !MetricCatalogue.definition(of: $0).isRevenue }
        let from = input.query.from
        let to = input.query.to
        let body = try await analytics.compute(
            scope: caller.scope, window: analytics.dashboardWindow(period: period, asOf: asOf),
            action: .analyticsDashboardRead
        ) { loaded in
            let engine = loaded.analytics
            let dashboard = engine.dashboard(period: period, asOf: asOf)
            let metrics = dashboard.metrics
            let days = period.localDays
            let figures = { (list: [SegmentMetrics]) in
                list.map { Components.Schemas.AnalyticsSegmentFigures($0, revenue: revenue) }
            }
            let trendSeries = engine.timeSeries(trendMetrics, over: period, by: bucket, asOf: asOf)
            return Components.Schemas.AnalyticsDashboard(
                from: days?.first.description ?? from, to: days?.last.description ?? to,
                timeZone: period.timeZone.identifier, asOf: asOf,
                revenueIncluded: revenue, practice: .init(metrics.practice, revenue: revenue),
                clinicians: figures(metrics.clinicians),
                specialties: figures(metrics.specialties), appointmentTypes: figures(metrics.appointmentTypes),
                rooms: figures(metrics.rooms),
                species: figures(metrics.species), roomUtilization: .init(metrics.roomUtilization),
                vtl: .init(metrics.vtl),
                efficiency: .init(metrics.efficiency),
                dataQuality: .init(additionalProperties: metrics.dataQuality.counts),
                arrivals: .init(dashboard.arrivals), bottlenecks: .init(dashboard.bottlenecks),
                forecast: .init(dashboard.forecast),
                insights: dashboard.insights.map { insight in
                    .init(
                        insight, from: days?.first ?? LocalDate(dayNumber: 0),
                        to: days?.last ?? LocalDate(dayNumber: 0),
                        bucket: period.defaultBucket)
                },
                trend: .init(
                    bucket: .init(rawValue: bucket.rawValue) ?? .day,
                    buckets: (trendSeries.first?.points.map(\.bucket) ?? period.buckets(bucket)).map(
                        Components.Schemas.AnalyticsBucketSpan.init),
                    series: trendSeries.flatMap { series in
                        Self.wireValues(series, currencies: engine.currencies).map { currency, values in
                            .init(
                                metric: .init(rawValue: series.metric.name) ?? .appointments,
                                unit: .init(rawValue: MetricCatalogue.definition(of: series.metric).unit.rawValue)
                                    ?? .count,
                                currency: currency, values: values)
                        }
                    }))
        }
        return .ok(.init(body: .json(body)))
    }

    // MARK: - Metrics and their series

    @_optimize(none)
    func listAnalyticsMetrics(_ input: Operations.ListAnalyticsMetrics.Input) async throws
        -> Operations.ListAnalyticsMetrics.Output
    {
        let caller = try await authorize(.readAnalytics, action: .analyticsMetricsList, resourceType: .practice)
        let role = caller.account.role
        let items = MetricCatalogue.all.compactMap { definition -> Components.Schemas.AnalyticsMetricDefinition? in
            guard let name = Components.Schemas.AnalyticsMetricName(rawValue: definition.name),
                let unit = Components.Schemas.AnalyticsUnit(rawValue: definition.unit.rawValue)
            else { return nil }
            return .init(
                metric: name, unit: unit, summary: definition.summary,
                level: .init(rawValue: definition.level.rawValue) ?? .none,
                dimensions: definition.dimensions.compactMap {
                    Components.Schemas.AnalyticsDimension(rawValue: $0.rawValue)
                },
                revenue: definition.isRevenue, readable: !definition.isRevenue || role.allows(.readRevenue))
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    @_optimize(none)
    func getAnalyticsSeries(_ input: Operations.GetAnalyticsSeries.Input) async throws
        -> Operations.GetAnalyticsSeries.Output
    {
        let caller = try await authorize(.readAnalytics, action: .analyticsSeriesRead, resourceType: .practice)
        let definition = try MetricCatalogue.definition(named: input.path.metric.rawValue).orNotFound("metric")
        if definition.isRevenue {
            _ = try await authorize(
                .readRevenue, action: .analyticsSeriesRead, resourceType: .practice, refusal: "read revenue")
        }
        let period = try await analytics.period(from: input.query.from, to: input.query.to, scope: caller.scope)
        let dimension = input.query.dimension.flatMap { Dimension(rawValue: $0.rawValue) } ?? .practice
        let level = input.query.level?.level
        var errors = FieldErrorCollector()
        if !definition.dimensions.contains(dimension) {
            errors.add(
                "dimension",
                """
                \(definition.name) is measured for \(definition.dimensions.map(\.rawValue).joined(separator: ", ")) only
                """
            )
        }
        switch definition.level {
        case .required where level == nil: errors.add("level", "is required for \(definition.name)")
        case .none where level != nil: errors.add("level", "\(definition.name) is not measured per level")
        default: break
        }
        if dimension == .practice, let id = input.query.segmentId, id != Segment.practice.id {
            errors.add("segmentId", "names a segment of a dimension; give the dimension too")
        }
        try errors.throwIfAny()
        guard let kind = definition.kind(level: level) else {
            throw ValidationError(field: "level", message: "is required for \(definition.name)")
        }

        let loaded = try await analytics.load(
            scope: caller.scope, window: HistoryWindow(period: period, timeZone: period.timeZone),
            action: .analyticsSeriesRead)
        let engine = loaded.analytics
        let segments: [Segment]
        if let id = input.query.segmentId, dimension != .practice {
            let segment = try engine.segment(dimension, id: id).orNotFound("segment")
            segments = [segment]
        } else {
            segments = engine.knownSegments(dimension)
        }
        let bucket = input.query.bucket.flatMap { BucketSize(rawValue: $0.rawValue) } ?? period.defaultBucket
        let series = engine.timeSeries(kind, over: period, by: bucket, segments: segments, asOf: store.clock.now())
        let days = period.localDays
        let body = Components.Schemas.AnalyticsSeries(
            metric: input.path.metric, unit: .init(rawValue: definition.unit.rawValue) ?? .count,
            level: level.map(Components.Schemas.TriageColour.init),
            bucket: .init(rawValue: bucket.rawValue) ?? .day, from: days?.first.description ?? input.query.from,
            to: days?.last.description ?? input.query.to, timeZone: period.timeZone.identifier,
            buckets: (series.first?.points.map(\.bucket) ?? period.buckets(bucket)).map(
                Components.Schemas.AnalyticsBucketSpan.init),
            series: series.flatMap { item in
                Self.wireValues(item, currencies: engine.currencies).map { currency, values in
                    .init(segment: .init(item.segment), currency: currency, values: values)
                }
            })
        return .ok(.init(body: .json(body)))
    }

    /// A series' values as numbers, one list per currency for money (major units, 0 where
    /// nothing was earned), one list otherwise (`nil` where there was nothing to measure).
    static func wireValues(_ series: TimeSeries, currencies: [String]) -> [(currency: String?, values: [Double?])] {
        guard series.metric == .revenue else { return [(nil, series.points.map { finite($0.value?.number) })] }
        var all = currencies
        for point in series.points { if case .money(let amounts)? = point.value { all += amounts.map(\.currency) } }
        return Array(Set(all)).sorted().map { currency in
            (
                currency,
                series.points.map { point -> Double? in
                    guard case .money(let amounts)? = point.value,
                        let amount = amounts.first(where: { $0.currency == currency })
                    else { return 0 }
                    return finite(NSDecimalNumber(decimal: amount.amount).doubleValue)
                }
            )
        }
    }

    // MARK: - Look-ahead

    @_optimize(none)
    func getAnalyticsBottlenecks(_ input: Operations.GetAnalyticsBottlenecks.Input) async throws
        -> Operations.GetAnalyticsBottlenecks.Output
    {
        let caller = try await authorize(.readAnalytics, action: .analyticsBottlenecksRead, resourceType: .practice)
        let days = input.query.days ?? 14
        guard (1...90).contains(days) else { throw ValidationError(field: "days", message: "must be between 1 and 90") }
        let zone = try await analytics.timeZone(scope: caller.scope)
        let asOf = store.clock.now()
        let loaded = try await analytics.load(
            scope: caller.scope, window: HistoryWindow(period: nil, bottlenecks: (asOf, days), timeZone: zone),
            action: .analyticsBottlenecksRead)
        return .ok(.init(body: .json(.init(loaded.analytics.bottlenecks(asOf: asOf, days: days)))))
    }

    @_optimize(none)
    func getAnalyticsForecast(_ input: Operations.GetAnalyticsForecast.Input) async throws
        -> Operations.GetAnalyticsForecast.Output
    {
        let caller = try await authorize(.readAnalytics, action: .analyticsForecastRead, resourceType: .practice)
        let weeks = input.query.historyWeeks ?? 8
        guard (1...52).contains(weeks) else {
            throw ValidationError(field: "historyWeeks", message: "must be between 1 and 52")
        }
        let zone = try await analytics.timeZone(scope: caller.scope)
        let today = try analytics.today(store.clock.now(), in: zone).orNotFound("practice")
        let loaded = try await analytics.load(
            scope: caller.scope, window: HistoryWindow(period: nil, forecast: (today, weeks), timeZone: zone),
            action: .analyticsForecastRead)
        return .ok(.init(body: .json(.init(loaded.analytics.forecast(weekStarting: today, historyWeeks: weeks)))))
    }

    @_optimize(none)
    func listAnalyticsInsights(_ input: Operations.ListAnalyticsInsights.Input) async throws
        -> Operations.ListAnalyticsInsights.Output
    {
        let caller = try await authorize(.readAnalytics, action: .analyticsInsightsRead, resourceType: .practice)
        let period = try await analytics.period(from: input.query.from, to: input.query.to, scope: caller.scope)
        let asOf = store.clock.now()
        let loaded = try await analytics.load(
            scope: caller.scope, window: analytics.dashboardWindow(period: period, asOf: asOf),
            action: .analyticsInsightsRead)
        let insights = loaded.analytics.dashboard(period: period, asOf: asOf).insights
        let days = period.localDays
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: insights.map { insight in
                            .init(
                                insight, from: days?.first ?? LocalDate(dayNumber: 0),
                                to: days?.last ?? LocalDate(dayNumber: 0), bucket: period.defaultBucket)
                        }))))
    }

    // MARK: - Reports

    @_optimize(none)
    func getAnalyticsReport(_ input: Operations.GetAnalyticsReport.Input) async throws
        -> Operations.GetAnalyticsReport.Output
    {
        let caller = try await authorize(
            .readAnalytics, action: .analyticsReportRead, resourceType: .practice,
            resourceID: input.path.kind.rawValue)
        let kind = try ReportKind(rawValue: input.path.kind.rawValue).orNotFound("report")
        let csv = try Self.wantsCSV(format: input.query.format, accept: input.headers.accept)
        let period = try await analytics.period(from: input.query.from, to: input.query.to, scope: caller.scope)
        let asOf = store.clock.now()
        let request = ReportRequest(
            kind: kind, period: period,
            bucket: input.query.bucket.flatMap { BucketSize(rawValue: $0.rawValue) } ?? .day,
            asOf: asOf, includeRevenue: caller.account.role.allows(.readRevenue))
        let loaded = try await analytics.load(
            scope: caller.scope, window: request.window(options: analytics.options),
            action: .analyticsReportRead)
        let table = loaded.analytics.report(request)
        let days = period.localDays
        let from = days?.first.description ?? input.query.from
        let to = days?.last.description ?? input.query.to
        if csv {
            return .ok(
                .init(
                    headers: .init(
                        contentDisposition: "attachment; filename=\"vetnet-\(kind.rawValue)-\(from)-\(to).csv\""),
                    body: .csv(HTTPBody(table.csv()))))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        kind: .init(rawValue: kind.rawValue) ?? .segments, from: from, to: to,
                        timeZone: period.timeZone.identifier, generatedAt: asOf,
                        columns: table.columns.map { .init(name: $0.name, unit: $0.unit) }, rows: table.textRows))))
    }

    /// Whether the report goes out as CSV: `format` decides; without it, an `Accept` that
    /// prefers `text/csv` to JSON. A format the client's `Accept` refuses is a bad request.
    static func wantsCSV(
        format: Operations.GetAnalyticsReport.Input.Query.FormatPayload?,
        accept: [AcceptHeaderContentType<Operations.GetAnalyticsReport.AcceptableContentType>]
    ) throws -> Bool {
        let ranked = accept.sortedByQuality()
        func acceptable(_ type: Operations.GetAnalyticsReport.AcceptableContentType) -> Bool {
            ranked.isEmpty
                || ranked.contains {
                    $0.contentType == type || $0.contentType.rawValue == "*/*"
                        || $0.contentType.rawValue == "text/*" && type == .csv
                        || $0.contentType.rawValue == "application/*" && type == .json
                }
        }
        switch format {
        case .csv?:
            guard acceptable(.csv) else {
                throw APIError.badRequest(
                    field: "Accept", message: "does not accept text/csv, which format=csv answers in")
            }
            return true
        case .json?:
            guard acceptable(.json) else {
                throw APIError.badRequest(
                    field: "Accept", message: "does not accept application/json, which format=json answers in")
            }
            return false
        case nil:
            let first = ranked.first { $0.contentType == .json || $0.contentType == .csv }
            return first?.contentType == .csv
        }
    }
}

// MARK: - Clinical judgement

extension APIHandler {
    @_optimize(none)
    func getTriageOverrideRates(_ input: Operations.GetTriageOverrideRates.Input) async throws
        -> Operations.GetTriageOverrideRates.Output
    {
        let caller = try await authorize(
            .readAnalytics, action: .analyticsTriageOverridesRead, resourceType: .practice)
        let timeZone = try await analytics.timeZone(scope: caller.scope)
        let today = LocalCalendar(timeZone: timeZone).localDate(of: store.clock.now())
        // Thirty days ending `to` (or today) unless `from` is given.
        let last = input.query.to ?? today.description
        let first = input.query.from ?? ((LocalDate(last) ?? today).adding(days: -29)).description
        let period = try AnalyticsPeriod.parse(from: first, to: last, timeZone: timeZone)
        let history = try await store.triageJudgement(
            scope: caller.scope, from: period.interval.start, to: period.interval.end)
        let rates = TriageOverrideRates(assessors: history.assessments.map(\.assessorID), overrides: history.overrides)
        let names = try await staffNames(scope: caller.scope)
        let days = period.localDays
        return .ok(
            .init(
                body: .json(
                    .init(
                        from: days?.first.description ?? "", to: days?.last.description ?? "",
                        assessments: rates.assessments,
                        raised: .init(rates.raised), lowered: .init(rates.lowered),
                        staff: rates.staff.map { person in
                            .init(
                                userId: person.userID, displayName: names[person.userID],
                                assessments: person.assessments, raised: person.raised,
                                lowered: person.lowered, raisedRate: .init(person.raisedRate))
                        }))))
    }
}
