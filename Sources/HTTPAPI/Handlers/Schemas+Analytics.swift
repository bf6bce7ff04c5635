import Analytics
import Foundation
import PracticeServices
import SharedKernel
import Specialists
import Triage

// Wire forms of the Analytics module's values. Every optional figure is absent (not NaN)
// when there is nothing to measure; money leaves only when the reader may see it.

/// A finite number, or nothing: JSON has no NaN or infinity, and a figure must never fake one.
func finite(_ value: Double?) -> Double? {
    guard let value, value.isFinite else { return nil }
    return value
}

extension Components.Schemas.AnalyticsSegment {
    init(_ segment: Segment) {
        self.init(
            dimension: Components.Schemas.AnalyticsDimension(rawValue: segment.dimension.rawValue) ?? .practice,
            id: segment.id,
            name: segment.name)
    }
}

extension Components.Schemas.AnalyticsRate {
    init(_ rate: Rate) {
        self.init(count: rate.count, total: rate.total, value: finite(rate.value))
    }
}

extension Components.Schemas.AnalyticsUtilization {
    init(_ utilization: Utilization) {
        self.init(
            bookedMinutes: finite(utilization.bookedMinutes) ?? 0,
            availableMinutes: finite(utilization.availableMinutes) ?? 0,
            ratio: finite(utilization.ratio))
    }
}

extension Components.Schemas.AnalyticsMoney {
    init(_ amount: CurrencyAmount) {
        var scaled = amount.amount
        for _ in 0..<CurrencyAmount.minorUnitDigits(amount.currency) { scaled *= 10 }
        self.init(currency: amount.currency, minorUnits: NSDecimalNumber(decimal: scaled).int64Value)
    }
}

extension Components.Schemas.TriageColour {
    init(_ level: TriageLevel) {
        self = Components.Schemas.TriageColour(rawValue: level.colour) ?? .red
    }

    var level: TriageLevel? { TriageLevel(colour: rawValue) }
}

extension Components.Schemas.AnalyticsSegmentFigures {
    init(_ figures: SegmentMetrics, revenue includeRevenue: Bool) {
        let counts = figures.appointments
        let duration = figures.duration
        self.init(
            segment: .init(figures.segment),
            appointments: .init(
                total: counts.total, booked: counts.booked, checkedIn: counts.checkedIn, inProgress: counts.inProgress,
                completed: counts.completed, cancelled: counts.cancelled, noShow: counts.noShow),
            utilization: figures.utilization.map(Components.Schemas.AnalyticsUtilization.init),
            bookedMinutes: finite(figures.bookedMinutes) ?? 0, noShows: .init(figures.noShows),
            lateCancellations: .init(figures.lateCancellations),
            cancellationsWithoutTime: figures.cancellationsWithoutTime,
            duration: .init(
                count: duration.count, meanPlannedMinutes: finite(duration.meanPlannedMinutes),
                meanActualMinutes: finite(duration.meanActualMinutes),
                meanDifferenceMinutes: finite(duration.meanDifferenceMinutes),
                meanAbsoluteDifferenceMinutes: finite(duration.meanAbsoluteDifferenceMinutes),
                modelCount: duration.modelCount,
                modelMAE: finite(duration.modelMAE)),
            leadTime: .init(
                count: figures.leadTime.count, meanHours: finite(figures.leadTime.meanHours),
                medianHours: finite(figures.leadTime.medianHours)),
            patients: .init(
                new: figures.patients.new, returning: figures.patients.returning, unknown: figures.patients.unknown),
            revenue: includeRevenue ? figures.revenue.map(Components.Schemas.AnalyticsMoney.init) : nil)
    }
}

extension Components.Schemas.AnalyticsVTL {
    /// The most recent breaches listed in full; the report lists them all.
    static let listedBreaches = 100

    init(_ vtl: VTLCompliance) {
        self.init(
            levels: vtl.levels.map { level in
                .init(
                    level: .init(level.level), maxWaitMinutes: level.maxWaitMinutes, arrivals: level.arrivals,
                    withinTarget: .init(level.withinTarget), pending: level.pending,
                    leftWithoutBeingSeen: .init(level.leftWithoutBeingSeen),
                    medianWaitMinutes: finite(level.medianWaitMinutes), p90WaitMinutes: finite(level.p90WaitMinutes))
            },
            overall: .init(vtl.overall), leftWithoutBeingSeen: .init(vtl.leftWithoutBeingSeen),
            toleranceSeconds: Int(VTLCompliance.toleranceSeconds),
            breachCount: vtl.breaches.count,
            breaches: vtl.breaches.suffix(Self.listedBreaches).map { breach in
                .init(
                    patientId: UUIDText.lowercase(breach.patientID), level: .init(breach.level),
                    arrival: breach.arrival,
                    firstSeenAt: breach.firstSeenAt, leftAt: breach.leftAt,
                    waitMinutes: finite(breach.waitMinutes) ?? 0, overByMinutes: finite(breach.overByMinutes) ?? 0)
            })
    }
}

extension Components.Schemas.AnalyticsEfficiency {
    init(_ score: EfficiencyScore) {
        self.init(
            score: finite(score.value),
            parts: score.parts.map { part in
                .init(
                    factor: .init(rawValue: part.factor.rawValue) ?? .utilization, value: finite(part.value),
                    weight: finite(part.weight) ?? 0,
                    points: finite(part.points) ?? 0)
            })
    }
}

extension Components.Schemas.AnalyticsWeekHours {
    init(_ counts: WeekHourCounts) {
        self.init(counts: counts.counts, byHour: counts.byHour, byWeekday: counts.byWeekday, total: counts.total)
    }
}

extension Components.Schemas.AnalyticsArrivals {
    init(_ pattern: ArrivalPattern) {
        self.init(
            triage: .init(pattern.triage),
            triageByLevel: pattern.triageByLevel.map { .init(level: .init($0.level), counts: .init($0.counts)) },
            appointments: .init(pattern.appointments))
    }
}

extension Components.Schemas.AnalyticsBottlenecks {
    init(_ report: BottleneckReport) {
        self.init(
            firstDay: report.firstDay.description, days: report.days,
            targetLoad: .init(lower: report.targetLoad.lowerBound, upper: report.targetLoad.upperBound),
            specialties: report.specialties.map { load in
                .init(
                    specialty: load.specialty.rawValue, name: load.specialty.displayName,
                    bookedMinutes: finite(load.bookedMinutes) ?? 0,
                    requestedMinutes: finite(load.requestedMinutes) ?? 0,
                    capacityMinutes: finite(load.capacityMinutes) ?? 0,
                    demandMinutes: finite(load.demandMinutes) ?? 0, ratio: finite(load.ratio),
                    shortfallMinutes: finite(load.shortfallMinutes) ?? 0,
                    bottleneck: load.isBottleneck)
            },
            clinicians: report.clinicians.compactMap { load in
                guard let band = load.band else { return nil }
                return .init(
                    clinician: .init(load.clinician), bookedMinutes: finite(load.bookedMinutes) ?? 0,
                    capacityMinutes: finite(load.capacityMinutes) ?? 0, load: finite(load.load),
                    band: .init(rawValue: band.rawValue) ?? .within)
            })
    }
}

extension Components.Schemas.AnalyticsForecast {
    init(_ forecast: DemandForecast) {
        self.init(
            weeksAveraged: forecast.weeksAveraged, historyFirstDay: forecast.historyFirstDay.description,
            historyLastDay: forecast.historyLastDay.description, weekStart: forecast.weekStart.description,
            specialties: forecast.specialties.map { specialty in
                .init(
                    specialty: specialty.specialty.rawValue, name: specialty.specialty.displayName,
                    days: specialty.days.map {
                        .init(
                            date: $0.date.description, appointments: finite($0.appointments) ?? 0,
                            minutes: finite($0.minutes) ?? 0)
                    },
                    totalAppointments: finite(specialty.totalAppointments) ?? 0,
                    totalMinutes: finite(specialty.totalMinutes) ?? 0,
                    lastWeekAppointments: specialty.lastWeekAppointments,
                    lastWeekMinutes: finite(specialty.lastWeekMinutes) ?? 0,
                    backtest: .init(
                        days: specialty.backtest.days, appointmentsMAE: finite(specialty.backtest.appointmentsMAE),
                        appointmentsMAPE: finite(specialty.backtest.appointmentsMAPE),
                        minutesMAE: finite(specialty.backtest.minutesMAE),
                        minutesMAPE: finite(specialty.backtest.minutesMAPE)))
            })
    }
}

extension Components.Schemas.AnalyticsBucketSpan {
    init(_ bucket: PeriodBucket) {
        self.init(label: bucket.label.description, start: bucket.start, end: bucket.end)
    }
}

extension Components.Schemas.AnalyticsInsight {
    /// `insight`, linked to its metric's series over `from`…`to` by `bucket`.
    init(_ insight: Insight, from: LocalDate, to: LocalDate, bucket: BucketSize) {
        let source = insight.source
        var query = ["from=\(from)", "to=\(to)", "bucket=\(bucket.rawValue)"]
        if source.segment.dimension != .practice {
            query += ["dimension=\(source.segment.dimension.rawValue)", "segmentId=\(source.segment.id)"]
        }
        if let level = source.metric.level { query.append("level=\(level.colour)") }
        self.init(
            kind: insight.kind.rawValue, severity: .init(rawValue: insight.severity.rawValue) ?? .info,
            message: insight.message,
            figures: insight.figures.compactMap { figure in
                finite(figure.value).map { .init(name: figure.name, value: $0, unit: figure.unit) }
            },
            source: .init(
                metric: .init(rawValue: source.metric.name) ?? .appointments,
                level: source.metric.level.map(Components.Schemas.TriageColour.init),
                segment: .init(source.segment),
                href: "/api/v1/analytics/metrics/\(source.metric.name)?" + query.joined(separator: "&")))
    }
}

extension DataQuality {
    /// Each count by name, for the wire.
    var counts: [String: Int] {
        [
            "unknownAppointmentType": unknownAppointmentType, "unknownClinician": unknownClinician,
            "unknownRoom": unknownRoom,
            "invalidTime": invalidTime, "completedWithoutDuration": completedWithoutDuration,
            "unknownSpecies": unknownSpecies,
            "bookedAfterStart": bookedAfterStart, "seenBeforeArrival": seenBeforeArrival,
            "unreadableAppointments": unreadableAppointments,
        ]
    }
}
