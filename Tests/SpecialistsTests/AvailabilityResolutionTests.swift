import Foundation
import SharedKernel
import Specialists
import Testing

@Suite("Availability resolved to instants")
struct AvailabilityResolutionTests {
    let london = TimeZone(identifier: "Europe/London")!
    let id = Identifier<Clinician>()

    private func date(_ text: String) -> LocalDate { LocalDate(text)! }
    private func instant(_ text: String) -> Date { Timestamp.date(text)! }

    /// 09:00–17:00 every day of the week with a 12:30–13:30 lunch.
    private var everyDay: ClinicianAvailability {
        ClinicianAvailability(
            clinicianID: id,
            weekly: (1...7).map { WeeklyInterval(weekday: $0, from: (9, 0), to: (17, 0)) },
            breaks: (1...7).map { WeeklyInterval(weekday: $0, from: (12, 30), to: (13, 30)) })
    }

    @Test(
        "09:00 local is 08:00Z in British summer time and 09:00Z in winter",
        arguments: [
            ("2026-03-28", "2026-03-28T09:00:00Z"), // Saturday before the spring change: GMT
            ("2026-03-29", "2026-03-29T08:00:00Z"), // the change itself (clocks go forward at 01:00 GMT)
            ("2026-03-30", "2026-03-30T08:00:00Z"),
            ("2026-10-24", "2026-10-24T08:00:00Z"),
            ("2026-10-25", "2026-10-25T09:00:00Z"), // the autumn change: back to GMT
        ])
    func dst(day: String, firstStart: String) {
        let windows = everyDay.windows(from: date(day), through: date(day), timeZone: london)
        #expect(windows.first?.start == instant(firstStart))
        #expect(windows.count == 2) // the lunch break splits the day
        #expect(windows.map { $0.duration / 60 } == [210, 210])
    }

    @Test(
        "a window across the skipped hour is an hour shorter, across the repeated hour an hour longer",
        arguments: [
            ("2026-03-29", 60), ("2026-10-25", 180), ("2026-04-05", 120),
        ])
    func nightShift(day: String, minutes: Int) {
        let night = ClinicianAvailability(
            clinicianID: id, weekly: [WeeklyInterval(weekday: 7, from: (0, 30), to: (2, 30))])
        #expect(night.availableMinutes(on: date(day), timeZone: london) == minutes)
    }

    @Test("time off removes whole days, first and last included")
    func timeOff() {
        var availability = everyDay
        availability.timeOff = [TimeOff(firstDay: date("2026-05-04"), lastDay: date("2026-05-06"), reason: "course")]
        let days = ["2026-05-03", "2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07"]
        #expect(days.map { availability.availableMinutes(on: date($0), timeZone: london) } == [420, 0, 0, 0, 420])
    }

    @Test("extra sessions add time on their date only, and breaks still apply")
    func extraSession() {
        let availability = ClinicianAvailability(
            clinicianID: id, weekly: [WeeklyInterval(weekday: 1, from: (9, 0), to: (12, 0))],
            breaks: [WeeklyInterval(weekday: 6, from: (10, 0), to: (10, 15))],
            extraSessions: [ExtraSession(date: date("2026-06-06"), startMinute: 540, endMinute: 720)])
        #expect(availability.availableMinutes(on: date("2026-06-06"), timeZone: london) == 165)
        #expect(availability.availableMinutes(on: date("2026-06-13"), timeZone: london) == 0)
        #expect(availability.availableMinutes(on: date("2026-06-08"), timeZone: london) == 180)
    }

    @Test(
        "capacity is working time capped by the daily limit",
        arguments: [(nil, 420), (300, 300), (600, 420)] as [(Int?, Int)])
    func capacity(limit: Int?, expected: Int) {
        var availability = everyDay
        availability.maxBookedMinutesPerDay = limit
        #expect(availability.capacityMinutes(on: date("2026-07-01"), timeZone: london) == expected)
    }

    @Test("windows overlapping a range are clipped to it")
    func clipped() throws {
        let range = try #require(
            TimeRange(start: instant("2026-07-01T10:00:00Z"), end: instant("2026-07-01T14:00:00Z")))
        let windows = everyDay.windows(overlapping: range, timeZone: london)
        #expect(windows.map(\.start) == [instant("2026-07-01T10:00:00Z"), instant("2026-07-01T12:30:00Z")])
        #expect(windows.map(\.end) == [instant("2026-07-01T11:30:00Z"), instant("2026-07-01T14:00:00Z")])
    }

    @Test(
        "workload reports utilisation and fullness",
        arguments: [
            (0, 0, 480, 10, 0.0, false), (240, 5, 480, 10, 0.5, false), (480, 5, 480, 10, 1.0, true),
            (100, 10, 480, 10, 100.0 / 480, true), (0, 0, 0, 10, 1.0, true),
        ])
    func workload(booked: Int, count: Int, capacity: Int, max: Int, utilisation: Double, full: Bool) {
        let workload = DailyWorkload(
            clinicianID: id, date: date("2026-07-01"), bookedMinutes: booked, appointmentCount: count,
            capacityMinutes: capacity, maxAppointments: max)
        #expect(abs(workload.utilisation - utilisation) < 1e-9)
        #expect(workload.isFull == full)
    }
}
