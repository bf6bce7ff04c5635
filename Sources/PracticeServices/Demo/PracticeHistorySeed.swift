import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

/// Adds a generated past to a practice (`vetnet seed --history DAYS`), and a schedule set-up
/// to a generated practice that has patients but no clinicians (`vetnet seed --scale
/// --clinicians N`), so analytics has something true to work on.
public enum PracticeHistorySeed {
    /// What was added.
    public struct Result: Sendable {
        /// Counts written.
        public let summary: HistoryLoadSummary
        /// The stretch of time the history covers (the booked days ahead included).
        public let range: DateInterval
    }

    /// Why a history cannot be added.
    public enum Refusal: Error, CustomStringConvertible {
        /// The practice has no clinicians with availability, no appointment types or no patients.
        case nothingToBook(String)
        /// The practice already has appointments or arrivals in the days the history would cover.
        case alreadyHasHistory(DateInterval)

        public var description: String {
            switch self {
            case .nothingToBook(let what):
                return "the practice has no \(what) to build a history from"
            case .alreadyHasHistory(let range):
                return
                    "the practice already has appointments or triage arrivals between "
                    + "\(Timestamp.string(range.start)) and "
                    + "\(Timestamp.string(range.end)); a history is only added where there is none"
            }
        }
    }

    /// Generates `days` local days of past up to `now` (and `aheadDays` of bookings after it)
    /// for the scope's practice from its own set-up, with generator seed `seed`, and writes it
    /// in one transaction. Reproducible: the same practice, `now` and seed give the same history.
    public static func seed(
        store: some AppointmentDetailsRepository & SchedulingRepository & AnalyticsHistorySource, scope: AccessScope,
        days: Int,
        aheadDays: Int = 14, seed: UInt64, now: Date,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> Result {
        let practice = try await store.schedulingPractice(scope: scope)
        guard let zone = TimeZone(identifier: practice.timeZone) else {
            throw ValidationError(field: "timeZone", message: "is not a time zone")
        }
        let calendar = PracticeCalendar(timeZone: zone)
        var first = calendar.day(containing: now)
        for _ in 0..<max(0, days - 1) { first = calendar.day(containing: first.start.addingTimeInterval(-1)) }
        var last = calendar.day(containing: now)
        for _ in 0..<max(0, aheadDays) { last = calendar.day(containing: last.end) }
        let range = DateInterval(start: first.start, end: last.end)
        if try await store.hasActivity(scope: scope, in: DateInterval(start: first.start, end: max(first.start, now))) {
            throw Refusal.alreadyHasHistory(DateInterval(start: first.start, end: now))
        }
        guard let window = TimeRange(start: range.start, end: range.end) else {
            throw ValidationError(field: "days", message: "must be positive")
        }
        let data = try await store.schedulingData(scope: scope, range: window)
        let patients = try await store.bookablePatients(scope: scope)
        let availabilities = data.availabilities.mapValues(\.value)
        guard data.clinicians.contains(where: { availabilities[$0.id] != nil }) else {
            throw Refusal.nothingToBook("clinicians with working hours")
        }
        guard !data.types.isEmpty else { throw Refusal.nothingToBook("appointment types") }
        guard !patients.isEmpty else { throw Refusal.nothingToBook("active patients") }

        var busy: [UUID: [TimeRange]] = [:]
        for appointment in data.appointments where appointment.status.holdsTime {
            busy[appointment.clinicianID, default: []].append(appointment.occupiedTime)
            if let room = appointment.roomID { busy[room.rawValue, default: []].append(appointment.occupiedTime) }
        }
        let setup = PracticeHistoryGenerator.Setup(
            practice: practice, clinicians: data.clinicians, availabilities: availabilities, types: data.types,
            rooms: data.rooms,
            patients: patients.map {
                PracticeHistoryGenerator.Patient(id: $0.id, species: $0.species, birthDate: $0.birthDate)
            }, busy: busy)
        // The practice's id is mixed in, so two practices seeded alike never share appointment ids.
        let mixed = withUnsafeBytes(of: practice.id.rawValue.uuid) { $0.reduce(seed) { ($0 &* 31) &+ UInt64($1) } }
        let output = PracticeHistoryGenerator(setup: setup, days: days, aheadDays: aheadDays, now: now, seed: mixed)
            .generate()
        let summary = try await store.bulkLoadHistory(
            appointments: output.appointments, arrivals: output.arrivals, weights: output.weights,
            scope: scope, progress: progress)
        return Result(summary: summary, range: range)
    }

    // MARK: - A schedule for a generated practice

    /// Gives the scope's practice `count` clinicians (specialties and staggered shifts as in the
    /// demo practice, cycled), rooms in proportion and the demo's appointment types, each
    /// created as an administrator would (validated, audited). Everyone works full time:
    /// weekdays 08:00–18:00 with a 45-minute lunch (staggered), every third clinician Saturday morning too. For
    /// performance data sets
    /// made with `vetnet seed --scale`, whose practice has patients but no schedule.
    public static func addSchedule(store: some SchedulingRepository, scope: AccessScope, clinicians count: Int)
        async throws
    {
        var random = SeededGenerator(seed: 20_261_201)
        var names = Set<String>()
        for index in 0..<count {
            let profile = DemoPracticeData.clinicians[index % DemoPracticeData.clinicians.count]
            var name = "Dr \(random.pick(DemoPracticeData.firstNames)) \(random.pick(DemoPracticeData.lastNames))"
            while names.contains(name) {
                name = "Dr \(random.pick(DemoPracticeData.firstNames)) \(random.pick(DemoPracticeData.lastNames))"
            }
            names.insert(name)
            let clinician = try await store.createClinician(
                Clinician(
                    displayName: name, credentials: profile.1,
                    expertise: profile.2.map { Expertise(specialty: $0.0, proficiency: $0.1, years: $0.2) },
                    species: Set(profile.3), maxAppointmentsPerDay: 40, complexityCeiling: profile.5), scope: scope)
            _ = try await store.setAvailability(
                fullTimeAvailability(for: clinician.id, index: index), scope: scope, expectedVersion: nil)
        }
        let rooms: [(String, RoomType, Int)] = [
            ("Consult", .exam, max(4, count * 3 / 4)), ("Theatre", .surgery, max(1, count / 6)),
            ("Dental suite", .dental, max(1, count / 10)), ("Imaging", .imaging, max(1, count / 10)),
            ("Isolation ward", .isolation, 1),
        ]
        for (name, type, number) in rooms {
            for index in 1...number {
                _ = try await store.createRoom(Room(name: "\(name) \(index)", type: type), scope: scope)
            }
        }
        for type in DemoPracticeData.appointmentTypes {
            _ = try await store.createAppointmentType(
                AppointmentType(
                    name: type.name, defaultDurationMinutes: type.defaultDurationMinutes,
                    bufferAfterMinutes: type.bufferAfterMinutes,
                    requiredSpecialty: type.requiredSpecialty, requiredRoomType: type.requiredRoomType, fee: type.fee),
                scope: scope)
        }
    }

    static func fullTimeAvailability(for clinician: Identifier<Clinician>, index: Int) -> ClinicianAvailability {
        let lunch = 12 * 60 + (index % 3) * 30
        var weekly = (1...5).map { WeeklyInterval(weekday: $0, startMinute: 8 * 60, endMinute: 18 * 60) }
        if index % 3 == 0 { weekly.append(WeeklyInterval(weekday: 6, startMinute: 9 * 60, endMinute: 13 * 60)) }
        return ClinicianAvailability(
            clinicianID: clinician, weekly: weekly,
            breaks: (1...5).map { WeeklyInterval(weekday: $0, startMinute: lunch, endMinute: lunch + 45) },
            maxBookedMinutesPerDay: nil)
    }
}
