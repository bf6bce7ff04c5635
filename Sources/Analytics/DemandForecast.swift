import Foundation
import Scheduling
import SharedKernel
import Specialists

/// Forecast demand of one local day.
public struct ForecastDay: Hashable, Codable, Sendable {
    /// The day.
    public let date: LocalDate
    /// Appointments expected.
    public let appointments: Double
    /// Booked minutes expected.
    public let minutes: Double

    /// Creates a day.
    public init(date: LocalDate, appointments: Double, minutes: Double) {
        self.date = date
        self.appointments = appointments
        self.minutes = minutes
    }
}

/// How the forecasting rule did on the history itself: each history day that has `k` weeks
/// before it is forecast from those weeks alone and compared with what happened.
public struct BacktestError: Hashable, Codable, Sendable {
    /// History days forecast.
    public let days: Int
    /// Mean absolute error, appointments per day.
    public let appointmentsMAE: Double?
    /// Mean absolute percentage error of appointments, in percent, over the days with at least
    /// one appointment (a zero day has no percentage error); `nil` if there are none.
    public let appointmentsMAPE: Double?
    /// Mean absolute error, minutes per day.
    public let minutesMAE: Double?
    /// Mean absolute percentage error of minutes, in percent (days with demand only).
    public let minutesMAPE: Double?

    /// Creates an error report.
    public init(
        days: Int, appointmentsMAE: Double?, appointmentsMAPE: Double?, minutesMAE: Double?, minutesMAPE: Double?
    ) {
        self.days = days
        self.appointmentsMAE = appointmentsMAE
        self.appointmentsMAPE = appointmentsMAPE
        self.minutesMAE = minutesMAE
        self.minutesMAPE = minutesMAPE
    }
}

/// The forecast of one specialty.
public struct SpecialtyForecast: Hashable, Codable, Sendable {
    /// The specialty (general practice for types that require none).
    public let specialty: Specialty
    /// The seven forecast days.
    public let days: [ForecastDay]
    /// Appointments in the last seven history days, for comparison.
    public let lastWeekAppointments: Int
    /// Minutes in the last seven history days.
    public let lastWeekMinutes: Double
    /// The rule's error on the history.
    public let backtest: BacktestError

    /// Creates a forecast.
    public init(
        specialty: Specialty, days: [ForecastDay], lastWeekAppointments: Int, lastWeekMinutes: Double,
        backtest: BacktestError
    ) {
        self.specialty = specialty
        self.days = days
        self.lastWeekAppointments = lastWeekAppointments
        self.lastWeekMinutes = lastWeekMinutes
        self.backtest = backtest
    }

    /// Appointments expected over the week.
    public var totalAppointments: Double { days.reduce(0) { $0 + $1.appointments } }
    /// Minutes expected over the week.
    public var totalMinutes: Double { days.reduce(0) { $0 + $1.minutes } }
}

/// Next week's demand per specialty.
///
/// **Method (seasonal naive, weekly):** the demand of a day is the mean of the same weekday
/// over the last `k` weeks of history (``AnalyticsOptions/forecastWeeks``, fewer when the
/// history is shorter). Demand is the appointments starting that local day that were not
/// cancelled — no-shows included, as they took a slot — and their booked minutes, by the
/// specialty their type requires. Explainable in one sentence, and honest about its error:
/// ``SpecialtyForecast/backtest`` applies the same rule to every history day with `k` weeks
/// before it.
public struct DemandForecast: Hashable, Codable, Sendable {
    /// Weeks averaged (`k`).
    public let weeksAveraged: Int
    /// First history day.
    public let historyFirstDay: LocalDate
    /// Last history day (the day before the forecast week).
    public let historyLastDay: LocalDate
    /// First forecast day.
    public let weekStart: LocalDate
    /// Specialties with demand in the history, in ``Specialty`` order.
    public let specialties: [SpecialtyForecast]

    /// Creates a forecast.
    public init(
        weeksAveraged: Int, historyFirstDay: LocalDate, historyLastDay: LocalDate, weekStart: LocalDate,
        specialties: [SpecialtyForecast]
    ) {
        self.weeksAveraged = weeksAveraged
        self.historyFirstDay = historyFirstDay
        self.historyLastDay = historyLastDay
        self.weekStart = weekStart
        self.specialties = specialties
    }

    /// The forecast of `specialty`.
    public func specialty(_ specialty: Specialty) -> SpecialtyForecast? {
        specialties.first { $0.specialty == specialty }
    }
}

extension PracticeAnalytics {
    /// Forecasts the seven local days from `weekStart`, learning from the `historyWeeks`
    /// weeks just before it (clamped to 1–260).
    public func forecast(weekStarting weekStart: LocalDate, historyWeeks: Int) -> DemandForecast {
        let weeks = min(260, max(1, historyWeeks))
        let k = min(weeks, max(1, options.forecastWeeks))
        let historyFirst = weekStart.adding(days: -7 * weeks)
        let historyLast = weekStart.adding(days: -1)
        let dayCount = 7 * weeks
        var counts = Array(repeating: Array(repeating: 0.0, count: dayCount), count: Visit.specialties.count)
        var minutes = counts
        if let history = AnalyticsPeriod(from: historyFirst, through: historyLast, timeZone: timeZone) {
            let (from, to) = bounds(of: history)
            let grid = DayGrid(
                covering: DateInterval(start: Date(timeIntervalSince1970: from), end: Date(timeIntervalSince1970: to)),
                timeZone: timeZone)
            for index in visitRange(startingIn: from, to) {
                let visit = visits[index]
                guard visit.status != .cancelled, visit.specialty >= 0, let day = grid.index(of: visit.start) else {
                    continue
                }
                let offset = grid.days[day].date.dayNumber - historyFirst.dayNumber
                guard (0..<dayCount).contains(offset) else { continue }
                counts[Int(visit.specialty)][offset] += 1
                minutes[Int(visit.specialty)][offset] += Double(visit.plannedMinutes)
            }
        }
        let specialties = Visit.specialties.indices.compactMap { s -> SpecialtyForecast? in
            guard counts[s].contains(where: { $0 > 0 }) else { return nil }
            let days = (0..<7).map { i in
                // The same weekday in each of the last k history weeks.
                let lags = (1...k).map { dayCount + i - 7 * $0 }
                return ForecastDay(
                    date: weekStart.adding(days: i),
                    appointments: lags.reduce(0) { $0 + counts[s][$1] } / Double(k),
                    minutes: lags.reduce(0) { $0 + minutes[s][$1] } / Double(k))
            }
            let appointmentsError = Self.backtest(counts[s], k: k)
            let minutesError = Self.backtest(minutes[s], k: k)
            return SpecialtyForecast(
                specialty: Visit.specialties[s], days: days,
                lastWeekAppointments: Int(counts[s].suffix(7).reduce(0, +)),
                lastWeekMinutes: minutes[s].suffix(7).reduce(0, +),
                backtest: BacktestError(
                    days: appointmentsError.days, appointmentsMAE: appointmentsError.mae,
                    appointmentsMAPE: appointmentsError.mape, minutesMAE: minutesError.mae,
                    minutesMAPE: minutesError.mape))
        }
        return DemandForecast(
            weeksAveraged: k, historyFirstDay: historyFirst, historyLastDay: historyLast, weekStart: weekStart,
            specialties: specialties)
    }

    /// The seasonal-naive rule replayed on `series`: day `t` (from `7k` on) is forecast as the
    /// mean of days `t − 7`, …, `t − 7k`.
    static func backtest(_ series: [Double], k: Int) -> (days: Int, mae: Double?, mape: Double?) {
        var days = 0
        var absolute = 0.0
        var percentage = 0.0
        var percentageDays = 0
        var t = 7 * k
        while t < series.count {
            let forecast = (1...k).reduce(0) { $0 + series[t - 7 * $1] } / Double(k)
            let error = abs(series[t] - forecast)
            days += 1
            absolute += error
            if series[t] > 0 {
                percentage += error / series[t] * 100
                percentageDays += 1
            }
            t += 1
        }
        return (
            days, days > 0 ? absolute / Double(days) : nil,
            percentageDays > 0 ? percentage / Double(percentageDays) : nil
        )
    }
}
