import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Nearest alternatives to a refused start")
struct NearestAlternativesTests {
    let shift = BookingFixture.range("2026-06-10T08:00:00Z", "2026-06-10T16:00:00Z")

    private func finder() throws -> FreeSlotFinder {
        let bookings = [
            BookingFixture.booking(1, "2026-06-10T10:00:00Z", "2026-06-10T11:00:00Z"),
            BookingFixture.booking(2, "2026-06-10T09:00:00Z", "2026-06-10T12:00:00Z"),
        ]
        return try FreeSlotFinder(
            practice: BookingFixture.practice(), rooms: [],
            timetables: [BookingFixture.timetable(1, working: [shift]), BookingFixture.timetable(2, working: [shift])],
            appointments: bookings)
    }

    private func query(_ clinician: Int?) -> SlotQuery {
        SlotQuery(
            range: shift, durationMinutes: 30, clinicianID: clinician.map(BookingFixture.clinician), gridMinutes: 15)
    }

    @Test(
        "the closest free starts either side of a taken one",
        arguments: [
            (1 as Int?, "2026-06-10T10:15:00Z", "2026-06-10T09:30:00Z", "2026-06-10T11:00:00Z"),
            (2, "2026-06-10T10:15:00Z", "2026-06-10T08:30:00Z", "2026-06-10T12:00:00Z"),
            (nil, "2026-06-10T10:15:00Z", "2026-06-10T09:30:00Z", "2026-06-10T11:00:00Z"),
        ])
    func nearest(clinician: Int?, requested: String, before: String, after: String) throws {
        let answer = try finder().nearestAlternatives(to: BookingFixture.at(requested), for: query(clinician))
        #expect(answer.requestedIsFree == false)
        #expect(answer.before?.start == BookingFixture.at(before))
        #expect(answer.after?.start == BookingFixture.at(after))
        if let clinician { #expect(answer.before?.clinicianID == BookingFixture.clinician(clinician)) }
    }

    @Test("nothing before the earliest allowed start, nothing after the last working day")
    func bounds() throws {
        let answer = try finder().nearestAlternatives(
            to: BookingFixture.at("2026-06-10T15:45:00Z"), for: query(1),
            notBefore: BookingFixture.at("2026-06-10T15:40:00Z"))
        #expect(answer.before == nil)
        #expect(answer.after == nil) // the clinician works only this day
        #expect(answer.requestedIsFree == false) // 15:45 + 30 min runs past closing
    }

    @Test("a free requested start is reported as such, with its neighbours")
    func free() throws {
        let finder = try finder()
        let answer = try finder.nearestAlternatives(to: BookingFixture.at("2026-06-10T08:30:00Z"), for: query(1))
        #expect(answer.requestedIsFree)
        #expect(answer.before?.start == BookingFixture.at("2026-06-10T08:15:00Z"))
        #expect(answer.after?.start == BookingFixture.at("2026-06-10T08:45:00Z"))
        #expect(try finder.isFree(BookingFixture.at("2026-06-10T08:30:00Z"), for: query(1)))
        #expect(try !finder.isFree(BookingFixture.at("2026-06-10T08:31:00Z"), for: query(1))) // off the grid
        #expect(try !finder.isFree(BookingFixture.at("2026-06-10T10:00:00Z"), for: query(1)))
    }
}
