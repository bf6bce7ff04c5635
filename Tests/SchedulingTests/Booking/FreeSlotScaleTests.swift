import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Free slots at practice scale")
struct FreeSlotScaleTests {
    @Test("one local day across 50 clinicians with 10 bookings each: ordered, conflict-free, quick")
    func fiftyClinicians() throws {
        let calendar = try PracticeCalendar(timeZoneIdentifier: "Europe/London")
        let day = try #require(calendar.day(year: 2026, month: 3, day: 29))
        var timetables: [ClinicianTimetable] = []
        var appointments: [Appointment] = []
        for n in 0..<50 {
            let start = day.start.addingTimeInterval(TimeInterval((7 + n % 3) * 3600))
            timetables.append(
                BookingFixture.timetable(
                    n, working: [TimeRange(start: start, end: start.addingTimeInterval(9 * 3600))!]))
            for k in 0..<10 {
                let begin = start.addingTimeInterval(TimeInterval(k * 50 * 60 + (n % 7) * 300))
                var booking = BookingFixture.booking(n, "2026-03-29T00:00:00Z", "2026-03-29T00:20:00Z", buffer: 5)
                booking.time = TimeRange(start: begin, end: begin.addingTimeInterval(1200))!
                appointments.append(booking)
            }
        }
        let finder = try FreeSlotFinder(
            practice: BookingFixture.practice(opens: 480, closes: 1140), rooms: [],
            timetables: timetables, appointments: appointments)
        let query = SlotQuery(range: day, durationMinutes: 20, bufferAfterMinutes: 5, gridMinutes: 5)
        let clock = ContinuousClock()
        var slots: [FreeSlot] = []
        let elapsed = try clock.measure { slots = try finder.slots(for: query) }
        #expect(slots.count > 500)
        #expect(
            zip(slots, slots.dropFirst()).allSatisfy {
                $0.start < $1.start || ($0.start == $1.start && $0.clinicianID.uuidString < $1.clinicianID.uuidString)
            })
        let byClinician = Dictionary(grouping: appointments, by: \.clinicianID)
        for slot in slots {
            let wanted = TimeRange(start: slot.start, end: slot.end.addingTimeInterval(300))!
            #expect(!(byClinician[slot.clinicianID] ?? []).contains { $0.occupiedTime.overlaps(wanted) })
        }
        // Generous: the release-build figure is far lower; this only catches an accidental blow-up.
        #expect(elapsed < .milliseconds(250))
    }
}
