import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Free slots around practice closures")
struct ClosureSlotTests {
    let calendar = try! PracticeCalendar(timeZoneIdentifier: "Europe/London")

    private func finder(closures: [PracticeClosure], grid: Int = 5, appointments: [Appointment] = []) throws
        -> FreeSlotFinder
    {
        var practice = BookingFixture.practice(opens: 8 * 60, closes: 18 * 60)
        practice.closures = closures
        practice.slotGridMinutes = grid
        let span = TimeRange(
            start: BookingFixture.at("2026-03-20T00:00:00Z"), end: BookingFixture.at("2026-04-05T00:00:00Z"))!
        return try FreeSlotFinder(
            practice: practice, rooms: [], timetables: [BookingFixture.timetable(1, working: [span])],
            appointments: appointments)
    }

    @Test("a partial closure on the spring daylight-saving day removes the afternoon in local time")
    func partialOnSpringChange() throws {
        let closure = PracticeClosure(firstDay: LocalDate("2026-03-29")!, fromMinute: 13 * 60, reason: "Staff training")
        let day = calendar.day(year: 2026, month: 3, day: 29)!
        let slots = try finder(closures: [closure]).slots(
            for: SlotQuery(range: day, durationMinutes: 30, gridMinutes: 30))
        // 08:00–13:00 BST is 07:00–12:00Z; the last half-hour slot starts at 12:30 BST.
        #expect(slots.first?.start == BookingFixture.at("2026-03-29T07:00:00Z"))
        #expect(slots.last?.start == BookingFixture.at("2026-03-29T11:30:00Z"))
        #expect(slots.count == 10)
        // The day before (GMT) is untouched.
        let before = try finder(closures: [closure]).slots(
            for: SlotQuery(range: calendar.day(year: 2026, month: 3, day: 28)!, durationMinutes: 30, gridMinutes: 30))
        #expect(before.count == 20)
    }

    @Test("a whole-day yearly closure leaves no slot on its day, in any year from its first")
    func wholeDay() throws {
        let closure = PracticeClosure(firstDay: LocalDate("2025-03-31")!, recursYearly: true, reason: "Founders' day")
        let slots = try finder(closures: [closure]).slots(
            for: SlotQuery(range: calendar.day(year: 2026, month: 3, day: 31)!, durationMinutes: 15))
        #expect(slots.isEmpty)
        #expect(
            try !finder(closures: [closure]).slots(
                for: SlotQuery(range: calendar.day(year: 2026, month: 4, day: 1)!, durationMinutes: 15)
            ).isEmpty)
    }

    @Test("without a grid in the query, slots follow the practice's grid")
    func practiceGrid() throws {
        let slots = try finder(closures: [], grid: 20).slots(
            for: SlotQuery(range: calendar.day(year: 2026, month: 3, day: 24)!, durationMinutes: 20))
        #expect(slots.count == 30)
        #expect(slots.allSatisfy { Int($0.start.timeIntervalSince1970) % 1200 == 0 })
    }

    @Test("appointments a new closure strands are the open ones it covers, not the cancelled or finished")
    func impact() {
        let closure = PracticeClosure(firstDay: LocalDate("2026-12-24")!, fromMinute: 13 * 60, reason: "Christmas Eve")
        func appointment(_ start: String, _ status: AppointmentStatus) -> Appointment {
            Appointment(
                practiceID: BookingFixture.practiceID, patientID: UUID(), clinicianID: UUID(),
                appointmentTypeID: Identifier(),
                time: TimeRange(
                    start: BookingFixture.at(start), end: BookingFixture.at(start).addingTimeInterval(1800))!,
                status: status)
        }
        let morning = appointment("2026-12-24T10:00:00Z", .booked)
        let afternoon = appointment("2026-12-24T14:00:00Z", .booked)
        let straddling = appointment("2026-12-24T12:45:00Z", .booked)
        let cancelled = appointment("2026-12-24T15:00:00Z", .cancelled)
        let now = BookingFixture.at("2026-12-01T00:00:00Z")
        let stranded = ScheduleImpact.appointments(
            [afternoon, morning, cancelled, straddling], closedBy: closure,
            timeZone: TimeZone(identifier: "Europe/London")!, now: now)
        #expect(stranded == [straddling, afternoon])
    }
}
