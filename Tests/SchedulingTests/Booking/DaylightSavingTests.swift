import Foundation
import Scheduling
import SharedKernel
import Testing

/// Europe/London in 2026: clocks go forward at 01:00 GMT on Sunday 29 March and back at
/// 01:00 GMT (02:00 BST) on Sunday 25 October.
@Suite("Free slots across daylight-saving changes")
struct DaylightSavingTests {
    let calendar = try! PracticeCalendar(timeZoneIdentifier: "Europe/London")

    private func londonDay(_ month: Int, _ day: Int) -> TimeRange { calendar.day(year: 2026, month: month, day: day)! }

    private func firstSlot(month: Int, day: Int) throws -> Date? {
        let range = londonDay(month, day)
        let finder = try FreeSlotFinder(
            practice: BookingFixture.practice(), rooms: [], timetables: [BookingFixture.timetable(1, working: [range])],
            appointments: [])
        return try finder.slots(for: SlotQuery(range: range, durationMinutes: 30, gridMinutes: 30)).first?.start
    }

    @Test(
        "a 09:00 local opening is 09:00Z in winter and 08:00Z in summer",
        arguments: [
            (3, 28, "2026-03-28T09:00:00Z"), (3, 29, "2026-03-29T08:00:00Z"), (3, 30, "2026-03-30T08:00:00Z"),
            (10, 24, "2026-10-24T08:00:00Z"), (10, 25, "2026-10-25T09:00:00Z"), (10, 26, "2026-10-26T09:00:00Z"),
        ])
    func nineOClock(month: Int, day: Int, expected: String) throws {
        #expect(try firstSlot(month: month, day: day) == BookingFixture.at(expected))
    }

    @Test(
        "local days are 23 hours in spring, 25 in autumn, 24 otherwise",
        arguments: [(3, 29, 23), (10, 25, 25), (3, 28, 24), (10, 26, 24)])
    func dayLength(month: Int, day: Int, hours: Int) {
        #expect(londonDay(month, day).duration == TimeInterval(hours * 3600))
    }

    @Test(
        "round-the-clock opening: one slot per grid step of real time, none in the skipped hour",
        arguments: [
            (3, 29, 23 * 4), (10, 25, 25 * 4), (6, 14, 24 * 4),
        ])
    func allDay(month: Int, day: Int, count: Int) throws {
        let range = londonDay(month, day)
        let finder = try FreeSlotFinder(
            practice: BookingFixture.practice(opens: 0, closes: 1440), rooms: [],
            timetables: [BookingFixture.timetable(1, working: [range])], appointments: [])
        let slots = try finder.slots(for: SlotQuery(range: range, durationMinutes: 15, gridMinutes: 15))
        #expect(slots.count == count)
        let localHours = slots.map { Calendar.london.component(.hour, from: $0.start) }
        if month == 3 { #expect(!localHours.contains(1)) }
        if month == 10 { #expect(localHours.filter { $0 == 1 }.count == 8) } // 01:00–01:59 happens twice
        // Every start is on a quarter hour of local wall time, before and after the change.
        #expect(slots.allSatisfy { Calendar.london.component(.minute, from: $0.start) % 15 == 0 })
    }

    @Test("opening hours inside the skipped hour produce no time")
    func openingInsideGap() throws {
        let range = londonDay(3, 29)
        let practice = PracticeProfile(
            id: BookingFixture.practiceID, name: "Night Vets", timeZone: "Europe/London",
            openingHours: [
                OpeningHours(weekday: 7, opensMinute: 60, closesMinute: 120),
                OpeningHours(weekday: 7, opensMinute: 120, closesMinute: 180),
            ])
        let finder = try FreeSlotFinder(
            practice: practice, rooms: [], timetables: [BookingFixture.timetable(1, working: [range])], appointments: []
        )
        let slots = try finder.slots(for: SlotQuery(range: range, durationMinutes: 30, gridMinutes: 30))
        #expect(slots.starts == ["2026-03-29T01:00:00Z", "2026-03-29T01:30:00Z"]) // 02:00 and 02:30 BST
    }

    @Test("a query spanning both changes resolves each local day in its own offset")
    func spanning() throws {
        let range = TimeRange(start: londonDay(3, 28).start, end: londonDay(3, 30).end)!
        let finder = try FreeSlotFinder(
            practice: BookingFixture.practice(opens: 540, closes: 570), rooms: [],
            timetables: [BookingFixture.timetable(1, working: [range])], appointments: [])
        let slots = try finder.slots(for: SlotQuery(range: range, durationMinutes: 30, gridMinutes: 30))
        #expect(slots.starts == ["2026-03-28T09:00:00Z", "2026-03-29T08:00:00Z", "2026-03-30T08:00:00Z"])
    }
}

extension Calendar {
    /// Gregorian calendar in Europe/London, to read wall times in expectations.
    static let london: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London")!
        return calendar
    }()
}
