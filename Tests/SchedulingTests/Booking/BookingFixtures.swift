import Foundation
import Scheduling
import SharedKernel

/// Shared builders for the booking tests.
enum BookingFixture {
    static let practiceID = PracticeID()

    /// Parses an RFC 3339 instant.
    static func at(_ text: String) -> Date { Timestamp.date(text)! }

    /// A range between two RFC 3339 instants.
    static func range(_ start: String, _ end: String) -> TimeRange { TimeRange(start: at(start), end: at(end))! }

    /// A clinician id that sorts by its last digit.
    static func clinician(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

    /// A practice in `zone` open `opens…closes` (minutes) on every day of the week.
    static func practice(zone: String = "Europe/London", opens: Int = 9 * 60, closes: Int = 17 * 60) -> PracticeProfile
    {
        PracticeProfile(
            id: practiceID, name: "Riverside Vets", timeZone: zone,
            openingHours: (1...7).map { OpeningHours(weekday: $0, opensMinute: opens, closesMinute: closes) })
    }

    /// A timetable working the whole of `range`.
    static func timetable(
        _ n: Int, working: [TimeRange], unavailable: [TimeRange] = [], specialties: Set<Specialty> = [.generalPractice],
        maxPerDay: Int? = nil
    ) -> ClinicianTimetable {
        ClinicianTimetable(
            clinicianID: clinician(n), specialties: specialties, working: working, unavailable: unavailable,
            maxAppointmentsPerDay: maxPerDay)
    }

    /// An appointment of clinician `n` at `start…end` (RFC 3339).
    static func booking(
        _ n: Int, _ start: String, _ end: String, buffer: Int = 0, room: RoomType? = nil,
        status: AppointmentStatus = .booked, id: Identifier<Appointment> = .init()
    ) -> Appointment {
        Appointment(
            id: id, practiceID: practiceID, patientID: UUID(), clinicianID: clinician(n), appointmentTypeID: .init(),
            roomType: room, time: range(start, end), bufferAfterMinutes: buffer, status: status)
    }

    /// `count` active rooms of `type`.
    static func rooms(_ type: RoomType, _ count: Int) -> [Room] {
        (0..<count).map { Room(name: "\(type.rawValue) \($0 + 1)", type: type) }
    }

    /// Standard appointment type.
    static let consult = AppointmentType(
        name: "Consultation", defaultDurationMinutes: 20, bufferAfterMinutes: 5,
        requiredSpecialty: .generalPractice, requiredRoomType: .exam,
        fee: Money(minorUnits: 4500, currency: "GBP"))
}

extension [FreeSlot] {
    /// Slot starts as RFC 3339 text without fractions, for readable expectations.
    var starts: [String] { map { $0.start.ISO8601Format() } }
}
