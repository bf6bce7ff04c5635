import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing
import Triage

/// The pieces the API, the command line and the store build on: the period a request may
/// ask for, the window a store reads, metric names, reports and their CSV, the arrival
/// record's rule and the `metrics.updated` throttle.
@Suite("Analytics delivery")
struct DeliveryTests {
    // MARK: - Periods

    @Test("a request's period names each bad field and allows at most 400 days")
    func periods() throws {
        let london = Fixture.london
        let week = try AnalyticsPeriod.parse(from: "2026-03-02", to: "2026-03-08", timeZone: london)
        #expect(week.days.count == 7)
        #expect(week.localDays?.first == LocalDate("2026-03-02"))
        #expect(week.localDays?.last == LocalDate("2026-03-08"))
        #expect(week.defaultBucket == .day)
        func fields(_ from: String, _ to: String) -> [String] {
            do {
                _ = try AnalyticsPeriod.parse(from: from, to: to, timeZone: london)
                return []
            } catch { return error.errors.map(\.field) }
        }
        #expect(fields("2026-03-08", "2026-03-02") == ["to"])
        #expect(fields("2026-02-30", "2026-03-02") == ["from"])
        #expect(fields("nonsense", "also") == ["from", "to"])
        #expect(fields("0000-12-31", "2026-01-01") == ["from"])
        #expect(fields("2025-01-01", "2026-02-04").isEmpty) // 400 days
        #expect(fields("2025-01-01", "2026-02-05") == ["to"]) // 401
        #expect(
            try AnalyticsPeriod.parse(from: "2025-01-01", to: "2025-06-30", timeZone: london).defaultBucket == .week)
        #expect(
            try AnalyticsPeriod.parse(from: "2025-01-01", to: "2025-12-31", timeZone: london).defaultBucket == .month)
    }

    // MARK: - Windows

    @Test("the window reads the period a day early, the training stretch before it, and the look-ahead around today")
    func windows() throws {
        let period = try AnalyticsPeriod.parse(from: "2026-03-02", to: "2026-03-08", timeZone: Fixture.london)
        let asOf = Fixture.utc("2026-06-10T12:00:00Z")
        let window = HistoryWindow(
            period: period, bottlenecks: (asOf, 14), forecast: (LocalDate("2026-06-10")!, 8), timeZone: Fixture.london)
        let day = 86_400.0
        #expect(window.appointmentRanges.count == 2)
        #expect(
            window.appointmentRanges[0]
                == DateInterval(start: Fixture.utc("2026-03-01T00:00:00Z"), end: Fixture.utc("2026-03-09T00:00:00Z")))
        #expect(window.appointmentRanges[1].start <= Fixture.utc("2026-04-15T00:00:00Z").addingTimeInterval(-day))
        #expect(window.appointmentRanges[1].end >= asOf.addingTimeInterval(14 * day))
        #expect(
            window.trainingRange
                == DateInterval(
                    start: Fixture.utc("2026-03-02T00:00:00Z").addingTimeInterval(-182 * day),
                    end: Fixture.utc("2026-03-01T00:00:00Z")))
        #expect(window.arrivalRanges == [period.interval])
        #expect(window.firstVisitCutoff == period.interval.start)
        // Overlapping parts are read once.
        let near = HistoryWindow(
            period: period, bottlenecks: (Fixture.utc("2026-03-05T12:00:00Z"), 14), timeZone: Fixture.london)
        #expect(near.appointmentRanges.count == 1)
        // Without training the model reads nothing before the period.
        var options = AnalyticsOptions.standard
        options.durationModel.trainingDays = 0
        #expect(HistoryWindow(period: period, timeZone: Fixture.london, options: options).trainingRange == nil)
    }

    // MARK: - Metric names

    @Test("every metric has one stable name, a unit and the dimensions it is measured for")
    func catalogue() {
        let names = MetricCatalogue.all.map(\.name)
        #expect(Set(names).count == names.count)
        let kinds: [MetricKind] = [
            .appointments, .completedAppointments, .cancellations, .noShows, .noShowRate, .lateCancellationRate,
            .utilization, .roomUtilization, .bookedMinutes, .meanDurationDifference, .durationModelError, .meanLeadTime,
            .newPatients, .returningPatients, .revenue, .triageArrivals, .vtlCompliance(nil), .vtlBreaches(.red),
            .medianWait(.orange), .p90Wait(.blue), .efficiencyScore,
        ]
        #expect(kinds.map(\.name) == names)
        for kind in kinds {
            let definition = MetricCatalogue.definition(of: kind)
            #expect(definition.kind(level: kind.level) == kind)
        }
        #expect(MetricCatalogue.definition(named: "medianWait")?.kind(level: nil) == nil)
        #expect(MetricCatalogue.definition(named: "vtlCompliance")?.dimensions == [.practice, .species])
        #expect(MetricCatalogue.definition(named: "roomUtilization")?.dimensions == [.practice])
        #expect(MetricCatalogue.all.filter(\.isRevenue).map(\.name) == ["revenue"])
    }

    // MARK: - Reports

    @Test("CSV quotes what must be quoted, ends lines with CRLF and defuses formulas")
    func csv() {
        let table = ReportTable(
            kind: .segments,
            columns: [ReportColumn("name", "text"), ReportColumn("value", "ratio"), ReportColumn("when", "date")],
            rows: [
                [.text("Hart, Amelia"), .number(0.833333), .date(LocalDate("2026-03-02")!)],
                [.text("=HYPERLINK(\"x\")"), .number(-3.5), .empty],
                [.text("@SUM"), .integer(12), .instant(Fixture.utc("2026-07-01T08:00:00Z"))],
                [.text("line\nbreak"), .number(.nan), .decimal(Decimal(string: "280.50")!)],
            ],
            timeZone: Fixture.london)
        #expect(
            table.csv()
                == "name,value,when\r\n\"Hart, Amelia\",0.8333,2026-03-02\r\n\"'=HYPERLINK(\"\"x\"\")\",-3.5,\r\n"
                + "'@SUM,12,2026-07-01T09:00:00+01:00\r\n\"line\nbreak\",,280.5\r\n")
        #expect(table.textRows[1] == ["=HYPERLINK(\"x\")", "-3.5", nil])
    }

    @Test("the trend report is the time series, one row per bucket; revenue columns only when allowed")
    func trendReport() throws {
        let analytics = PracticeAnalytics(history: WeekFixture.history)
        let period = WeekFixture.period
        let asOf = period.interval.end
        let withMoney = analytics.report(
            ReportRequest(kind: .trend, period: period, bucket: .day, asOf: asOf, includeRevenue: true))
        let without = analytics.report(
            ReportRequest(kind: .trend, period: period, bucket: .day, asOf: asOf, includeRevenue: false))
        #expect(withMoney.rows.count == 7)
        #expect(withMoney.columns.contains { $0.name.hasPrefix("revenue_") })
        #expect(!without.columns.contains { $0.name.hasPrefix("revenue_") })
        let column = try #require(withMoney.columns.firstIndex { $0.name == "appointments" })
        let series = analytics.timeSeries(.appointments, over: period, by: .day, asOf: asOf)
        #expect(
            withMoney.rows.map { $0[column] }
                == series.points.map { point in
                    if case .count(let count)? = point.value { return .integer(count) }
                    return .empty
                })
        let recorder = StepRecorder()
        _ = analytics.report(ReportRequest(kind: .trend, period: period, asOf: asOf, includeRevenue: true)) {
            done, total in
            recorder.record(done, total)
        }
        let steps = recorder.steps
        #expect(steps.first == 0)
        #expect(steps.last == steps.count - 1)
    }

    @Test("series of several segments at once equal the series asked one by one")
    func manySegments() throws {
        let analytics = PracticeAnalytics(history: WeekFixture.history)
        let period = WeekFixture.period
        let clinicians = analytics.knownSegments(.clinician)
        #expect(!clinicians.isEmpty)
        for metric in [MetricKind.utilization, .appointments, .durationModelError, .revenue] {
            let together = analytics.timeSeries(
                metric, over: period, by: .day, segments: clinicians, asOf: period.interval.end)
            let apart = clinicians.map {
                analytics.timeSeries(metric, over: period, by: .day, segment: $0, asOf: period.interval.end)
            }
            #expect(together == apart)
        }
        #expect(analytics.segment(.clinician, id: clinicians[0].id.uppercased()) == clinicians[0])
        #expect(analytics.segment(.clinician, id: UUIDText.lowercase(UUID())) == nil)
        #expect(analytics.knownSegments(.species).count == Species.allCases.count)
    }

    // MARK: - Arrival record

    @Test("board changes map to the arrival record: a visit, its level until first contact, the first contact only")
    func arrivalUpdates() {
        let patient = Fixture.uuid(7)
        let arrival = Fixture.utc("2026-03-02T18:00:00Z")
        let waiting = QueueEntry(
            assessmentID: Identifier(), patientID: patient, level: .orange, arrival: arrival, assessedAt: arrival,
            status: .waiting, statusChangedAt: arrival)
        var yellow = waiting
        yellow.level = .yellow
        var treated = waiting
        treated.status = .inTreatment
        treated.statusChangedAt = arrival.addingTimeInterval(600)
        var done = treated
        done.status = .done
        var left = waiting
        left.status = .leftWithoutBeingSeen
        var retriagedInTreatment = treated
        retriagedInTreatment.level = .red
        #expect(
            TriageArrivalUpdate(.admitted(waiting)) == .arrived(patientID: patient, level: .orange, arrival: arrival))
        #expect(
            TriageArrivalUpdate(.retriaged(previous: waiting, current: yellow))
                == .retriaged(patientID: patient, arrival: arrival, level: .yellow))
        #expect(
            TriageArrivalUpdate(.statusChanged(previous: waiting, current: treated))
                == .firstSeen(patientID: patient, arrival: arrival, at: arrival.addingTimeInterval(600)))
        #expect(TriageArrivalUpdate(.statusChanged(previous: treated, current: done)) == nil)
        // Leaving unseen stops the wait at the moment of the move.
        #expect(
            TriageArrivalUpdate(.statusChanged(previous: waiting, current: left))
                == .left(patientID: patient, arrival: arrival, at: left.statusChangedAt))
        #expect(TriageArrivalUpdate(.retriaged(previous: treated, current: retriagedInTreatment)) == nil)
    }

    // MARK: - metrics.updated

    @Test("the throttle announces the first change at once and gathers the rest until the interval has passed")
    func throttle() {
        let practice = PracticeID()
        func event(_ kind: String, _ sequence: Int64, start: String? = nil) -> DomainEvent {
            var event = DomainEvent(
                practiceID: practice, kind: kind, occurredAt: Fixture.utc("2026-03-02T12:00:00Z"),
                payload: start.map { ["start": $0] } ?? [:])
            event.sequence = sequence
            return event
        }
        var throttle = MetricsUpdateThrottle(interval: 30)
        #expect(throttle.emit(at: 0) == nil)
        #expect(throttle.record([event("owner.created", 1), event(MetricsUpdate.kind, 2)]) == 0)
        #expect(throttle.emit(at: 0) == nil)
        #expect(throttle.record([event(AppointmentEventKind.booked, 3, start: "2026-03-04T09:00:00Z")]) == 1)
        let first = throttle.emit(at: 5)
        #expect(first?.changes == 1)
        #expect(first?.throughSequence == 3)
        #expect(
            throttle.record([
                event(TriageEventKind.queueChanged, 4), event(ClinicianEventKind.availabilityChanged, 5),
                event(AppointmentEventKind.moved, 6, start: "2026-03-01T09:00:00Z"),
            ]) == 3)
        #expect(throttle.nextEmission == 35)
        #expect(throttle.emit(at: 34.9) == nil)
        let second = throttle.emit(at: 35)
        #expect(second?.changes == 3)
        #expect(
            second?.kinds == [
                TriageEventKind.queueChanged, ClinicianEventKind.availabilityChanged, AppointmentEventKind.moved,
            ])
        #expect(second?.earliest == Fixture.utc("2026-03-01T09:00:00Z"))
        #expect(throttle.emit(at: 100) == nil)
        let announced = second?.event(practiceID: practice, occurredAt: Fixture.utc("2026-03-02T12:00:30Z"))
        #expect(announced?.kind == "metrics.updated")
        #expect(announced?.requiredPermission == .readAnalytics)
        #expect(announced?.payload["throughSequence"] == "6")
    }
}

/// Collects progress steps from a `@Sendable` callback.
final class StepRecorder: @unchecked Sendable {
    // Written only by the report builder, which calls back on the caller's task.
    private(set) var steps: [Int] = []
    func record(_ done: Int, _ total: Int) { steps.append(done) }
}
