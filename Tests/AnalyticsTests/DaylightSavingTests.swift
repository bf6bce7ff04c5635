import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing
import Triage

@Suite("Daylight saving, midnight and time off")
struct DaylightSavingTests {
    /// Works Sunday nights 00:00–04:00 local.
    static let night = Fixture.clinician(11, "Dr Night", [.emergencyCriticalCare])
    /// Works 09:00–17:00 every day.
    static let day = Fixture.clinician(12, "Dr Day", [.generalPractice])

    private func analytics(_ appointments: [AppointmentRecord], arrivals: [TriageArrival] = []) -> PracticeAnalytics {
        PracticeAnalytics(
            history: PracticeHistory(
                practice: Fixture.practice, appointmentTypes: [Fixture.consult], clinicians: [Self.night, Self.day],
                availabilities: [
                    Fixture.availability(Self.night, days: 7...7, from: (0, 0), to: (4, 0)),
                    Fixture.availability(Self.day, days: 1...7, from: (9, 0), to: (17, 0)),
                ],
                appointments: appointments, triageArrivals: arrivals))
    }

    private func visit(_ start: String, minutes: Int, clinician: Clinician = night, status: AppointmentStatus = .booked)
        -> AppointmentRecord
    {
        Fixture.visit(clinician, Fixture.consult, Fixture.utc(start), minutes: minutes, patient: 1, status: status)
    }

    private func day(_ text: String) -> AnalyticsPeriod {
        AnalyticsPeriod(from: Fixture.date(text), through: Fixture.date(text), timeZone: Fixture.london)!
    }

    @Test("spring: the night shift is 3 real hours, so 2 booked hours are two thirds of it")
    func springUtilization() {
        // 00:30–03:30 on the clocks is 00:30Z–02:30Z: the hour from 01:00 never happened.
        let metrics = analytics([visit("2026-03-29T00:30:00Z", minutes: 120)]).metrics(
            for: day("2026-03-29"), asOf: Fixture.utc("2026-04-01T00:00:00Z"))
        let night = metrics.clinicians.first { $0.segment.name == "Dr Night" }!
        #expect(night.utilization == Utilization(bookedMinutes: 120, availableMinutes: 180))
        // The day clinician's 09:00–17:00 is untouched by the change: 480 minutes.
        #expect(metrics.practice.utilization == Utilization(bookedMinutes: 120, availableMinutes: 180 + 480))
    }

    @Test("autumn: the night shift is 5 real hours; an hour across the repeated 01:00 counts once")
    func autumnUtilization() {
        // 01:30 BST (00:30Z) to 01:30 GMT (01:30Z): one real hour.
        let metrics = analytics([visit("2026-10-25T00:30:00Z", minutes: 60)]).metrics(
            for: day("2026-10-25"), asOf: Fixture.utc("2026-11-01T00:00:00Z"))
        let night = metrics.clinicians.first { $0.segment.name == "Dr Night" }!
        #expect(night.utilization == Utilization(bookedMinutes: 60, availableMinutes: 300))
    }

    @Test("appointments fall on their local day around the spring change, not their UTC day")
    func localDaysInSpring() throws {
        let appointments = [
            visit("2026-03-28T23:30:00Z", minutes: 20, clinician: Self.day), // Sat 23:30 GMT
            visit("2026-03-29T00:30:00Z", minutes: 20, clinician: Self.day), // Sun 00:30 GMT
            visit("2026-03-29T22:30:00Z", minutes: 20, clinician: Self.day), // Sun 23:30 BST
            visit("2026-03-29T23:30:00Z", minutes: 20, clinician: Self.day), // Mon 00:30 BST
        ]
        let period = try #require(
            AnalyticsPeriod(
                from: Fixture.date("2026-03-28"), through: Fixture.date("2026-03-30"), timeZone: Fixture.london))
        let series = analytics(appointments).timeSeries(
            .appointments, over: period, by: .day, asOf: Fixture.utc("2026-04-01T00:00:00Z"))
        #expect(series.points.map(\.bucket.label) == ["2026-03-28", "2026-03-29", "2026-03-30"].map(Fixture.date))
        #expect(series.points.map(\.value) == [.count(1), .count(2), .count(1)])
    }

    @Test("an appointment in the small hours of a British summer Saturday is Saturday's, though UTC says Friday")
    func localDayInAutumn() throws {
        let period = try #require(
            AnalyticsPeriod(
                from: Fixture.date("2026-10-23"), through: Fixture.date("2026-10-25"), timeZone: Fixture.london))
        // 00:30 BST on Saturday 24 October = 23:30Z on Friday.
        let series = analytics([visit("2026-10-23T23:30:00Z", minutes: 20, clinician: Self.day)])
            .timeSeries(.appointments, over: period, by: .day, asOf: Fixture.utc("2026-11-01T00:00:00Z"))
        #expect(series.points.map(\.value) == [.count(0), .count(1), .count(0)])
        #expect(series.points.map { $0.bucket.hours } == [24, 24, 25])
    }

    @Test("an appointment across midnight gives each day its own minutes but counts once, on the day it starts")
    func acrossMidnight() throws {
        // Tuesday 5 May 23:30 to Wednesday 00:30 BST.
        let analytics = analytics([
            Fixture.visit(
                Self.day, Fixture.consult, Fixture.local("2026-05-05 23:30"), minutes: 60, patient: 1,
                status: .completed, actual: 60)
        ])
        let period = try #require(
            AnalyticsPeriod(
                from: Fixture.date("2026-05-05"), through: Fixture.date("2026-05-06"), timeZone: Fixture.london))
        let asOf = Fixture.utc("2026-05-10T00:00:00Z")
        let minutes = analytics.timeSeries(.bookedMinutes, over: period, by: .day, asOf: asOf)
        #expect(minutes.points.map(\.value) == [.minutes(30), .minutes(30)])
        let counts = analytics.timeSeries(.appointments, over: period, by: .day, asOf: asOf)
        #expect(counts.points.map(\.value) == [.count(1), .count(0)])
        // Wednesday alone: half the appointment's time, none of its count, revenue or duration.
        let wednesday = analytics.metrics(for: day("2026-05-06"), asOf: asOf)
        #expect(wednesday.practice.bookedMinutes == 30)
        #expect(wednesday.practice.appointments.total == 0)
        #expect(wednesday.practice.revenue.isEmpty)
        #expect(wednesday.practice.duration.count == 0)
        // Over both days: the whole hour, the fee once.
        let both = analytics.metrics(for: period, asOf: asOf)
        #expect(both.practice.bookedMinutes == 60)
        #expect(both.practice.revenue(in: "GBP") == 45)
    }

    @Test("arrivals by wall-clock hour: both passes through 01:00 in autumn are hour 1; in spring hour 1 stays empty")
    func arrivalHours() throws {
        let arrivals = [
            Fixture.arrival(1, .green, Fixture.utc("2026-10-25T00:30:00Z"), seenAfter: 10), // 01:30 BST
            Fixture.arrival(2, .green, Fixture.utc("2026-10-25T01:30:00Z"), seenAfter: 10), // 01:30 GMT
            Fixture.arrival(3, .orange, Fixture.utc("2026-03-29T01:00:00Z"), seenAfter: 10), // 02:00 BST
            Fixture.arrival(4, .orange, Fixture.utc("2026-03-29T00:59:00Z"), seenAfter: 10), // 00:59 GMT
        ]
        let analytics = analytics([], arrivals: arrivals)
        let autumn = analytics.arrivalPattern(for: day("2026-10-25"))
        #expect(autumn.triage.count(weekday: 7, hour: 1) == 2)
        #expect(autumn.triage.total == 2)
        let spring = analytics.arrivalPattern(for: day("2026-03-29"))
        #expect(spring.triage.byHour[0] == 1)
        #expect(spring.triage.byHour[1] == 0)
        #expect(spring.triage.byHour[2] == 1)
        #expect(spring.triage(.orange).count(weekday: 7, hour: 2) == 1)
        #expect(spring.triage(.green).total == 0)
    }

    @Test("a clinician's day off has no available time: no utilization that day, the other days measured")
    func timeOff() {
        let series = WeekFixture.analytics.timeSeries(
            .utilization, over: WeekFixture.period, by: .day,
            segment: Segment(dimension: .clinician, id: UUIDText.lowercase(WeekFixture.okafor.id.rawValue), name: ""),
            asOf: WeekFixture.asOf)
        // Mon–Fri 240 minutes except Wednesday (leave); weekends not worked.
        let sixth = 40.0 / 240
        #expect(series.points.map(\.value) == [.ratio(sixth), .ratio(sixth), nil, .ratio(sixth), .ratio(0), nil, nil])
    }
}
