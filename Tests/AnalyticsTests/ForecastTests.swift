import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Testing

/// Four weeks of history, Monday 4 to Sunday 31 May 2026, with a known answer:
/// cardiology sees 10, 12, 10, 12 patients on the four Mondays and 5 every Tuesday (30 min
/// each); general practice has one busy Wednesday (3 consultations on 20 May). The forecast
/// averages the last k = 2 weeks.
@Suite("Demand forecast and its back-test")
struct ForecastTests {
    static let mondays = [("2026-05-04", 10), ("2026-05-11", 12), ("2026-05-18", 10), ("2026-05-25", 12)]
    static let tuesdays = ["2026-05-05", "2026-05-12", "2026-05-19", "2026-05-26"]

    static var history: PracticeHistory {
        var appointments: [AppointmentRecord] = []
        var patient = 0
        func add(
            _ day: String, _ count: Int, _ type: AppointmentType, minutes: Int, status: AppointmentStatus = .completed
        ) {
            for slot in 0..<count {
                patient += 1
                let start = Fixture.local("\(day) 09:00").addingTimeInterval(TimeInterval(slot * minutes * 60))
                appointments.append(
                    Fixture.visit(WeekFixture.okafor, type, start, minutes: minutes, patient: patient, status: status))
            }
        }
        for (day, count) in mondays { add(day, count, Fixture.cardio, minutes: 30) }
        for day in tuesdays { add(day, 5, Fixture.cardio, minutes: 30) }
        add("2026-05-20", 3, Fixture.consult, minutes: 20)
        // Cancelled and pre-history bookings are not demand in the window.
        add("2026-05-25", 4, Fixture.cardio, minutes: 30, status: .cancelled)
        add("2026-04-27", 40, Fixture.cardio, minutes: 10)
        return PracticeHistory(
            practice: Fixture.practice, appointmentTypes: [Fixture.consult, Fixture.cardio],
            clinicians: [WeekFixture.okafor], appointments: appointments)
    }

    let forecast = PracticeAnalytics(history: history, options: AnalyticsOptions(forecastWeeks: 2))
        .forecast(weekStarting: Fixture.date("2026-06-01"), historyWeeks: 4)

    @Test("the history window is the four weeks before the forecast week")
    func window() {
        #expect(forecast.historyFirstDay == Fixture.date("2026-05-04"))
        #expect(forecast.historyLastDay == Fixture.date("2026-05-31"))
        #expect(forecast.weeksAveraged == 2)
        #expect(forecast.specialties.map(\.specialty) == [.cardiology, .generalPractice])
    }

    @Test("next week: Monday the mean of 10 and 12, Tuesday 5, the rest 0")
    func nextWeek() throws {
        let cardiology = try #require(forecast.specialty(.cardiology))
        #expect(cardiology.days.map(\.date) == (1...7).map { Fixture.date("2026-06-0\($0)") })
        #expect(cardiology.days.map(\.appointments) == [11, 5, 0, 0, 0, 0, 0])
        #expect(cardiology.days.map(\.minutes) == [330, 150, 0, 0, 0, 0, 0])
        #expect(cardiology.totalAppointments == 16)
        #expect(cardiology.lastWeekAppointments == 17)
        #expect(cardiology.lastWeekMinutes == 510)
    }

    @Test("back-test: 14 days forecast, Mondays off by 1, so MAE 2/14 and MAPE (10 % + 8.33 %) / 4 days with demand")
    func backtest() throws {
        let error = try #require(forecast.specialty(.cardiology)).backtest
        #expect(error.days == 14)
        #expect(close(error.appointmentsMAE, 2.0 / 14))
        #expect(close(error.appointmentsMAPE, (10 + 100.0 / 12) / 4))
        #expect(close(error.minutesMAE, 60.0 / 14))
        #expect(close(error.minutesMAPE, (10 + 100.0 / 12) / 4))
    }

    @Test("one unforeseen busy day: forecast half of it for the next Wednesday, 100 % error on the day it happened")
    func sparse() throws {
        let general = try #require(forecast.specialty(.generalPractice))
        #expect(general.days.map(\.appointments) == [0, 0, 1.5, 0, 0, 0, 0])
        // Back-tested errors: 3 on 20 May (forecast 0), 1.5 on 27 May (forecast (3 + 0) / 2, actual 0).
        // Only 20 May had demand, so the percentage error is that day's 100 %.
        #expect(close(general.backtest.appointmentsMAE, 4.5 / 14))
        #expect(general.backtest.appointmentsMAPE == 100)
    }

    @Test("with one week of history the forecast repeats it and nothing can be back-tested")
    func oneWeek() throws {
        let forecast = PracticeAnalytics(history: Self.history).forecast(
            weekStarting: Fixture.date("2026-05-26"), historyWeeks: 1)
        // One week of history (the week of 19 May): Tuesday 19 May had 5, so next Tuesday is 5; nothing to back-test.
        let cardiology = try #require(forecast.specialty(.cardiology))
        #expect(forecast.weeksAveraged == 1)
        #expect(cardiology.days[0].appointments == 5)
        #expect(cardiology.backtest.days == 0)
        #expect(cardiology.backtest.appointmentsMAE == nil)
    }

    @Test("no history, no forecast")
    func emptyHistory() {
        let forecast = PracticeAnalytics(history: Self.history).forecast(
            weekStarting: Fixture.date("2020-01-06"), historyWeeks: 4)
        #expect(forecast.specialties.isEmpty)
    }
}
