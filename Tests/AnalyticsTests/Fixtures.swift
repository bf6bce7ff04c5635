import Analytics
import Foundation
import Scheduling
import SharedKernel
import Specialists
import Triage

/// Builders for hand-made practice histories, all in Europe/London.
enum Fixture {
    static let practiceID = PracticeID()
    static let london = TimeZone(identifier: "Europe/London")!

    /// Open 09:00–17:00 every day.
    static let practice = PracticeProfile(
        id: practiceID, name: "Riverside Vets", timeZone: "Europe/London",
        openingHours: (1...7).map { OpeningHours(weekday: $0, opensMinute: 9 * 60, closesMinute: 17 * 60) })

    /// An RFC 3339 instant.
    static func utc(_ text: String) -> Date { Timestamp.date(text)! }

    /// A local wall-clock time in London, `yyyy-MM-dd HH:mm` (the first occurrence of a repeated time).
    static func local(_ text: String) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = london
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }).map { Int($0)! }
        return calendar.date(
            from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))!
    }

    static func date(_ text: String) -> LocalDate { LocalDate(text)! }

    /// A fixed UUID ending in `n`, so failures name their patient.
    static func uuid(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", n))! }

    // MARK: - Catalogue

    static let consult = AppointmentType(
        id: Identifier(uuid(9001)), name: "Consultation", defaultDurationMinutes: 20,
        fee: Money(minorUnits: 4500, currency: "GBP"))
    static let cardio = AppointmentType(
        id: Identifier(uuid(9002)), name: "Cardiology consult", defaultDurationMinutes: 40,
        requiredSpecialty: .cardiology, fee: Money(minorUnits: 12050, currency: "GBP"))

    static let roomOne = Room(id: Identifier(uuid(8001)), name: "Consult 1", type: .exam)
    static let roomTwo = Room(id: Identifier(uuid(8002)), name: "Consult 2", type: .exam, isActive: false)

    static func clinician(_ n: Int, _ name: String, _ specialties: [Specialty]) -> Clinician {
        Clinician(
            id: Identifier(uuid(n)), displayName: name, credentials: "MRCVS",
            expertise: specialties.map { Expertise(specialty: $0, proficiency: 4, years: 5) },
            species: [.dog, .cat], maxAppointmentsPerDay: 30, complexityCeiling: 1)
    }

    /// Weekdays (ISO) `days`, `from`–`to` local, with an optional break.
    static func availability(
        _ clinician: Clinician, days: ClosedRange<Int> = 1...5, from: (Int, Int), to: (Int, Int),
        lunch: ((Int, Int), (Int, Int))? = nil, timeOff: [TimeOff] = [], cap: Int? = nil
    ) -> ClinicianAvailability {
        ClinicianAvailability(
            clinicianID: clinician.id,
            weekly: days.map { WeeklyInterval(weekday: $0, from: from, to: to) },
            breaks: lunch.map { lunch in days.map { WeeklyInterval(weekday: $0, from: lunch.0, to: lunch.1) } } ?? [],
            timeOff: timeOff, maxBookedMinutesPerDay: cap)
    }

    /// An appointment record.
    static func visit(
        _ clinician: Clinician, _ type: AppointmentType, _ start: Date, minutes: Int, patient: Int,
        status: AppointmentStatus = .completed, actual: Int? = nil, species: Species? = .dog,
        room: Room? = nil, bookedAt: Date? = nil, cancelledAt: Date? = nil
    ) -> AppointmentRecord {
        let time = TimeRange(start: start, end: start.addingTimeInterval(TimeInterval(minutes * 60)))!
        let appointment = Appointment(
            practiceID: practiceID, patientID: uuid(patient), clinicianID: clinician.id.rawValue,
            appointmentTypeID: type.id, roomID: room?.id, time: time, status: status,
            completedAt: status == .completed ? time.end : nil,
            actualMinutes: status == .completed ? (actual ?? minutes) : nil,
            cancellationReason: status == .cancelled ? "owner rang" : nil)
        return AppointmentRecord(appointment, species: species, bookedAt: bookedAt, cancelledAt: cancelledAt)
    }

    /// A triage arrival of patient `n`, seen `seenAfter` minutes later (never when `nil`).
    static func arrival(_ n: Int, _ level: TriageLevel, _ at: Date, seenAfter minutes: Double?) -> TriageArrival {
        TriageArrival(
            patientID: uuid(n), level: level, arrival: at, firstSeenAt: minutes.map { at.addingTimeInterval($0 * 60) })
    }
}

extension Decimal {
    /// A decimal from its text, exactly.
    init(text: String) { self = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))! }
}

/// Floating-point comparison for figures computed by division.
func close(_ a: Double?, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}
