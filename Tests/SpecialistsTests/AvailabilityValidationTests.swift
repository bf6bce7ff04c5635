import Foundation
import SharedKernel
import Specialists
import Testing

@Suite("Clinician availability validation")
struct AvailabilityValidationTests {
    let id = Identifier<Clinician>()

    private func fields(_ availability: ClinicianAvailability) -> [String] {
        do {
            try availability.validate()
            return []
        } catch {
            return error.errors.map(\.field)
        }
    }

    @Test("a split shift with touching intervals is valid")
    func splitShift() throws {
        let availability = ClinicianAvailability(
            clinicianID: id,
            weekly: [
                WeeklyInterval(weekday: 1, from: (8, 0), to: (12, 0)),
                WeeklyInterval(weekday: 1, from: (12, 0), to: (13, 0)),
                WeeklyInterval(weekday: 1, from: (14, 0), to: (18, 0)),
                WeeklyInterval(weekday: 2, from: (8, 0), to: (12, 0)),
            ])
        try availability.validate()
    }

    @Test(
        "overlaps within one weekday are refused, naming the later interval",
        arguments: [
            (WeeklyInterval(weekday: 1, from: (11, 59), to: (14, 0)), true),
            (WeeklyInterval(weekday: 1, from: (12, 0), to: (14, 0)), false),
            (WeeklyInterval(weekday: 1, from: (7, 0), to: (8, 1)), true),
            (WeeklyInterval(weekday: 1, from: (7, 0), to: (8, 0)), false),
            (WeeklyInterval(weekday: 2, from: (9, 0), to: (11, 0)), false),
            (WeeklyInterval(weekday: 1, from: (9, 0), to: (10, 0)), true),
        ])
    func overlap(second: WeeklyInterval, refused: Bool) {
        let availability = ClinicianAvailability(
            clinicianID: id, weekly: [WeeklyInterval(weekday: 1, from: (8, 0), to: (12, 0)), second])
        #expect(fields(availability) == (refused ? ["weekly[1]"] : []))
    }

    @Test("end before or at start is refused", arguments: [(600, 540), (600, 600)])
    func endBeforeStart(start: Int, end: Int) {
        let availability = ClinicianAvailability(
            clinicianID: id, weekly: [WeeklyInterval(weekday: 3, startMinute: start, endMinute: end)])
        #expect(fields(availability) == ["weekly[0].endMinute"])
    }

    @Test("every bad field is named at once")
    func allFields() {
        let d1 = LocalDate(year: 2026, month: 4, day: 10)!
        let d0 = LocalDate(year: 2026, month: 4, day: 9)!
        let availability = ClinicianAvailability(
            clinicianID: id,
            weekly: [
                WeeklyInterval(weekday: 8, startMinute: 60, endMinute: 120),
                WeeklyInterval(weekday: 1, startMinute: -5, endMinute: 1441),
            ],
            breaks: [
                WeeklyInterval(weekday: 1, startMinute: 720, endMinute: 780),
                WeeklyInterval(weekday: 1, startMinute: 750, endMinute: 800),
            ],
            timeOff: [TimeOff(firstDay: d1, lastDay: d0), TimeOff(firstDay: d1, lastDay: d1)],
            extraSessions: [
                ExtraSession(date: d0, startMinute: 600, endMinute: 500),
                ExtraSession(date: d1, startMinute: 540, endMinute: 600),
            ],
            maxBookedMinutesPerDay: 0)
        #expect(
            fields(availability) == [
                "weekly[0].weekday", "weekly[1].startMinute", "weekly[1].endMinute", "breaks[1]", "timeOff[0].lastDay",
                "extraSessions[0].endMinute", "extraSessions[1].date", "maxBookedMinutesPerDay",
            ])
    }

    @Test(
        "local dates parse, validate, count days and know their weekday",
        arguments: [
            ("2026-03-29", 7), ("2026-10-25", 7), ("2026-03-30", 1), ("2024-02-29", 4), ("1970-01-01", 4),
        ])
    func localDate(text: String, weekday: Int) throws {
        let date = try #require(LocalDate(text))
        #expect(date.description == text)
        #expect(date.isoWeekday == weekday)
        #expect(date.adding(days: 1).adding(days: -1) == date)
        #expect(LocalDate(dayNumber: date.dayNumber) == date)
    }

    @Test(
        "impossible dates are refused", arguments: ["2026-02-29", "2026-13-01", "2026-04-31", "26-01-01", "2026-1-01"])
    func impossibleDate(text: String) { #expect(LocalDate(text) == nil) }
}
