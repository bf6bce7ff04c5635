import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Free slots: availability, buffers, grid, rooms")
struct FreeSlotFinderTests {
    let day = BookingFixture.range("2026-06-10T00:00:00Z", "2026-06-11T00:00:00Z")
    // 2026-06-10 is in British summer time: opening 09:00–17:00 local is 08:00Z–16:00Z.
    let shift = BookingFixture.range("2026-06-10T08:00:00Z", "2026-06-10T16:00:00Z")

    private func finder(
        _ timetables: [ClinicianTimetable], _ appointments: [Appointment] = [],
        rooms: [Room] = BookingFixture.rooms(.exam, 1),
        opens: Int = 540, closes: Int = 1020
    ) throws -> FreeSlotFinder {
        try FreeSlotFinder(
            practice: BookingFixture.practice(opens: opens, closes: closes), rooms: rooms, timetables: timetables,
            appointments: appointments)
    }

    private func query(
        _ duration: Int = 30, buffer: Int = 0, grid: Int = 15, room: RoomType? = nil, range: TimeRange? = nil
    ) -> SlotQuery {
        SlotQuery(
            range: range ?? day, durationMinutes: duration, bufferAfterMinutes: buffer, roomType: room,
            gridMinutes: grid)
    }

    @Test("opening hours and working time bound the slots; the last slot ends at closing")
    func bounds() throws {
        let working = BookingFixture.range("2026-06-10T07:00:00Z", "2026-06-10T10:00:00Z")
        let slots = try finder([BookingFixture.timetable(1, working: [working])]).slots(for: query(60, grid: 30))
        #expect(slots.starts == ["2026-06-10T08:00:00Z", "2026-06-10T08:30:00Z", "2026-06-10T09:00:00Z"])
        #expect(slots.last?.end == BookingFixture.at("2026-06-10T10:00:00Z"))
    }

    @Test(
        "starts fall on the grid after local midnight",
        arguments: [
            ("2026-06-10T08:07:00Z", 5, "2026-06-10T08:10:00Z"), ("2026-06-10T08:07:00Z", 15, "2026-06-10T08:15:00Z"),
            ("2026-06-10T08:15:00Z", 15, "2026-06-10T08:15:00Z"), ("2026-06-10T08:00:01Z", 1, "2026-06-10T08:01:00Z"),
        ])
    func grid(workStart: String, grid: Int, first: String) throws {
        let working = TimeRange(start: BookingFixture.at(workStart), end: BookingFixture.at("2026-06-10T12:00:00Z"))!
        let slots = try finder([BookingFixture.timetable(1, working: [working])]).slots(for: query(20, grid: grid))
        #expect(slots.first?.start == BookingFixture.at(first))
    }

    @Test(
        "an existing booking's buffer keeps the clinician busy after it",
        arguments: [
            (0, "2026-06-10T09:00:00Z"), (10, "2026-06-10T09:10:00Z"), (12, "2026-06-10T09:15:00Z"),
        ])
    func existingBuffer(buffer: Int, next: String) throws {
        let booking = BookingFixture.booking(1, "2026-06-10T08:30:00Z", "2026-06-10T09:00:00Z", buffer: buffer)
        let slots = try finder([BookingFixture.timetable(1, working: [shift])], [booking])
            .slots(for: query(30, grid: 5, range: BookingFixture.range("2026-06-10T08:30:00Z", "2026-06-10T12:00:00Z")))
        #expect(slots.first?.start == BookingFixture.at(next))
    }

    @Test(
        "the new appointment's buffer must not run into the next booking",
        arguments: [
            (0, "2026-06-10T09:30:00Z"), (5, "2026-06-10T09:25:00Z"), (30, "2026-06-10T09:00:00Z"),
        ])
    func ownBuffer(buffer: Int, last: String) throws {
        let booking = BookingFixture.booking(1, "2026-06-10T10:00:00Z", "2026-06-10T11:00:00Z")
        let slots = try finder([BookingFixture.timetable(1, working: [shift])], [booking])
            .slots(
                for: query(
                    30, buffer: buffer, grid: 5,
                    range: BookingFixture.range("2026-06-10T08:00:00Z", "2026-06-10T10:00:00Z")))
        #expect(slots.last?.start == BookingFixture.at(last))
    }

    @Test("the new appointment's buffer may run past closing")
    func bufferPastClosing() throws {
        let slots = try finder([BookingFixture.timetable(1, working: [shift])]).slots(
            for: query(30, buffer: 15, grid: 30))
        #expect(slots.last?.start == BookingFixture.at("2026-06-10T15:30:00Z"))
    }

    @Test("breaks and time off (unavailable time) are never booked into; touching edges are fine")
    func unavailable() throws {
        let lunch = BookingFixture.range("2026-06-10T11:30:00Z", "2026-06-10T12:30:00Z")
        let slots = try finder([BookingFixture.timetable(1, working: [shift], unavailable: [lunch])])
            .slots(
                for: query(30, grid: 30, range: BookingFixture.range("2026-06-10T10:00:00Z", "2026-06-10T13:00:00Z")))
        #expect(
            slots.starts == [
                "2026-06-10T10:00:00Z", "2026-06-10T10:30:00Z", "2026-06-10T11:00:00Z",
                "2026-06-10T12:30:00Z",
            ])
    }

    @Test("a clinician on time off for the day has no slots")
    func dayOff() throws {
        let slots = try finder([
            BookingFixture.timetable(1, working: [shift], unavailable: [day]),
            BookingFixture.timetable(2, working: [shift]),
        ])
        .slots(for: query(30, grid: 30))
        #expect(Set(slots.map(\.clinicianID)) == [BookingFixture.clinician(2)])
    }

    @Test(
        "room capacity: a slot needs a free room of the type for its whole time and buffer",
        arguments: [
            (1, 1, false), (2, 1, true), (2, 2, false), (3, 2, true), (0, 0, false),
        ])
    func roomCapacity(rooms: Int, busy: Int, offered: Bool) throws {
        let others = (0..<busy).map {
            BookingFixture.booking(10 + $0, "2026-06-10T09:00:00Z", "2026-06-10T09:30:00Z", room: .surgery)
        }
        let timetables =
            [BookingFixture.timetable(1, working: [shift])]
            + (0..<busy).map { BookingFixture.timetable(10 + $0, working: [shift]) }
        let finder = try finder(
            timetables, others, rooms: BookingFixture.rooms(.surgery, rooms) + BookingFixture.rooms(.exam, 3))
        var wanted = query(
            30, grid: 30, room: .surgery, range: BookingFixture.range("2026-06-10T09:00:00Z", "2026-06-10T09:00:01Z"))
        wanted.clinicianID = BookingFixture.clinician(1)
        #expect(try finder.slots(for: wanted).count == (offered ? 1 : 0))
    }

    @Test("room capacity counts buffers and frees the room when a booking ends")
    func roomEdges() throws {
        let surgery = BookingFixture.booking(
            2, "2026-06-10T09:00:00Z", "2026-06-10T10:00:00Z", buffer: 15, room: .surgery)
        let finder = try finder(
            [BookingFixture.timetable(1, working: [shift]), BookingFixture.timetable(2, working: [shift])], [surgery],
            rooms: BookingFixture.rooms(.surgery, 1))
        var wanted = query(
            30, buffer: 10, grid: 5, room: .surgery,
            range: BookingFixture.range("2026-06-10T08:00:00Z", "2026-06-10T11:00:00Z"))
        wanted.clinicianID = BookingFixture.clinician(1)
        let starts = try finder.slots(for: wanted).starts
        #expect(starts.contains("2026-06-10T08:20:00Z")) // 08:20 + 30 + 10 buffer = 09:00: touches, allowed
        #expect(!starts.contains("2026-06-10T08:25:00Z"))
        #expect(!starts.contains("2026-06-10T10:10:00Z")) // the room is cleaned until 10:15
        #expect(starts.contains("2026-06-10T10:15:00Z"))
    }

    @Test(
        "cancelled and no-show appointments free their time; the excluded appointment is ignored",
        arguments: [
            (AppointmentStatus.cancelled, false, true), (.noShow, false, true), (.booked, false, false),
            (.checkedIn, false, false),
            (.completed, false, false), (.booked, true, true),
        ])
    func statuses(status: AppointmentStatus, exclude: Bool, offered: Bool) throws {
        let id = Identifier<Appointment>()
        let booking = BookingFixture.booking(1, "2026-06-10T09:00:00Z", "2026-06-10T09:30:00Z", status: status, id: id)
        var wanted = query(30, grid: 30, range: BookingFixture.range("2026-06-10T09:00:00Z", "2026-06-10T09:00:01Z"))
        wanted.excludingAppointmentID = exclude ? id : nil
        #expect(
            try finder([BookingFixture.timetable(1, working: [shift])], [booking]).slots(for: wanted).count
                == (offered ? 1 : 0))
    }

    @Test(
        "the daily appointment limit closes the rest of the local day",
        arguments: [(2, 2, false), (3, 2, true), (nil, 5, true)] as [(Int?, Int, Bool)])
    func dailyLimit(limit: Int?, booked: Int, offered: Bool) throws {
        let bookings = (0..<booked).map { hour in
            BookingFixture.booking(
                1, String(format: "2026-06-10T%02d:00:00Z", 8 + hour),
                String(format: "2026-06-10T%02d:30:00Z", 8 + hour))
        }
        let finder = try finder([BookingFixture.timetable(1, working: [shift], maxPerDay: limit)], bookings)
        #expect(try !finder.slots(for: query(30, grid: 30)).isEmpty == offered)
    }

    @Test("specialty and clinician filters; same-instant slots are ordered by clinician")
    func filters() throws {
        let finder = try finder([
            BookingFixture.timetable(3, working: [shift], specialties: [.cardiology]),
            BookingFixture.timetable(2, working: [shift]),
            BookingFixture.timetable(1, working: [shift], specialties: [.cardiology, .generalPractice]),
        ])
        var wanted = query(30, grid: 30, range: BookingFixture.range("2026-06-10T08:00:00Z", "2026-06-10T08:00:01Z"))
        #expect(try finder.slots(for: wanted).map(\.clinicianID) == [1, 2, 3].map(BookingFixture.clinician))
        wanted.specialty = .cardiology
        #expect(try finder.slots(for: wanted).map(\.clinicianID) == [1, 3].map(BookingFixture.clinician))
        wanted.clinicianID = BookingFixture.clinician(3)
        #expect(try finder.slots(for: wanted).map(\.clinicianID) == [BookingFixture.clinician(3)])
        wanted.clinicianID = nil
        wanted.limit = 1
        #expect(try finder.slots(for: wanted).count == 1)
    }

    @Test("an appointment type fills in duration, buffer, specialty and room")
    func appointmentTypeQuery() {
        let query = SlotQuery(range: day, appointmentType: BookingFixture.consult)
        #expect(query.durationMinutes == 20 && query.bufferAfterMinutes == 5)
        #expect(query.specialty == .generalPractice && query.roomType == .exam && query.gridMinutes == nil)
        #expect(
            SlotQuery(range: day, appointmentType: BookingFixture.consult, durationMinutes: 35).durationMinutes == 35)
    }

    @Test("invalid queries and zones are refused, naming the fields")
    func invalid() throws {
        let finder = try finder([])
        let bad = SlotQuery(
            range: BookingFixture.range("2026-06-01T00:00:00Z", "2026-09-01T00:00:00Z"), durationMinutes: 0,
            bufferAfterMinutes: -1, gridMinutes: 7, limit: 0)
        do {
            _ = try finder.slots(for: bad)
            Issue.record("accepted")
        } catch {
            #expect(
                error.errors.map(\.field) == ["durationMinutes", "bufferAfterMinutes", "gridMinutes", "limit", "range"])
        }
        #expect(throws: ValidationError.self) {
            try FreeSlotFinder(
                practice: BookingFixture.practice(zone: "Mars/Olympus"), rooms: [], timetables: [], appointments: [])
        }
    }
}
