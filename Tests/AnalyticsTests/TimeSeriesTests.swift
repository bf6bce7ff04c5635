import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing
import Triage

@Suite("Time series over the hand-computed week")
struct TimeSeriesTests {
    let analytics = WeekFixture.analytics

    private func series(_ metric: MetricKind, _ size: BucketSize = .day, segment: Segment = .practice) -> [MetricValue?]
    {
        analytics.timeSeries(metric, over: WeekFixture.period, by: size, segment: segment, asOf: WeekFixture.asOf)
            .points.map(\.value)
    }

    @Test("no-show rate per day: nil on days without a known outcome, never 0 ÷ 0")
    func noShowRate() {
        // Mon: 3 completed; Tue: a no-show and a completion (the cancellation is no outcome); Wed: only a
        // cancellation; Thu: still booked; weekend empty.
        #expect(series(.noShowRate) == [.ratio(0), .ratio(0.5), nil, nil, nil, nil, nil])
        #expect(series(.noShows) == [.count(0), .count(1), .count(0), .count(0), .count(0), .count(0), .count(0)])
    }

    @Test("orange compliance per day and the nearest-rank median wait per week")
    func triage() {
        #expect(series(.vtlCompliance(.orange)) == [.ratio(0.5), .ratio(0), .ratio(1), nil, nil, nil, nil])
        #expect(
            series(.vtlBreaches(nil)) == [.count(1), .count(1), .count(1), .count(0), .count(0), .count(0), .count(0)])
        #expect(series(.medianWait(.orange), .week) == [.minutes(10)])
        #expect(series(.p90Wait(.orange), .week) == [.minutes(25)])
        #expect(series(.triageArrivals, .week) == [.count(7)])
        // Triage figures belong to the practice, not to a clinician.
        let hart = Segment(dimension: .clinician, id: UUIDText.lowercase(WeekFixture.hart.id.rawValue), name: "")
        #expect(series(.vtlCompliance(nil), .week, segment: hart) == [nil])
    }

    @Test("a week or month bucket of a one-week period equals the period's own figures")
    func wholePeriod() {
        let metrics = analytics.metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
        #expect(series(.revenue, .week) == [.money([CurrencyAmount(currency: "GBP", amount: 331)])])
        #expect(series(.appointments, .month) == [.count(8)])
        #expect(series(.utilization, .week) == [.ratio(160.0 / 3060)])
        #expect(series(.roomUtilization, .week) == [.ratio(80.0 / 3360)])
        #expect(series(.efficiencyScore, .week) == [metrics.efficiency.value.map(MetricValue.score)])
        #expect(series(.durationModelError, .week) == [.minutes(4)])
        #expect(series(.meanDurationDifference, .week) == [.minutes(3.5)])
        #expect(series(.lateCancellationRate, .week) == [.ratio(0.125)])
        #expect(series(.newPatients, .week) == [.count(1)])
        #expect(series(.returningPatients, .week) == [.count(1)])
    }

    @Test("daily booked minutes add up to the period's, and each clinician's to theirs")
    func additive() {
        let total = series(.bookedMinutes).compactMap { $0?.number }.reduce(0, +)
        #expect(total == 160)
        let okafor = Segment(dimension: .clinician, id: UUIDText.lowercase(WeekFixture.okafor.id.rawValue), name: "")
        #expect(series(.bookedMinutes, segment: okafor).compactMap { $0?.number } == [40, 40, 0, 40, 0, 0, 0])
        #expect(series(.appointments, .week, segment: .species(.cat)) == [.count(3)])
        #expect(series(.appointments, .week, segment: .specialty(.cardiology)) == [.count(3)])
    }

    @Test("a segment the practice does not know gives empty buckets, not an error")
    func unknownSegment() {
        let stranger = Segment(dimension: .clinician, id: UUIDText.lowercase(UUID()), name: "Nobody")
        #expect(series(.appointments, .week, segment: stranger) == [.count(0)])
        #expect(series(.utilization, .week, segment: stranger) == [nil])
        #expect(series(.revenue, .week, segment: Segment(dimension: .room, id: "not-a-uuid", name: "")) == [.money([])])
    }

    @Test("new patients per day: a patient is new on the day of their first visit, returning after it")
    func newByDay() {
        // Patient 2's first visit is Monday 10:00; patient 1's was in 2025.
        #expect(series(.newPatients).prefix(2) == [.count(1), .count(0)])
        #expect(series(.returningPatients).prefix(2) == [.count(1), .count(0)])
    }

    @Test("arrivals by weekday and hour: triage arrivals and the appointments that were not cancelled")
    func arrivalPattern() {
        let pattern = analytics.arrivalPattern(for: WeekFixture.period)
        #expect(pattern.triage.byWeekday == [2, 2, 3, 0, 0, 0, 0])
        #expect(pattern.triage.count(weekday: 1, hour: 17) == 2)
        #expect(pattern.triage(.orange).count(weekday: 2, hour: 18) == 1)
        #expect(pattern.triage(.red).total == 1)
        // Monday 09:00 twice (Dr Hart and Dr Okafor), 10:00; Tuesday's no-show at 09:00 and the
        // cardiology at 10:00; Thursday 09:00. The two cancellations are not demand that came.
        #expect(pattern.appointments.count(weekday: 1, hour: 9) == 2)
        #expect(pattern.appointments.byWeekday == [3, 2, 0, 1, 0, 0, 0])
        #expect(pattern.appointments.byHour[9] == 4)
        #expect(pattern.appointments.total == 6)
    }
}
