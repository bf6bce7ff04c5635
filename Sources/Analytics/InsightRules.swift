import Foundation
import SharedKernel
import Specialists
import Triage

extension PracticeAnalytics {
    /// Plain-language findings drawn from computed figures: each rule fires only when its
    /// condition in ``InsightThresholds`` holds, and states the numbers it rests on.
    ///
    /// `metrics` is the period's figures; `bottlenecks` and `forecast`, when given, add the
    /// look-ahead findings. Ordered most severe first.
    public func insights(
        metrics: PracticeMetrics, bottlenecks: BottleneckReport? = nil, forecast: DemandForecast? = nil
    ) -> [Insight] {
        var found: [Insight] = []
        found += triageInsights(metrics)
        found += loadInsights(metrics)
        found += attendanceInsights(metrics)
        found += durationInsights(metrics)
        if let bottlenecks { found += bottleneckInsights(bottlenecks) }
        if let forecast { found += forecastInsights(forecast) }
        // Stable: rules already emit in a sensible order within one severity.
        return found.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
        }.map(\.element)
    }

    // MARK: - Triage

    private func triageInsights(_ metrics: PracticeMetrics) -> [Insight] {
        let thresholds = options.insightThresholds
        let from = metrics.interval.start.timeIntervalSince1970
        let to = metrics.interval.end.timeIntervalSince1970
        let grid = DayGrid(covering: metrics.interval, timeZone: timeZone)
        var result: [Insight] = []
        var emergencyRota: [IntervalSet]?
        for level in TriageLevel.allCases {
            guard let figures = metrics.vtl.level(level), let compliance = figures.compliance,
                compliance < thresholds.triageComplianceBelow
            else { continue }
            let breaches = metrics.vtl.breaches.filter { $0.level == level }
            guard breaches.count >= thresholds.triageMinimumBreaches else { continue }

            var arrivalDays = Set<Int>()
            for index in arrivalRange(from, to) where arrivals[index].level == level {
                if let day = grid.index(of: arrivalTimes[index]) { arrivalDays.insert(day) }
            }
            var breachDays = Set<Int>()
            var hours: [Int] = []
            for breach in breaches {
                let instant = breach.arrival.timeIntervalSince1970
                guard let day = grid.index(of: instant) else { continue }
                breachDays.insert(day)
                hours.append(grid.wallMinute(of: instant, onDay: day) / 60)
            }
            let colour = level.colour.prefix(1).uppercased() + level.colour.dropFirst()
            var message =
                level.maxWaitMinutes == 0
                ? "\(colour) patients were not seen on arrival on \(breachDays.count) of \(arrivalDays.count) days"
                : """
                \(colour) patients waited longer than \(level.maxWaitMinutes) min on \(breachDays.count) of \
                \(arrivalDays.count) days
                """
            var figuresOut = [
                InsightFigure("breaches", Double(breaches.count), "count"),
                InsightFigure("breachDays", Double(breachDays.count), "count"),
                InsightFigure("arrivalDays", Double(arrivalDays.count), "count"),
                InsightFigure("compliance", compliance, "ratio"),
                InsightFigure("maxWaitMinutes", Double(level.maxWaitMinutes), "minutes"),
            ]
            if let window = Self.busiestWindow(
                hours, maxWidth: thresholds.triageWindowMaxHours, share: thresholds.triageWindowShare)
            {
                let span =
                    "between \(Format.clock(window.start)) and \(Format.clock((window.start + window.width) % 24))"
                message +=
                    window.count == hours.count
                    ? ", all \(span)" : ", \(window.count) of the \(hours.count) breaches \(span)"
                figuresOut += [
                    InsightFigure("windowStartHour", Double(window.start), "hour"),
                    InsightFigure("windowEndHour", Double((window.start + window.width) % 24), "hour"),
                    InsightFigure("breachesInWindow", Double(window.count), "count"),
                ]
            }
            // Resolved once, and only when some level is worth reporting.
            let rota = emergencyRota ?? emergencyWindows(from: from, to: to)
            emergencyRota = rota
            if let onDuty = Self.onDuty(rota, at: breaches.map { $0.arrival.timeIntervalSince1970 }) {
                message +=
                    onDuty == 0
                    ? ", when no emergency clinician was on duty"
                    : ", when \(onDuty) emergency clinician\(onDuty == 1 ? " was" : "s were") on duty"
                figuresOut.append(InsightFigure("emergencyCliniciansOnDuty", Double(onDuty), "count"))
            }
            result.append(
                Insight(
                    kind: .triageWaits, severity: level <= .orange ? .critical : .warning, message: message + ".",
                    figures: figuresOut, source: MetricReference(metric: .vtlCompliance(level), segment: .practice)))
        }
        return result
    }

    /// The narrowest run of at most `maxWidth` consecutive wall-clock hours (wrapping past
    /// midnight) holding at least `share` of `hours`; the earliest such run on ties.
    static func busiestWindow(_ hours: [Int], maxWidth: Int, share: Double) -> (start: Int, width: Int, count: Int)? {
        guard !hours.isEmpty, maxWidth >= 1 else { return nil }
        var perHour = Array(repeating: 0, count: 24)
        for hour in hours where (0..<24).contains(hour) { perHour[hour] += 1 }
        let needed = Int((share * Double(hours.count)).rounded(.up))
        for width in 1...min(maxWidth, 23) {
            var best: (start: Int, count: Int)?
            for start in 0..<24 {
                let count = (0..<width).reduce(0) { $0 + perHour[(start + $1) % 24] }
                if count > (best?.count ?? -1) { best = (start, count) }
            }
            if let best, best.count >= needed { return (best.start, width, best.count) }
        }
        return nil
    }

    /// The working windows of every clinician with emergency expertise over `[from, to)`.
    private func emergencyWindows(from: Double, to: Double) -> [IntervalSet] {
        let members = catalogue.specialtyMembers[Visit.specialties.firstIndex(of: .emergencyCriticalCare)!]
        guard let range = TimeRange(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to))
        else { return [] }
        return members.map {
            IntervalSet(
                catalogue.availabilities[$0]?.windows(overlapping: range, timeZone: timeZone, closures: closures) ?? [])
        }
    }

    /// How many of `rota` were working at each instant, when it is the same for all of them;
    /// `nil` when it varies or the practice has no emergency clinicians.
    static func onDuty(_ rota: [IntervalSet], at instants: [Double]) -> Int? {
        guard !rota.isEmpty, !instants.isEmpty else { return nil }
        let counts = Set(instants.map { instant in rota.filter { $0.contains(instant) }.count })
        return counts.count == 1 ? counts.first : nil
    }

    // MARK: - Load

    private func loadInsights(_ metrics: PracticeMetrics) -> [Insight] {
        let thresholds = options.insightThresholds
        let target = options.targetLoad
        var result: [Insight] = []
        for clinician in metrics.clinicians {
            guard let utilization = clinician.utilization, let ratio = utilization.ratio,
                utilization.availableMinutes / 60 >= thresholds.loadMinimumAvailableHours
            else { continue }
            let figures = [
                InsightFigure("utilization", ratio, "ratio"),
                InsightFigure("bookedHours", utilization.bookedMinutes / 60, "hours"),
                InsightFigure("availableHours", utilization.availableMinutes / 60, "hours"),
            ]
            let detail =
                """
                \(Format.percent(ratio)) of available time (\(Format.hours(utilization.bookedMinutes)) of \
                \(Format.hours(utilization.availableMinutes)) h)
                """
            let source = MetricReference(metric: .utilization, segment: clinician.segment)
            if ratio > target.upperBound {
                result.append(
                    Insight(
                        kind: .clinicianOverloaded, severity: .warning,
                        message:
                            """
                            \(clinician.segment.name) was booked for \(detail), above the \
                            \(Format.percent(target.upperBound)) target.
                            """,
                        figures: figures, source: source))
            } else if ratio < target.lowerBound {
                result.append(
                    Insight(
                        kind: .clinicianUnderused, severity: .info,
                        message:
                            """
                            \(clinician.segment.name) was booked for only \(detail), below the \
                            \(Format.percent(target.lowerBound)) target.
                            """,
                        figures: figures, source: source))
            }
        }
        return result
    }

    // MARK: - Attendance

    private func attendanceInsights(_ metrics: PracticeMetrics) -> [Insight] {
        let thresholds = options.insightThresholds
        var result: [Insight] = []
        let practice = metrics.practice
        if let rate = practice.noShows.value, practice.noShows.total >= thresholds.noShowMinimumAppointments,
            rate >= thresholds.noShowRateAtLeast
        {
            result.append(
                Insight(
                    kind: .noShowRate, severity: .warning,
                    message:
                        """
                        \(Format.percent(rate)) of appointments were no-shows (\(practice.noShows.count) of \
                        \(practice.noShows.total)).
                        """,
                    figures: [
                        InsightFigure("noShowRate", rate, "ratio"),
                        InsightFigure("noShows", Double(practice.noShows.count), "count"),
                        InsightFigure("appointments", Double(practice.noShows.total), "count"),
                    ],
                    source: MetricReference(metric: .noShowRate, segment: .practice)))
        }
        if let practiceRate = practice.noShows.value, practiceRate > 0 {
            for segment in metrics.appointmentTypes + metrics.species + metrics.clinicians {
                guard let rate = segment.noShows.value, segment.noShows.total >= thresholds.hotspotMinimumAppointments,
                    segment.noShows.count >= thresholds.hotspotMinimumNoShows,
                    rate >= thresholds.hotspotFactor * practiceRate
                else { continue }
                let factor = rate / practiceRate
                result.append(
                    Insight(
                        kind: .noShowHotspot, severity: .warning,
                        message:
                            """
                            No-shows for \(segment.segment.name) ran at \(Format.percent(rate)) \
                            (\(segment.noShows.count) of \(segment.noShows.total)), \(Format.decimal(factor))× the \
                            practice's \(Format.percent(practiceRate)).
                            """,
                        figures: [
                            InsightFigure("noShowRate", rate, "ratio"),
                            InsightFigure("noShows", Double(segment.noShows.count), "count"),
                            InsightFigure("appointments", Double(segment.noShows.total), "count"),
                            InsightFigure("practiceNoShowRate", practiceRate, "ratio"),
                        ],
                        source: MetricReference(metric: .noShowRate, segment: segment.segment)))
            }
        }
        let late = practice.lateCancellations
        if let rate = late.value, late.total >= thresholds.lateCancellationMinimumAppointments,
            rate >= thresholds.lateCancellationRateAtLeast
        {
            let notice = Format.decimal(options.lateCancellationNotice / 3600)
            result.append(
                Insight(
                    kind: .lateCancellations, severity: .warning,
                    message:
                        """
                        \(Format.percent(rate)) of appointments were cancelled less than \(notice) h before their \
                        start (\(late.count) of \(late.total)).
                        """,
                    figures: [
                        InsightFigure("lateCancellationRate", rate, "ratio"),
                        InsightFigure("lateCancellations", Double(late.count), "count"),
                        InsightFigure("appointments", Double(late.total), "count"),
                        InsightFigure("noticeHours", options.lateCancellationNotice / 3600, "hours"),
                    ],
                    source: MetricReference(metric: .lateCancellationRate, segment: .practice)))
        }
        return result
    }

    // MARK: - Durations

    private func durationInsights(_ metrics: PracticeMetrics) -> [Insight] {
        let thresholds = options.insightThresholds
        var result: [Insight] = []
        for type in metrics.appointmentTypes {
            let duration = type.duration
            guard duration.count >= thresholds.overrunMinimumCount, let difference = duration.meanDifferenceMinutes,
                difference >= thresholds.overrunMinutes, let actual = duration.meanActualMinutes,
                let planned = duration.meanPlannedMinutes
            else { continue }
            result.append(
                Insight(
                    kind: .durationOverrun, severity: .warning,
                    message:
                        """
                        \(type.segment.name) ran \(Format.decimal(difference)) min over its booked time on average \
                        (\(Format.decimal(actual)) min actual against \(Format.decimal(planned)) min booked, \
                        \(duration.count) appointments).
                        """,
                    figures: [
                        InsightFigure("meanDifferenceMinutes", difference, "minutes"),
                        InsightFigure("meanActualMinutes", actual, "minutes"),
                        InsightFigure("meanPlannedMinutes", planned, "minutes"),
                        InsightFigure("appointments", Double(duration.count), "count"),
                    ],
                    source: MetricReference(metric: .meanDurationDifference, segment: type.segment)))
        }
        let duration = metrics.practice.duration
        if duration.modelCount >= thresholds.modelGainMinimumCount, let model = duration.modelMAE,
            let booked = duration.meanAbsoluteDifferenceMinutes, booked - model >= thresholds.modelGainMinutes
        {
            result.append(
                Insight(
                    kind: .durationModelGain, severity: .info,
                    message:
                        """
                        The duration model would have booked within \(Format.decimal(model)) min of the actual length \
                        on average, against \(Format.decimal(booked)) min for the lengths booked \
                        (\(duration.modelCount) appointments).
                        """,
                    figures: [
                        InsightFigure("modelMAE", model, "minutes"),
                        InsightFigure("bookedMeanAbsoluteDifference", booked, "minutes"),
                        InsightFigure("appointments", Double(duration.modelCount), "count"),
                    ],
                    source: MetricReference(metric: .durationModelError, segment: .practice)))
        }
        return result
    }

    // MARK: - Looking ahead

    private func bottleneckInsights(_ report: BottleneckReport) -> [Insight] {
        let thresholds = options.insightThresholds
        var result: [Insight] = []
        let window = "over the next \(report.days) day\(report.days == 1 ? "" : "s")"
        for load in report.bottlenecks {
            let demand =
                """
                \(Format.grouped(load.demandMinutes)) min (\(Format.grouped(load.bookedMinutes)) booked, \
                \(Format.grouped(load.requestedMinutes)) requested)
                """
            let message =
                load.capacityMinutes > 0
                ? """
                \(load.specialty.displayName) demand \(window) is \(demand) against \
                \(Format.grouped(load.capacityMinutes)) min of capacity (\(Format.percent(load.ratio ?? 0))).
                """
                : "\(load.specialty.displayName) demand \(window) is \(demand) with no clinician time available."
            let critical = load.capacityMinutes <= 0 || (load.ratio ?? 0) >= thresholds.bottleneckCriticalRatio
            result.append(
                Insight(
                    kind: .specialtyBottleneck, severity: critical ? .critical : .warning, message: message,
                    figures: [
                        InsightFigure("demandMinutes", load.demandMinutes, "minutes"),
                        InsightFigure("bookedMinutes", load.bookedMinutes, "minutes"),
                        InsightFigure("requestedMinutes", load.requestedMinutes, "minutes"),
                        InsightFigure("capacityMinutes", load.capacityMinutes, "minutes"),
                        InsightFigure("days", Double(report.days), "count"),
                    ],
                    source: MetricReference(metric: .bookedMinutes, segment: .specialty(load.specialty))))
        }
        for clinician in report.overloaded {
            let message =
                clinician.load.map {
                    """
                    \(clinician.clinician.name) is booked for \(Format.percent($0)) of bookable time \(window) \
                    (\(Format.grouped(clinician.bookedMinutes)) of \(Format.grouped(clinician.capacityMinutes)) min), \
                    above the \(Format.percent(report.targetLoad.upperBound)) target.
                    """
                }
                    ?? """
                    \(clinician.clinician.name) has \(Format.grouped(clinician.bookedMinutes)) min booked \(window) \
                    but no bookable time.
                    """
            result.append(
                Insight(
                    kind: .clinicianOverbookedAhead, severity: .warning, message: message,
                    figures: [
                        InsightFigure("bookedMinutes", clinician.bookedMinutes, "minutes"),
                        InsightFigure("capacityMinutes", clinician.capacityMinutes, "minutes"),
                    ] + (clinician.load.map { [InsightFigure("load", $0, "ratio")] } ?? []),
                    source: MetricReference(metric: .utilization, segment: clinician.clinician)))
        }
        return result
    }

    private func forecastInsights(_ forecast: DemandForecast) -> [Insight] {
        let thresholds = options.insightThresholds
        var result: [Insight] = []
        for specialty in forecast.specialties {
            let next = specialty.totalAppointments
            let last = Double(specialty.lastWeekAppointments)
            guard last > 0, max(next, last) >= thresholds.demandShiftMinimumAppointments,
                let mape = specialty.backtest.appointmentsMAPE, mape <= thresholds.demandShiftMaximumMAPE,
                let mae = specialty.backtest.appointmentsMAE
            else { continue }
            let change = (next - last) / last
            guard abs(change) >= thresholds.demandShiftShare else { continue }
            result.append(
                Insight(
                    kind: .demandShift, severity: .info,
                    message:
                        """
                        \(specialty.specialty.displayName) demand is forecast at \(Format.decimal(next)) appointments \
                        for the week from \(forecast.weekStart), \(change > 0 ? "up" : "down") \
                        \(Format.percent(abs(change))) on the previous week's \(specialty.lastWeekAppointments) \
                        (back-tested error ±\(Format.decimal(mae)) appointments a day).
                        """,
                    figures: [
                        InsightFigure("forecastAppointments", next, "appointments"),
                        InsightFigure("lastWeekAppointments", last, "appointments"),
                        InsightFigure("change", change, "ratio"), InsightFigure("backtestMAE", mae, "appointments"),
                        InsightFigure("backtestMAPE", mape, "percent"),
                    ],
                    source: MetricReference(metric: .appointments, segment: .specialty(specialty.specialty))))
        }
        return result
    }
}

/// Number formatting for insight sentences: fixed, locale-free, so a sentence reads the same
/// on every server and in every test.
enum Format {
    /// `0.956` → `96%`.
    static func percent(_ ratio: Double) -> String {
        let value = (ratio * 100).rounded()
        // A ratio with nothing sensible to print (demand of billions of minutes) must not trap.
        guard value.isFinite, abs(value) < 1e15 else { return "\(ratio * 100)%" }
        return "\(Int(value))%"
    }

    /// One decimal unless whole: `12` → `12`, `4.06` → `4.1`.
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return "\(value)" }
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths) % 10)
        if fraction == 0 { return "\(whole)" }
        return "\(tenths < 0 && whole == 0 ? "-" : "")\(whole).\(fraction)"
    }

    /// Minutes as hours with one decimal unless whole.
    static func hours(_ minutes: Double) -> String { decimal(minutes / 60) }

    /// A whole number with thousands separators: `1240` → `1,240`.
    static func grouped(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        let number = Int(value.rounded())
        var digits = String(abs(number))
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return (number < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// `17` → `17:00`.
    static func clock(_ hour: Int) -> String { hour < 10 ? "0\(hour):00" : "\(hour):00" }
}
