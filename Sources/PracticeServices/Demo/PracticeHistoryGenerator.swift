import Analytics
import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import Triage

/// Generates a realistic, reproducible past for a practice from its own clinicians, rota,
/// rooms, appointment types and patients: bookings made days or weeks ahead, completions
/// with actual durations that depend on the type, the species and the clinician, no-shows,
/// late and early cancellations (early ones usually re-let), triage arrivals in the evening
/// peak with first-seen times that slip when the emergency service is thin, and weighings.
/// The coming days are booked too, thinning out with distance, so bottlenecks have
/// something to show.
///
/// The same inputs and seed always give the same history, ids included. The inputs are
/// put in a fixed order first (clinicians by name, types by name, rooms by name, patients
/// by id), so the order a store returns them in does not matter.
package struct PracticeHistoryGenerator {
    /// A patient the history may book.
    package struct Patient: Sendable {
        let id: UUID
        let species: Species
        let birthDate: Date?
    }

    /// The practice's set-up.
    package struct Setup: Sendable {
        var practice: PracticeProfile
        var clinicians: [Clinician]
        var availabilities: [Identifier<Clinician>: ClinicianAvailability]
        var types: [AppointmentType]
        var rooms: [Room]
        var patients: [Patient]
        /// Time already booked (appointments the practice has): clinician or room id → intervals.
        var busy: [UUID: [TimeRange]] = [:]
    }

    /// What was generated.
    package struct Output: Sendable {
        var appointments: [AnalyticsAppointment] = []
        var arrivals: [TriageArrival] = []
        var weights: [WeightMeasurement] = []
    }

    /// An appointment with the facts the appointment row keeps beside it.
    package typealias AnalyticsAppointment = AppointmentRecord

    package let setup: Setup
    /// Local days of past generated, ending with today.
    package let days: Int
    /// Local days after today that get bookings.
    package let aheadDays: Int
    /// The present: appointments before it have an outcome, those after are booked.
    package let now: Date
    package let seed: UInt64

    // MARK: - Generation

    package func generate() -> Output {
        guard let zone = TimeZone(identifier: setup.practice.timeZone), days > 0 || aheadDays > 0 else {
            return Output()
        }
        let calendar = PracticeCalendar(timeZone: zone)
        var random = SeededGenerator(seed: seed)
        let clinicians = setup.clinicians.sorted { ($0.displayName, $0.id) < ($1.displayName, $1.id) }
        let types = setup.types.sorted { $0.name < $1.name }
        let rooms = setup.rooms.filter(\.isActive).sorted { $0.name < $1.name }
        let patients = setup.patients.sorted { $0.id.uuidString < $1.id.uuidString }
        var bySpecies: [Species: [Patient]] = [:]
        for patient in patients { bySpecies[patient.species, default: []].append(patient) }
        let traits = clinicians.indices.map { _ in ClinicianTraits(&random) }
        var output = Output()

        let today = calendar.day(containing: now)
        var day = today
        for _ in 0..<max(0, days - 1) { day = calendar.day(containing: day.start.addingTimeInterval(-1)) }
        let emergencyClinicians = clinicians.filter { $0.expertise.contains { $0.specialty == .emergencyCriticalCare } }
            .count
        let totalDays = max(0, days) + max(0, aheadDays)
        for index in 0..<totalDays {
            let daysAhead = index - (max(0, days) - 1)
            let weekday = Calendar.iso8601Weekday(of: day.start, in: setup.practice.timeZone)
            // Rooms are checked against the day's bookings only: a year of them would make every check slow.
            var busyToday: [UUID: [TimeRange]] = [:]
            for (id, intervals) in setup.busy {
                let today = intervals.filter { $0.overlaps(day) }
                if !today.isEmpty { busyToday[id] = today }
            }
            var roomBusy = busyToday
            for (position, clinician) in clinicians.enumerated() {
                guard let availability = setup.availabilities[clinician.id] else { continue }
                let windows = availability.windows(overlapping: day, timeZone: zone).sorted { $0.start < $1.start }
                for window in windows {
                    fill(
                        window, clinician: clinician, traits: traits[position], types: types, rooms: rooms,
                        bySpecies: bySpecies,
                        daysAhead: daysAhead, weekday: weekday, clinicianBusy: busyToday[clinician.id.rawValue] ?? [],
                        roomBusy: &roomBusy, random: &random, output: &output)
                }
            }
            if daysAhead <= 0 {
                arrivals(
                    on: day, weekday: weekday, emergencyClinicians: emergencyClinicians, patients: patients,
                    random: &random,
                    output: &output)
            }
            day = calendar.day(containing: day.end)
        }
        output.weights = weighings(output.appointments, patients: patients, random: &random)
        return output
    }

    /// How one clinician works: how full their days are, how fast they are against the
    /// booked length, how often their patients fail to come.
    package struct ClinicianTraits {
        let fill: Double
        let speed: Double
        let noShowExtra: Double

        init(_ random: inout SeededGenerator) {
            fill = 0.74 + 0.24 * random.unit()
            speed = 0.9 + 0.25 * random.unit()
            noShowExtra = random.chance(0.25) ? 0.03 : 0
        }
    }

    // MARK: - Appointments

    private func fill(
        _ window: TimeRange, clinician: Clinician, traits: ClinicianTraits, types: [AppointmentType], rooms: [Room],
        bySpecies: [Species: [Patient]], daysAhead: Int, weekday: Int, clinicianBusy: [TimeRange],
        roomBusy: inout [UUID: [TimeRange]],
        random: inout SeededGenerator, output: inout Output
    ) {
        let choices = types.compactMap { type -> (AppointmentType, Double)? in
            guard (1...720).contains(type.defaultDurationMinutes) else { return nil }
            if let needed = type.requiredSpecialty {
                guard let expertise = clinician.expertise.first(where: { $0.specialty == needed }) else { return nil }
                return (type, needed == .emergencyCriticalCare ? 1.5 : 1.5 + Double(expertise.proficiency))
            }
            return (type, type.defaultDurationMinutes <= 15 ? 3 : 5)
        }
        guard !choices.isEmpty else { return }
        // Bookings thin out with distance: a slot three weeks away is rarely taken yet.
        let fill = daysAhead <= 0 ? traits.fill : traits.fill * max(0.15, 1 - Double(daysAhead) / Double(aheadDays + 3))
        var t = window.start
        var refillAfter: Date?
        var attempts = 0
        while t < window.end, attempts < 400 {
            attempts += 1
            if refillAfter == nil, !random.chance(fill) {
                t = t.addingTimeInterval(Double(5 * (1 + random.below(2))) * 60)
                continue
            }
            let type = random.weighted(choices)
            if daysAhead > 1, type.requiredSpecialty == .emergencyCriticalCare {
                refillAfter = nil
                t = t.addingTimeInterval(300)
                continue
            }
            let end = t.addingTimeInterval(Double(type.defaultDurationMinutes) * 60)
            let occupiedEnd = end.addingTimeInterval(Double(type.bufferAfterMinutes) * 60)
            guard let occupied = TimeRange(start: t, end: occupiedEnd), occupiedEnd <= window.end,
                !clinicianBusy.contains(where: { $0.overlaps(occupied) })
            else {
                refillAfter = nil
                t = t.addingTimeInterval(300)
                continue
            }
            var room: Room?
            if let needed = type.requiredRoomType {
                room = rooms.first {
                    $0.type == needed && !(roomBusy[$0.id.rawValue] ?? []).contains(where: { $0.overlaps(occupied) })
                }
                if room == nil {
                    refillAfter = nil
                    t = t.addingTimeInterval(300)
                    continue
                }
            }
            guard
                let patient = pickPatient(
                    clinician: clinician, type: type, on: t, bySpecies: bySpecies, random: &random),
                let time = TimeRange(start: t, end: end)
            else {
                refillAfter = nil
                t = t.addingTimeInterval(300)
                continue
            }
            let record = outcome(
                time: time, type: type, clinician: clinician, traits: traits, patient: patient, room: room,
                weekday: weekday, bookedAfter: refillAfter, random: &random)
            output.appointments.append(record)
            if record.appointment.status.holdsTime {
                if let room { roomBusy[room.id.rawValue, default: []].append(occupied) }
                refillAfter = nil
                t = occupiedEnd
            } else if record.appointment.status == .cancelled, let cancelled = record.cancelledAt,
                t.timeIntervalSince(cancelled) >= 86_400, refillAfter == nil, random.chance(0.7)
            {
                // An early cancellation frees the slot in time for someone else to take it.
                refillAfter = cancelled
            } else {
                refillAfter = nil
                t = occupiedEnd
            }
        }
    }

    private func pickPatient(
        clinician: Clinician, type: AppointmentType, on start: Date, bySpecies: [Species: [Patient]],
        random: inout SeededGenerator
    ) -> Patient? {
        let exoticOnly = type.requiredSpecialty == .exotics
        let species = Species.allCases.filter {
            clinician.species.contains($0) && (!exoticOnly || $0.isExotic) && bySpecies[$0] != nil
        }
        guard !species.isEmpty else { return nil }
        let weighted = species.map { ($0, Double(bySpecies[$0]?.count ?? 0)) }
        for _ in 0..<6 {
            guard let pool = bySpecies[random.weighted(weighted)], !pool.isEmpty else { continue }
            let patient = pool[random.below(pool.count)]
            if patient.birthDate.map({ $0 < start.addingTimeInterval(-86_400) }) ?? true { return patient }
        }
        return nil
    }

    /// The booking and what became of it.
    private func outcome(
        time: TimeRange, type: AppointmentType, clinician: Clinician, traits: ClinicianTraits, patient: Patient,
        room: Room?, weekday: Int, bookedAfter: Date?, random: inout SeededGenerator
    ) -> AppointmentRecord {
        let start = time.start
        var bookedAt = start.addingTimeInterval(-leadTime(type, &random))
        if let bookedAfter {
            bookedAt = max(bookedAt, bookedAfter.addingTimeInterval(60 * Double(10 + random.below(600))))
        }
        if bookedAt > now { bookedAt = now.addingTimeInterval(-Double(random.below(2 * 86_400))) }
        bookedAt = min(bookedAt, start)
        var appointment = Appointment(
            id: Identifier(random.uuid()), practiceID: setup.practice.id, patientID: patient.id,
            clinicianID: clinician.id.rawValue, appointmentTypeID: type.id, roomType: type.requiredRoomType,
            roomID: room?.id, time: time, bufferAfterMinutes: type.bufferAfterMinutes)
        var cancelledAt: Date?
        let draw = random.unit()
        let noShow =
            0.025 + traits.noShowExtra + (type.defaultDurationMinutes <= 10 ? 0.03 : 0) + (weekday == 1 ? 0.02 : 0)
            + (patient.species.isExotic ? 0.01 : 0)
        let cancelShare = bookedAfter == nil ? 0.08 : 0.03
        if start > now {
            if draw < cancelShare / 2, bookedAt < now {
                cancelledAt = bookedAt.addingTimeInterval(random.unit() * now.timeIntervalSince(bookedAt))
                appointment.status = .cancelled
                appointment.cancellationReason = "Owner rearranged"
            }
        } else if draw < cancelShare {
            // A third are called off less than a day ahead; the rest days before.
            let late = random.chance(0.35) || start.timeIntervalSince(bookedAt) < 86_400 + 3600
            let notice = late ? 1800 + random.unit() * 22 * 3600 : 86_400 * (1 + random.unit() * 9)
            cancelledAt = max(bookedAt.addingTimeInterval(60), start.addingTimeInterval(-notice))
            appointment.status = .cancelled
            appointment.cancellationReason = late ? "Owner unable to attend today" : "Owner rearranged"
        } else if draw < cancelShare + noShow {
            appointment.status = .noShow
        } else {
            let checkedIn = start.addingTimeInterval(-60 * Double(random.below(12)))
            let started = start.addingTimeInterval(60 * Double(random.below(9)))
            let actual = actualMinutes(type: type, species: patient.species, traits: traits, random: &random)
            let completed = started.addingTimeInterval(Double(actual) * 60)
            appointment.checkedInAt = min(checkedIn, now)
            if checkedIn > now {
                appointment.status = .booked
                appointment.checkedInAt = nil
            } else if started > now {
                appointment.status = .checkedIn
            } else if completed > now {
                appointment.status = .inProgress
                appointment.startedAt = started
            } else {
                appointment.status = .completed
                appointment.startedAt = started
                appointment.completedAt = completed
                appointment.actualMinutes = actual
            }
        }
        return AppointmentRecord(appointment, species: patient.species, bookedAt: bookedAt, cancelledAt: cancelledAt)
    }

    /// How long before the visit it was booked: emergencies the same day, vaccinations and
    /// routine consultations days to weeks ahead, procedures weeks ahead.
    private func leadTime(_ type: AppointmentType, _ random: inout SeededGenerator) -> TimeInterval {
        let day = 86_400.0
        switch type.requiredSpecialty {
        case .emergencyCriticalCare?: return 900 + random.unit() * 4 * 3600
        case nil where type.defaultDurationMinutes <= 10: return (3 + random.unit() * 30) * day
        case nil: return random.chance(0.4) ? random.unit() * 1.5 * day : (2 + random.unit() * 12) * day
        default: return (type.defaultDurationMinutes >= 90 ? 10 + random.unit() * 45 : 4 + random.unit() * 30) * day
        }
    }

    /// The consultation's real length: the booked length scaled by the type (routine
    /// consultations overrun, vaccinations finish early), the species (exotics and horses take
    /// longer) and the clinician, with log-normal noise.
    private func actualMinutes(
        type: AppointmentType, species: Species, traits: ClinicianTraits, random: inout SeededGenerator
    ) -> Int {
        let typeFactor: Double =
            switch type.requiredSpecialty {
            case .emergencyCriticalCare?: 1.25
            case .dentistry?: 1.12
            case .softTissueSurgery?, .orthopedics?: 1.06
            case nil: type.defaultDurationMinutes <= 10 ? 0.85 : 1.18
            default: 1.0
            }
        let speciesFactor: Double = species == .horse ? 1.3 : species.isExotic ? 1.2 : species == .cat ? 1.05 : 1.0
        let noise = exp(0.18 * random.normal())
        let minutes = Double(type.defaultDurationMinutes) * typeFactor * speciesFactor * traits.speed * noise
        return min(720, max(2, Int(minutes.rounded())))
    }

    // MARK: - Emergency arrivals

    /// Relative arrival rate per local hour: quiet nights, steady days, an evening peak after work.
    package static let hourProfile: [Double] = [
        0.3, 0.25, 0.2, 0.2, 0.2, 0.25, 0.4, 0.6, 0.9, 1.0, 1.0, 1.0,
        1.0, 1.0, 1.0, 1.1, 1.3, 2.2, 2.4, 2.1, 1.6, 1.2, 0.8, 0.5,
    ]

    private func arrivals(
        on day: TimeRange, weekday: Int, emergencyClinicians: Int, patients: [Patient], random: inout SeededGenerator,
        output: inout Output
    ) {
        guard emergencyClinicians > 0, !patients.isEmpty else { return }
        let expected = 3.5 * Double(emergencyClinicians) * (weekday >= 6 ? 1.3 : 1)
        let count = random.poisson(expected)
        let totalWeight = Self.hourProfile.reduce(0, +)
        let hours = day.duration / 3600
        var taken = Set<String>()
        for _ in 0..<count {
            // An hour by the profile, a moment inside it.
            var target = random.unit() * totalWeight
            var hour = 0
            while hour < 23, target >= Self.hourProfile[hour] {
                target -= Self.hourProfile[hour]
                hour += 1
            }
            let offset = min(hours * 3600 - 1, (Double(hour) + random.unit()) * 3600 * hours / 24)
            let arrival = Date(timeIntervalSince1970: (day.start.timeIntervalSince1970 + offset).rounded())
            guard arrival < now else { continue }
            let patient = patients[random.below(patients.count)]
            guard patient.birthDate.map({ $0 < arrival }) ?? true,
                taken.insert("\(patient.id)\(arrival.timeIntervalSince1970)").inserted
            else { continue }
            let level = random.weighted([
                (TriageLevel.red, 0.03), (.orange, 0.12), (.yellow, 0.30), (.green, 0.35), (.blue, 0.20),
            ])
            let evening = (17...19).contains(hour)
            let leftUnseen = level >= .green && random.chance(0.03)
            let wait: Double =
                switch level {
                case .red: random.chance(0.92) ? 0 : 60 * Double(1 + random.below(3))
                case .orange: random.exponential(mean: evening ? 17 : 4) * 60
                case .yellow: random.exponential(mean: evening ? 50 : 22) * 60
                case .green: random.exponential(mean: evening ? 85 : 45) * 60
                case .blue: random.exponential(mean: 80) * 60
                }
            let seen = arrival.addingTimeInterval(wait.rounded())
            output.arrivals.append(
                TriageArrival(
                    patientID: patient.id, level: level, arrival: arrival,
                    firstSeenAt: leftUnseen || seen > now ? nil : seen, species: patient.species))
        }
    }

    // MARK: - Weighings

    /// Most completed visits weigh the patient: around a weight of their own that drifts slowly.
    private func weighings(_ appointments: [AppointmentRecord], patients: [Patient], random: inout SeededGenerator)
        -> [WeightMeasurement]
    {
        var baseline: [UUID: Double] = [:]
        var weights: [WeightMeasurement] = []
        for record in appointments {
            let appointment = record.appointment
            guard appointment.status == .completed, let measured = appointment.completedAt,
                let species = record.species,
                random.chance(0.6)
            else { continue }
            let base = baseline[appointment.patientID] ?? Self.typicalKilograms(species, &random)
            baseline[appointment.patientID] = base
            let drift =
                1 + 0.04
                * sin(
                    measured.timeIntervalSince1970 / (86_400 * 60) + Double(appointment.patientID.hashValueStable % 7))
            let kilograms = base * drift
            let digits = kilograms < 1 ? 3 : kilograms < 100 ? 2 : 1
            guard let value = Decimal(string: String(format: "%.\(digits)f", kilograms)), value > 0 else { continue }
            weights.append(
                WeightMeasurement(
                    id: Identifier(random.uuid()), patientID: Identifier(appointment.patientID), value: value,
                    unit: .kg, measuredAt: measured))
        }
        return weights
    }

    package static func typicalKilograms(_ species: Species, _ random: inout SeededGenerator) -> Double {
        let (low, high): (Double, Double) =
            switch species {
            case .dog: (5, 38)
            case .cat: (3, 6)
            case .rabbit: (1.2, 2.6)
            case .ferret: (0.7, 1.8)
            case .bird: (0.03, 0.5)
            case .horse: (380, 620)
            case .reptile: (0.1, 2.5)
            case .other: (0.2, 4)
            }
        return low + (high - low) * random.unit()
    }
}

// MARK: - Drawing numbers

extension SeededGenerator {
    /// Uniform in `[0, 1)`.
    package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Uniform in `0..<bound` (0 when `bound` is not positive).
    package mutating func below(_ bound: Int) -> Int { bound > 0 ? Int(next() % UInt64(bound)) : 0 }
    /// True with probability `probability`.
    package mutating func chance(_ probability: Double) -> Bool { unit() < probability }
    /// A standard normal draw (Box–Muller).
    package mutating func normal() -> Double { sqrt(-2 * log(max(unit(), 1e-12))) * cos(2 * .pi * unit()) }
    /// An exponential draw with `mean`.
    package mutating func exponential(mean: Double) -> Double { -mean * log(max(1 - unit(), 1e-12)) }
    /// A Poisson draw with mean `lambda` (Knuth's method; the means here are small).
    package mutating func poisson(_ lambda: Double) -> Int {
        let limit = exp(-max(0, lambda))
        var count = 0
        var product = unit()
        while product > limit, count < 1000 {
            count += 1
            product *= unit()
        }
        return count
    }
    /// One of `items`, with probability proportional to its weight.
    package mutating func weighted<T>(_ items: [(T, Double)]) -> T {
        let total = items.reduce(0) { $0 + max(0, $1.1) }
        var target = unit() * total
        for (item, weight) in items {
            if target < weight { return item }
            target -= max(0, weight)
        }
        return items[items.count - 1].0
    }
    /// A version-4 UUID from the stream.
    package mutating func uuid() -> UUID {
        var bytes = withUnsafeBytes(of: next()) { Array($0) } + withUnsafeBytes(of: next()) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}

extension Calendar {
    /// ISO weekday (1 = Monday … 7 = Sunday) of `instant` in the zone named `zone`.
    package static func iso8601Weekday(of instant: Date, in zone: String) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? TimeZone(identifier: "UTC")!
        let weekday = calendar.component(.weekday, from: instant) // 1 = Sunday
        return weekday == 1 ? 7 : weekday - 1
    }
}

extension UUID {
    /// A hash that is the same in every process (`hashValue` is seeded per process).
    package var hashValueStable: Int {
        withUnsafeBytes(of: uuid) { bytes in bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0x7fff_ffff } }
    }
}
