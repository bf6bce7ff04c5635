import Foundation
import PropertyBased
import SharedKernel
import Synchronization
import Testing

@testable import Scheduling

// MARK: - Random practices

/// A practice with its rooms, clinicians and bookings, and a kind of appointment to book.
private struct World: Sendable, CustomStringConvertible {
    var practice: PracticeProfile
    var rooms: [Room]
    var timetables: [ClinicianTimetable]
    var appointments: [Appointment]
    var query: SlotQuery
    var days: TimeRange

    var description: String {
        "\(practice.timeZone) grid \(practice.slotGridMinutes) from \(days.start), \(rooms.count) rooms, "
            + "\(timetables.count) clinicians, "
            + "\(appointments.count) bookings, \(query.durationMinutes)+\(query.bufferAfterMinutes) min "
            + "\(query.roomType?.rawValue ?? "no room")"
    }
}

/// Days around both daylight-saving changes of 2026 (Europe and North America) and an ordinary week.
private let firstDays = ["2026-03-28", "2026-03-07", "2026-10-24", "2026-10-31", "2026-06-08"]
private let zones = ["Europe/London", "America/New_York", "UTC", "Australia/Sydney"]

private let worlds = Generator<World, Shrink.None<World>> { rng in
    let zone = zones.randomElement(using: &rng)!
    let grid = [5, 10, 15, 20, 30].randomElement(using: &rng)!
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone)!
    let first = firstDays.randomElement(using: &rng)!
    let parts = first.split(separator: "-").map { Int($0)! }
    let start = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))!
    let dayCount = 3
    let end = calendar.date(byAdding: .day, value: dayCount, to: start)!
    let days = TimeRange(start: start, end: end)!

    // Opening hours: most days open, some late, some short, one closed now and then.
    let hours: [OpeningHours] = (1...7).compactMap { weekday in
        if Int.random(in: 0..<7, using: &rng) == 0 { return nil }
        let opens = Int.random(in: 6...10, using: &rng) * 60 + [0, 30].randomElement(using: &rng)!
        return OpeningHours(
            weekday: weekday, opensMinute: opens,
            closesMinute: min(opens + Int.random(in: 4...12, using: &rng) * 60, 1_440))
    }
    // Closures: now and then a whole day or an afternoon.
    var closures: [PracticeClosure] = []
    if Bool.random(using: &rng) {
        let offset = Int.random(in: 0..<dayCount, using: &rng)
        let day = calendar.dateComponents(
            [.year, .month, .day], from: calendar.date(byAdding: .day, value: offset, to: start)!)
        let local = LocalDate(year: day.year!, month: day.month!, day: day.day!)!
        let from = Bool.random(using: &rng) ? 0 : Int.random(in: 10...16, using: &rng) * 60
        closures.append(
            PracticeClosure(firstDay: local, fromMinute: from, untilMinute: 1_440, reason: "Staff training"))
    }
    let practice = PracticeProfile(
        id: PracticeID(), name: "Random Vets", timeZone: zone, openingHours: hours, closures: closures,
        slotGridMinutes: grid)

    // Rooms: exam and surgery, some out of service.
    var rooms: [Room] = []
    for type in [RoomType.exam, .surgery] {
        for n in 0..<Int.random(in: 0...3, using: &rng) {
            rooms.append(
                Room(name: "\(type.rawValue) \(n + 1)", type: type, isActive: Int.random(in: 0..<5, using: &rng) != 0))
        }
    }

    // Clinicians: shifts per day with a break, some days off, limits.
    let clinicianCount = Int.random(in: 1...3, using: &rng)
    let timetables: [ClinicianTimetable] = (0..<clinicianCount).map { n in
        var working: [TimeRange] = []
        var unavailable: [TimeRange] = []
        for offset in 0..<dayCount {
            let day = calendar.date(byAdding: .day, value: offset, to: start)!
            guard Int.random(in: 0..<5, using: &rng) != 0 else { continue }
            let from = calendar.date(byAdding: .minute, value: Int.random(in: 6...11, using: &rng) * 60, to: day)!
            let until = from.addingTimeInterval(Double(Int.random(in: 4...10, using: &rng)) * 3_600)
            working.append(TimeRange(start: from, end: until)!)
            if Bool.random(using: &rng) {
                let lunch = calendar.date(
                    byAdding: .minute, value: 12 * 60 + Int.random(in: 0...4, using: &rng) * 15, to: day)!
                unavailable.append(TimeRange(start: lunch, end: lunch.addingTimeInterval(30 * 60))!)
            }
        }
        return ClinicianTimetable(
            clinicianID: UUID(),
            specialties: Bool.random(using: &rng) ? [.generalPractice, .softTissueSurgery] : [.generalPractice],
            working: working, unavailable: unavailable,
            maxAppointmentsPerDay: Int.random(in: 0..<3, using: &rng) == 0 ? Int.random(in: 1...6, using: &rng) : nil,
            maxConsecutiveSurgeryMinutes: Bool.random(using: &rng) ? Int.random(in: 60...180, using: &rng) : nil)
    }

    // Bookings already made: on the grid or not, with and without rooms, some cancelled.
    var appointments: [Appointment] = []
    for _ in 0..<Int.random(in: 0...24, using: &rng) {
        let clinician = timetables.randomElement(using: &rng)!
        let startAt = start.addingTimeInterval(Double(Int.random(in: 0..<(dayCount * 96), using: &rng)) * 900)
        let minutes = [10, 15, 20, 30, 45, 60, 90].randomElement(using: &rng)!
        let roomType: RoomType? = [nil, .exam, .surgery].randomElement(using: &rng)!
        let ofType = rooms.filter { $0.type == roomType }
        // A room of its own most of the time; none (made before rooms were assigned) now and then.
        let room = Int.random(in: 0..<6, using: &rng) == 0 ? nil : ofType.randomElement(using: &rng)?.id
        appointments.append(
            Appointment(
                practiceID: practice.id, patientID: UUID(), clinicianID: clinician.clinicianID,
                appointmentTypeID: .init(),
                roomType: roomType, roomID: roomType == nil ? nil : room,
                time: TimeRange(start: startAt, end: startAt.addingTimeInterval(Double(minutes) * 60))!,
                bufferAfterMinutes: [0, 5, 10].randomElement(using: &rng)!,
                status: Int.random(in: 0..<6, using: &rng) == 0 ? .cancelled : .booked))
    }

    let roomType: RoomType? = [nil, .exam, .exam, .surgery].randomElement(using: &rng)!
    let query = SlotQuery(
        range: days, durationMinutes: [10, 15, 20, 30, 45, 60, 120].randomElement(using: &rng)!,
        bufferAfterMinutes: [0, 5, 10, 15].randomElement(using: &rng)!,
        specialty: roomType == .surgery && Bool.random(using: &rng) ? .softTissueSurgery : nil, roomType: roomType)
    return World(
        practice: practice, rooms: rooms, timetables: timetables, appointments: appointments, query: query, days: days)
}

// MARK: - What the store would refuse

/// The store's own constraints on a set of bookings: no clinician and no room holds two
/// appointments at once (buffers included). Returns what breaks them.
private func constraintBreaks(_ appointments: [Appointment]) -> [String] {
    let holding = appointments.filter(\.status.holdsTime)
    var breaks: [String] = []
    for (i, a) in holding.enumerated() {
        for b in holding[(i + 1)...] where a.occupiedTime.overlaps(b.occupiedTime) {
            if a.clinicianID == b.clinicianID {
                breaks.append("clinician double-booked at \(a.time.start) and \(b.time.start)")
            }
            if let room = a.roomID, room == b.roomID {
                breaks.append("room double-booked at \(a.time.start) and \(b.time.start)")
            }
        }
    }
    return breaks
}

private struct Counts: Sendable {
    var worlds = 0, offered = 0, accepted = 0, sampled = 0, refusedWithReason = 0, booked = 0
}

// MARK: - Properties

@Suite("Anything offered can be booked: the free-slot finder and the booking decision are one rule")
struct OfferedIsBookablePropertyTests {
    /// Every offered slot is accepted with a free room, every accepted start is offered, every
    /// refusal names its reason, and booking what is offered never breaks the store's constraints.
    @Test("over random practices (rooms, buffers, closures, daylight-saving days), offered ⇔ bookable")
    func offeredIsBookable() async {
        let counts = Mutex(Counts())
        await propertyCheck(count: 250, input: worlds) { world in
            var appointments = world.appointments
            var finder = try! FreeSlotFinder(
                practice: world.practice, rooms: world.rooms, timetables: world.timetables, appointments: appointments)
            var tally = Counts(worlds: 1)
            for timetable in world.timetables {
                var query = world.query
                query.clinicianID = timetable.clinicianID
                let offered = try! finder.slots(for: query)
                let offeredStarts = Set(offered.map(\.start))
                // Every offered slot is accepted by the decision, with a room of the type that is free.
                for slot in offered {
                    tally.offered += 1
                    guard case .success(let room) = try! finder.decide(slot.start, for: query) else {
                        Issue.record("offered \(slot.start) refused in \(world)")
                        continue
                    }
                    tally.accepted += 1
                    if let roomType = query.roomType {
                        #expect(room?.type == roomType && room?.isActive == true, "\(world)")
                    } else {
                        #expect(room == nil)
                    }
                }
                // Every start the decision accepts is offered; every refusal has a named reason.
                let grid = TimeInterval(world.practice.slotGridMinutes * 60)
                for step in stride(from: 0, to: world.days.duration, by: grid) {
                    let start = world.days.start.addingTimeInterval(step)
                    tally.sampled += 1
                    switch try! finder.decide(start, for: query) {
                    case .success:
                        #expect(offeredStarts.contains(start), "accepted \(start) was not offered in \(world)")
                    case .failure(let obstacle):
                        #expect(!offeredStarts.contains(start))
                        #expect(obstacle != .notFree, "refusal of \(start) names no reason in \(world)")
                        tally.refusedWithReason += 1
                    }
                }
            }
            // Book what is offered, one after another, as a busy desk would: the store's
            // constraints hold after every booking, and each later offer is still bookable.
            for _ in 0..<6 {
                guard let timetable = world.timetables.randomElement() else { break }
                var query = world.query
                query.clinicianID = timetable.clinicianID
                guard let slot = try! finder.slots(for: query).randomElement(),
                    case .success(let room) = try! finder.decide(slot.start, for: query)
                else { continue }
                appointments.append(
                    Appointment(
                        practiceID: world.practice.id, patientID: UUID(), clinicianID: timetable.clinicianID,
                        appointmentTypeID: .init(), roomType: query.roomType, roomID: room?.id,
                        time: TimeRange(start: slot.start, end: slot.end)!, bufferAfterMinutes: query.bufferAfterMinutes
                    ))
                tally.booked += 1
                finder = try! FreeSlotFinder(
                    practice: world.practice, rooms: world.rooms, timetables: world.timetables,
                    appointments: appointments)
                let before = constraintBreaks(world.appointments).count
                let after = constraintBreaks(appointments)
                #expect(after.count == before, "booking an offered slot broke: \(after) in \(world)")
            }
            counts.withLock {
                $0.worlds += tally.worlds
                $0.offered += tally.offered
                $0.accepted += tally.accepted
                $0.sampled += tally.sampled
                $0.refusedWithReason += tally.refusedWithReason
                $0.booked += tally.booked
            }
        }
        let total = counts.withLock { $0 }
        print(
            "offered-is-bookable: \(total.worlds) random practices, \(total.offered) slots offered, "
                + "\(total.accepted) accepted, "
                + "\(total.sampled) starts asked, \(total.refusedWithReason) refused with a reason, \(total.booked) "
                + "offered slots booked in turn"
        )
        #expect(total.offered == total.accepted)
        #expect(total.offered > 1_000, "the random practices offered too few slots to say anything")
    }

    @Test(
        """
        two rooms each holding half of a time: the finder does not offer it, and the booking decision refuses it \
        naming the room
        """
    )
    func fragmentedRooms() throws {
        let rooms = [Room(name: "Consult 1", type: .exam), Room(name: "Consult 2", type: .exam)]
        let shift = BookingFixture.range("2026-06-10T08:00:00Z", "2026-06-10T16:00:00Z")
        let first = BookingFixture.booking(2, "2026-06-10T09:00:00Z", "2026-06-10T09:30:00Z", room: .exam)
        let second = BookingFixture.booking(3, "2026-06-10T09:30:00Z", "2026-06-10T10:00:00Z", room: .exam)
        var a = first
        var b = second
        a.roomID = rooms[0].id
        b.roomID = rooms[1].id
        let finder = try FreeSlotFinder(
            practice: BookingFixture.practice(), rooms: rooms,
            timetables: [BookingFixture.timetable(1, working: [shift])], appointments: [a, b])
        let query = SlotQuery(
            range: BookingFixture.range("2026-06-10T00:00:00Z", "2026-06-11T00:00:00Z"), durationMinutes: 30,
            roomType: .exam, clinicianID: BookingFixture.clinician(1), gridMinutes: 15)
        // At 09:15 only one room is in use at any instant, yet neither room is free for the whole half hour.
        let start = BookingFixture.at("2026-06-10T09:15:00Z")
        #expect(try finder.slots(for: query).contains { $0.start == start } == false)
        #expect(try finder.decide(start, for: query) == .failure(.noRoomFree(.exam)))
        // 10:00 is free in both; the first room by name is taken.
        #expect(try finder.decide(BookingFixture.at("2026-06-10T10:00:00Z"), for: query) == .success(rooms[0]))
    }
}
