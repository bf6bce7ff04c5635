import Analytics
import Foundation
import SharedKernel
import Specialists
import Testing

@Suite("Periods and buckets in the practice's zone")
struct PeriodTests {
    @Test(
        "the spring change makes a 23-hour day and the autumn change a 25-hour one",
        arguments: [
            ("2026-03-29", "2026-03-29T00:00:00Z", "2026-03-29T23:00:00Z", 23.0),
            ("2026-10-25", "2026-10-24T23:00:00Z", "2026-10-26T00:00:00Z", 25.0),
            ("2026-07-01", "2026-06-30T23:00:00Z", "2026-07-01T23:00:00Z", 24.0),
        ])
    func dstDay(day: String, start: String, end: String, hours: Double) throws {
        let period = try #require(
            AnalyticsPeriod(from: Fixture.date(day), through: Fixture.date(day), timeZone: Fixture.london))
        #expect(period.interval.start == Fixture.utc(start))
        #expect(period.interval.end == Fixture.utc(end))
        #expect(period.days.map(\.hours) == [hours])
        #expect(period.days.map(\.label) == [Fixture.date(day)])
    }

    @Test("weeks run Monday to Sunday, clipped to the period but labelled by their Monday")
    func weeks() throws {
        let period = try #require(
            AnalyticsPeriod(
                from: Fixture.date("2026-03-25"), through: Fixture.date("2026-04-05"), timeZone: Fixture.london))
        let weeks = period.buckets(.week)
        #expect(weeks.map(\.label) == [Fixture.date("2026-03-23"), Fixture.date("2026-03-30")])
        // Wednesday to Sunday including the 23-hour Sunday; then a full summer week.
        let hours: [Double] = [119, 168] // 5 × 24 − 1, 7 × 24
        #expect(weeks.map(\.hours) == hours)
        #expect(weeks[0].start == Fixture.utc("2026-03-25T00:00:00Z"))
        #expect(weeks[1].start == Fixture.utc("2026-03-29T23:00:00Z"))
        #expect(weeks[1].end == period.interval.end)
    }

    @Test("months follow the calendar and carry the extra autumn hour")
    func months() throws {
        let period = try #require(
            AnalyticsPeriod(
                from: Fixture.date("2026-10-15"), through: Fixture.date("2026-11-10"), timeZone: Fixture.london))
        let months = period.buckets(.month)
        #expect(months.map(\.label) == [Fixture.date("2026-10-01"), Fixture.date("2026-11-01")])
        let hours: [Double] = [409, 240] // 17 × 24 + 1, 10 × 24
        #expect(months.map(\.hours) == hours)
    }

    @Test("buckets tile the period exactly, even when it starts and ends mid-day")
    func tiling() {
        let period = AnalyticsPeriod(
            interval: DateInterval(
                start: Fixture.utc("2026-03-28T17:00:00Z"), end: Fixture.utc("2026-03-30T06:00:00Z")),
            timeZone: Fixture.london)
        let days = period.days
        #expect(
            days.map(\.label) == [Fixture.date("2026-03-28"), Fixture.date("2026-03-29"), Fixture.date("2026-03-30")])
        #expect(days.map(\.hours) == [7, 23, 7])
        #expect(days.first?.start == period.interval.start)
        #expect(days.last?.end == period.interval.end)
        for (a, b) in zip(days, days.dropFirst()) { #expect(a.end == b.start) }
    }

    @Test("an empty period has no buckets, and a period cannot end before it starts")
    func empty() {
        let instant = Fixture.utc("2026-05-04T10:00:00Z")
        #expect(
            AnalyticsPeriod(interval: DateInterval(start: instant, duration: 0), timeZone: Fixture.london).buckets(
                .week
            ).isEmpty)
        #expect(
            AnalyticsPeriod(
                from: Fixture.date("2026-05-05"), through: Fixture.date("2026-05-04"), timeZone: Fixture.london) == nil)
    }

    @Test("percentiles by nearest rank: real observed values, the median the lower middle")
    func percentiles() {
        #expect(Percentile.median([]) == nil)
        #expect(Percentile.median([7]) == 7)
        #expect(Percentile.median([4, 1, 3, 2]) == 2)
        #expect(Percentile.nearestRank(90, of: [15, 20, 35, 40, 50]) == 50)
        #expect(Percentile.nearestRank(30, of: [15, 20, 35, 40, 50]) == 20)
        #expect(Percentile.nearestRank(100, of: [3, 9, 1]) == 9)
        #expect(Percentile.nearestRank(0, of: [3, 9, 1]) == nil)
        let many = (1...1000).map(Double.init).reversed().map { $0 }
        #expect(Percentile.nearestRank(90, of: Array(many)) == 900)
        #expect(Percentile.median(Array(repeating: 5, count: 11)) == 5)
    }
}
