import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing
import Triage

@Suite("Insights appear only when the data supports them")
struct InsightTests {
    // MARK: - Triage waits

    /// Twenty days from Monday 1 June 2026. Every day an orange patient arrives at 10:00 and is
    /// seen in 5 minutes; on `breachDays` of them another arrives in the evening (17:30 or 18:15)
    /// and waits 30 minutes. Dr Evening covers emergencies 08:00–20:00, Dr Morning 08:00–17:00.
    static func emergencyHistory(breachDays: Int, eveningHours: [Int] = [17, 18]) -> PracticeHistory {
        let evening = Fixture.clinician(31, "Dr Evening", [.emergencyCriticalCare])
        let morning = Fixture.clinician(32, "Dr Morning", [.emergencyCriticalCare])
        var arrivals: [TriageArrival] = []
        let first = Fixture.date("2026-06-01")
        for offset in 0..<20 {
            let day = first.adding(days: offset).description
            arrivals.append(Fixture.arrival(1000 + offset, .orange, Fixture.local("\(day) 10:00"), seenAfter: 5))
            if offset < breachDays {
                let hour = eveningHours[offset % eveningHours.count]
                let minute = hour == 17 ? 30 : 15
                arrivals.append(
                    Fixture.arrival(2000 + offset, .orange, Fixture.local("\(day) \(hour):\(minute)"), seenAfter: 30))
            }
        }
        return PracticeHistory(
            practice: Fixture.practice, clinicians: [evening, morning],
            availabilities: [
                Fixture.availability(evening, days: 1...7, from: (8, 0), to: (20, 0)),
                Fixture.availability(morning, days: 1...7, from: (8, 0), to: (17, 0)),
            ],
            triageArrivals: arrivals)
    }

    static let june = AnalyticsPeriod(
        from: Fixture.date("2026-06-01"), through: Fixture.date("2026-06-20"), timeZone: Fixture.london)!
    static let afterJune = Fixture.local("2026-06-30 12:00")

    private func insights(_ history: PracticeHistory, period: AnalyticsPeriod = june, asOf: Date = afterJune)
        -> [Insight]
    {
        let analytics = PracticeAnalytics(history: history)
        return analytics.insights(metrics: analytics.metrics(for: period, asOf: asOf))
    }

    @Test("orange waits: the days, the hours and the clinicians on duty, all from the data")
    func triageWaits() throws {
        let found = insights(Self.emergencyHistory(breachDays: 6))
        let insight = try #require(found.first { $0.kind == .triageWaits })
        #expect(
            insight.message
                == """
                Orange patients waited longer than 15 min on 6 of 20 days, all between 17:00 and 19:00, when 1 \
                emergency clinician was on duty.
                """
        )
        #expect(insight.severity == .critical)
        #expect(insight.figure("breachDays") == 6)
        #expect(insight.figure("arrivalDays") == 20)
        #expect(close(insight.figure("compliance"), 20.0 / 26))
        #expect(insight.source == MetricReference(metric: .vtlCompliance(.orange), segment: .practice))
    }

    @Test("breaches spread over the day name no hours")
    func spreadHours() throws {
        let found = insights(Self.emergencyHistory(breachDays: 6, eveningHours: [11, 14, 17, 19]))
        let insight = try #require(found.first { $0.kind == .triageWaits })
        #expect(insight.message.hasPrefix("Orange patients waited longer than 15 min on 6 of 20 days"))
        #expect(!insight.message.contains("between"))
        // 11:15, 14:15, 17:30 and 19:15 — Dr Morning is on duty for some, not others.
        #expect(!insight.message.contains("on duty"))
    }

    @Test("two late evenings in twenty days are not a finding")
    func fewBreaches() {
        // 2 breaches (below 3) and compliance 20 of 22 = 91 % (not below 90 %).
        let found = insights(Self.emergencyHistory(breachDays: 2))
        #expect(!found.contains { $0.kind == .triageWaits })
        // What the data does support: neither emergency clinician has a single booking.
        #expect(found.map(\.kind) == [.clinicianUnderused, .clinicianUnderused])
    }

    // MARK: - Attendance

    /// 25 appointments on weekdays in June with `noShows` no-shows, all of them cats.
    static func attendanceHistory(noShows: Int, cats: Int = 10) -> PracticeHistory {
        let hart = WeekFixture.hart
        var appointments: [AppointmentRecord] = []
        for index in 0..<25 {
            let start = Fixture.local("2026-06-0\(1 + index % 5) 09:00").addingTimeInterval(
                TimeInterval(index / 5 * 1800))
            appointments.append(
                Fixture.visit(
                    hart, Fixture.consult, start, minutes: 20, patient: index,
                    status: index < noShows ? .noShow : .completed, species: index < cats ? .cat : .dog))
        }
        return PracticeHistory(
            practice: Fixture.practice, appointmentTypes: [Fixture.consult], clinicians: [hart],
            availabilities: [Fixture.availability(hart, from: (9, 0), to: (17, 0))], appointments: appointments)
    }

    @Test("a high no-show rate, and the species that drives it")
    func noShows() throws {
        let found = insights(Self.attendanceHistory(noShows: 5))
        let rate = try #require(found.first { $0.kind == .noShowRate })
        #expect(rate.message == "20% of appointments were no-shows (5 of 25).")
        let hotspots = found.filter { $0.kind == .noShowHotspot }
        #expect(hotspots.map(\.source.segment) == [.species(.cat)])
        #expect(hotspots.first?.message == "No-shows for Cat ran at 50% (5 of 10), 2.5× the practice's 20%.")
    }

    @Test("one no-show in 25 is not a finding")
    func fewNoShows() {
        let kinds = insights(Self.attendanceHistory(noShows: 1)).map(\.kind)
        #expect(!kinds.contains(.noShowRate))
        #expect(!kinds.contains(.noShowHotspot))
    }

    // MARK: - Durations

    static func dentalHistory(count: Int) -> PracticeHistory {
        let dental = AppointmentType(
            id: Identifier(Fixture.uuid(9300)), name: "Dental scale & polish", defaultDurationMinutes: 60,
            requiredSpecialty: .dentistry, fee: Money(minorUnits: 30000, currency: "GBP"))
        let vet = Fixture.clinician(40, "Dr Molar", [.dentistry])
        let appointments = (0..<count).map { index in
            Fixture.visit(
                vet, dental, Fixture.local("2026-06-0\(index + 1) 09:00"), minutes: 60, patient: index, actual: 72)
        }
        return PracticeHistory(
            practice: Fixture.practice, appointmentTypes: [dental], clinicians: [vet], appointments: appointments)
    }

    @Test("a type that overruns, with its numbers")
    func overrun() throws {
        let insight = try #require(insights(Self.dentalHistory(count: 6)).first { $0.kind == .durationOverrun })
        #expect(
            insight.message
                == """
                Dental scale & polish ran 12 min over its booked time on average (72 min actual against 60 min \
                booked, 6 appointments).
                """
        )
        #expect(insight.figure("meanDifferenceMinutes") == 12)
    }

    @Test("four overruns are too few to generalise from")
    func fewOverruns() {
        #expect(!insights(Self.dentalHistory(count: 4)).contains { $0.kind == .durationOverrun })
    }

    // MARK: - Load

    @Test("an overloaded and an idle clinician, each against the target band")
    func load() throws {
        let analytics = WeekFixture.analytics
        let metrics = analytics.metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
        let underused = analytics.insights(metrics: metrics).filter { $0.kind == .clinicianUnderused }
        // Dr Hart: 40 of 2,100 min. Dr Okafor (120 of 960 min) is as idle, but 16 available hours
        // are under the 20 needed to judge a load.
        #expect(
            underused.map(\.message) == [
                "Dr Amelia Hart was booked for only 2% of available time (0.7 of 35 h), below the 60% target."
            ])
        let lenient = InsightThresholds(loadMinimumAvailableHours: 10)
        let judged = PracticeAnalytics(
            history: WeekFixture.history, options: AnalyticsOptions(insightThresholds: lenient))
        #expect(
            judged.insights(metrics: metrics).filter { $0.kind == .clinicianUnderused }.map(\.source.segment.name)
                == ["Dr Amelia Hart", "Dr Ben Okafor"])
        #expect(!analytics.insights(metrics: metrics).contains { $0.kind == .clinicianOverloaded })
    }

    // MARK: - Looking ahead

    @Test("a bottleneck from the report, with booked and requested minutes")
    func bottleneck() throws {
        let analytics = PracticeAnalytics(history: BottleneckTests.history)
        let report = analytics.bottlenecks(asOf: BottleneckTests.asOf, days: 7)
        let metrics = analytics.metrics(for: WeekFixture.period, asOf: BottleneckTests.asOf)
        let found = analytics.insights(metrics: metrics, bottlenecks: report)
        let cardiology = try #require(
            found.first { $0.kind == .specialtyBottleneck && $0.source.segment == .specialty(.cardiology) })
        #expect(
            cardiology.message
                == """
                Cardiology demand over the next 7 days is 1,250 min (850 booked, 400 requested) against 900 min \
                of capacity (139%).
                """
        )
        #expect(cardiology.severity == .critical)
        let dermatology = try #require(
            found.first { $0.kind == .specialtyBottleneck && $0.source.segment == .specialty(.dermatology) })
        #expect(
            dermatology.message
                == """
                Dermatology demand over the next 7 days is 60 min (0 booked, 60 requested) with no clinician time \
                available.
                """
        )
        #expect(
            found.contains {
                $0.kind == .clinicianOverbookedAhead
                    && $0.message.hasPrefix("Dr Ben Okafor is booked for 94% of bookable time")
            })
        #expect(found.first?.severity == .critical)
        // Without the requests, cardiology fits (850 of 900) and dermatology has no demand.
        var quiet = BottleneckTests.history
        quiet.openRequests = []
        let calm = PracticeAnalytics(history: quiet)
        #expect(
            !calm.insights(metrics: metrics, bottlenecks: calm.bottlenecks(asOf: BottleneckTests.asOf, days: 7))
                .contains {
                    $0.kind == .specialtyBottleneck && $0.source.segment != .practice
                        && $0.source.segment.id != "general_practice"
                })
    }

    @Test("a forecast shift is mentioned only when it is large and the back-test earns it")
    func demandShift() throws {
        // Mondays in May: 20, 20, 20, then 10. Next Monday: (20 + 10) / 2 = 15, up 50 % on 10.
        // Back-test: the third Monday is forecast exactly, the fourth off by 10 → MAE 10/14, MAPE 50 %.
        var appointments: [AppointmentRecord] = []
        for (week, count) in [20, 20, 20, 10].enumerated() {
            for slot in 0..<count {
                let start = Fixture.local("2026-05-04 08:00").addingTimeInterval(
                    TimeInterval(week * 7 * 86_400 + slot * 1200))
                appointments.append(
                    Fixture.visit(WeekFixture.okafor, Fixture.cardio, start, minutes: 20, patient: week * 100 + slot))
            }
        }
        let history = PracticeHistory(
            practice: Fixture.practice, appointmentTypes: [Fixture.cardio], clinicians: [WeekFixture.okafor],
            appointments: appointments)
        let analytics = PracticeAnalytics(history: history, options: AnalyticsOptions(forecastWeeks: 2))
        let metrics = analytics.metrics(for: WeekFixture.period, asOf: WeekFixture.asOf)
        let forecast = analytics.forecast(weekStarting: Fixture.date("2026-06-01"), historyWeeks: 4)
        let shift = try #require(
            analytics.insights(metrics: metrics, forecast: forecast).first { $0.kind == .demandShift })
        #expect(
            shift.message
                == """
                Cardiology demand is forecast at 15 appointments for the week from 2026-06-01, up 50% on the \
                previous week's 10 (back-tested error ±0.7 appointments a day).
                """
        )
        #expect(shift.figure("backtestMAPE") == 50)

        // A stricter bar on the back-test silences it.
        var strict = AnalyticsOptions(forecastWeeks: 2)
        strict.insightThresholds.demandShiftMaximumMAPE = 40
        let cautious = PracticeAnalytics(history: history, options: strict)
        #expect(!cautious.insights(metrics: metrics, forecast: forecast).contains { $0.kind == .demandShift })

        // Cardiology in the forecast fixture: 16 forecast against 17 last week, a 6 % change — no shift.
        let steady = PracticeAnalytics(history: ForecastTests.history, options: AnalyticsOptions(forecastWeeks: 2))
        let steadyForecast = steady.forecast(weekStarting: Fixture.date("2026-06-01"), historyWeeks: 4)
        #expect(!steady.insights(metrics: metrics, forecast: steadyForecast).contains { $0.kind == .demandShift })
    }
}
