import Foundation
import PropertyBased
import SharedKernel
import Specialists
import Testing

// MARK: - Generators

/// Integers a client can put in any numeric field: the ones that matter to a day (0, 1439,
/// 1440, weekdays), just outside them, and the extremes where arithmetic overflows.
private let edgeInts: [Int] = [
    0, 1, 7, 8, -1, 59, 60, 540, 720, 1_020, 1_439, 1_440, 1_441, 10_000, -1_440,
    Int.max, Int.min, Int.max - 1, Int.min + 1, Int(Int32.max), Int(Int32.min),
]

/// Mostly sensible minutes and weekdays, often an edge value, sometimes anything at all.
private let anyInt = Generator<Int, Shrink.None<Int>> { rng in
    switch Int.random(in: 0...5, using: &rng) {
    case 0, 1: return edgeInts.randomElement(using: &rng)!
    case 2: return Int.random(in: Int.min...Int.max, using: &rng)
    default: return Int.random(in: -10...1_500, using: &rng)
    }
}

private let weekdays = Generator<Int, Shrink.None<Int>> { rng in
    Int.random(in: 0...9, using: &rng) == 0 ? edgeInts.randomElement(using: &rng)! : Int.random(in: 1...7, using: &rng)
}

private let intervals = zip(weekdays, anyInt, anyInt).map {
    WeeklyInterval(weekday: $0, startMinute: $1, endMinute: $2)
}

/// Dates of the yyyy-MM-dd form around today, and a few far away.
private let localDates = Generator<LocalDate, Shrink.None<LocalDate>> { rng in
    let base = LocalDate(year: 2026, month: 3, day: 1)!
    if Int.random(in: 0...9, using: &rng) == 0 {
        return [
            LocalDate(year: 0, month: 1, day: 1)!, LocalDate(year: 9_999, month: 12, day: 31)!,
            LocalDate(year: -999, month: 6, day: 1)!, LocalDate(year: 1_000_000, month: 12, day: 31)!,
        ].randomElement(using: &rng)!
    }
    return base.adding(days: Int.random(in: -40...40, using: &rng))
}

private let timeOffs = zip(localDates, Gen.int(in: -3...10)).map { TimeOff(firstDay: $0, lastDay: $0.adding(days: $1)) }
private let sessions = zip(localDates, anyInt, anyInt).map { ExtraSession(date: $0, startMinute: $1, endMinute: $2) }

private let availabilities = zip(
    intervals.array(of: 0...6), intervals.array(of: 0...3), timeOffs.array(of: 0...2),
    sessions.array(of: 0...3), anyInt.optional
)
.map { weekly, breaks, timeOff, extra, cap in
    ClinicianAvailability(
        clinicianID: Identifier<Clinician>(UUID(uuidString: "00000000-0000-0000-0000-0000000000C1")!),
        weekly: weekly, breaks: breaks, timeOff: timeOff, extraSessions: extra, maxBookedMinutesPerDay: cap)
}

/// A field path `validate()` may name: `weekly[2].endMinute`, `breaks[0]`, `timeOff[1].lastDay` …
private func isAvailabilityField(_ field: String) -> Bool {
    let prefixes = ["weekly[", "breaks[", "timeOff[", "extraSessions["]
    return field == "maxBookedMinutesPerDay" || prefixes.contains { field.hasPrefix($0) && field.contains("]") }
}

private let zones = [
    "Europe/London", "America/New_York", "Australia/Lord_Howe", "Pacific/Kiritimati", "UTC", "Asia/Kathmandu",
]
.compactMap(TimeZone.init(identifier:))

// MARK: - Properties

@Suite("Availability properties: any rota gets working windows or named errors, never a crash")
struct AvailabilityPropertyTests {
    @Test(
        """
        any availability is valid or refused naming weekly/breaks/timeOff/extraSessions fields; a valid one resolves \
        to ordered windows
        """
    )
    func validation() async {
        await propertyCheck(count: 500, input: availabilities, Gen<TimeZone?>.element(of: zones), Gen.int(in: 0...14)) {
            availability, zone, span in
            do throws(ValidationError) {
                try availability.validate()
            } catch {
                #expect(!error.errors.isEmpty)
                for fieldError in error.errors {
                    #expect(isAvailabilityField(fieldError.field), "unexpected field \(fieldError.field)")
                    #expect(!fieldError.message.isEmpty)
                }
                return
            }
            let zone = zone ?? .gmt
            let first = LocalDate(year: 2026, month: 3, day: 20)!
            let last = first.adding(days: span)
            let windows = availability.windows(from: first, through: last, timeZone: zone)
            for (earlier, later) in zip(windows, windows.dropFirst()) {
                #expect(earlier.end <= later.start, "windows overlap or go backwards: \(earlier) \(later)")
            }
            for day in 0...span {
                let date = first.adding(days: day)
                let available = availability.availableMinutes(on: date, timeZone: zone)
                // A day is at most 25 hours long (the autumn daylight-saving change).
                #expect((0...1_500).contains(available), "\(available) minutes on \(date)")
                let capacity = availability.capacityMinutes(on: date, timeZone: zone)
                #expect(capacity >= 0 && capacity <= available)
            }
        }
    }

    @Test("any yyyy-MM-dd-like text parses to the date it names or to nothing")
    func parsing() async {
        let characters = Gen<Character?>.element(of: Array("0123456789-+ ")).map { $0 ?? "0" }
        let texts = zip(
            characters.string(of: 4), characters.string(of: 2), characters.string(of: 2), Gen.int(in: 0...5)
        )
        .map { year, month, day, shape -> String in
            let digitsOnly = { (text: String) in String(text.map { $0.isNumber ? $0 : "1" }) }
            switch shape {
            case 0: return "\(year)-\(month)-\(day)"
            case 1: return "\(year)\(month)\(day)"
            default: return "\(digitsOnly(year))-\(digitsOnly(month))-\(digitsOnly(day))"
            }
        }
        await propertyCheck(count: 500, input: texts) { text in
            guard let date = LocalDate(text) else { return }
            #expect(date.description == text, "'\(text)' read as \(date)")
            #expect(LocalDate(dayNumber: date.dayNumber) == date)
            #expect((1...7).contains(date.isoWeekday))
        }
    }

    @Test("a date from any integers exists exactly as given, or is nil")
    func fromIntegers() async {
        let years = Generator<Int, Shrink.None<Int>> { rng in
            switch Int.random(in: 0...3, using: &rng) {
            case 0:
                return [Int.max, Int.min, 1_000_000, 1_000_001, -1_000_000, -1_000_001, 0, 2_024, 2_100, 1_900]
                    .randomElement(using: &rng)!
            case 1: return Int.random(in: Int.min...Int.max, using: &rng)
            default: return Int.random(in: -3_000...3_000, using: &rng)
            }
        }
        let small = Generator<Int, Shrink.None<Int>> { rng in
            Bool.random(using: &rng) ? Int.random(in: -1...32, using: &rng) : edgeInts.randomElement(using: &rng)!
        }
        await propertyCheck(count: 500, input: years, small, small) { year, month, day in
            guard let date = LocalDate(year: year, month: month, day: day) else { return }
            #expect(date.year == year && date.month == month && date.day == day)
            #expect(date.adding(days: 1) > date && date.adding(days: -1) < date)
            #expect((1...7).contains(date.isoWeekday))
        }
    }
}

// MARK: - Regression

@Suite("Availability regressions")
struct AvailabilityRegressionTests {
    @Test(
        "years beyond the supported range are no date, instead of overflowing day arithmetic",
        arguments: [
            Int.max, Int.min, 1_000_001, -1_000_001, Int.max / 146_097,
        ])
    func hugeYear(year: Int) {
        #expect(LocalDate(year: year, month: 1, day: 1) == nil)
    }

    @Test(
        "signed fields are not dates",
        arguments: ["2026-+1-05", "+026-01-05", "2026-01--5", "-999-01-01", " 202-01-01"])
    func signs(text: String) {
        #expect(LocalDate(text) == nil)
    }

    @Test("days beyond the reach of Foundation's calendar still resolve to instants, in order")
    func farYears() throws {
        let availability = ClinicianAvailability(
            clinicianID: Identifier<Clinician>(),
            weekly: (1...7).map { WeeklyInterval(weekday: $0, startMinute: 540, endMinute: 1_020) })
        let first = try #require(LocalDate(year: 999_999, month: 12, day: 25))
        let windows = availability.windows(
            from: first, through: first.adding(days: 3), timeZone: TimeZone(identifier: "Europe/London")!)
        #expect(windows.count == 4)
        #expect(windows.allSatisfy { $0.duration == 8 * 3_600 })
        #expect(zip(windows, windows.dropFirst()).allSatisfy { $0.end < $1.start })
    }

    @Test("a rota over a hundred years resolves without trouble")
    func century() throws {
        let availability = ClinicianAvailability(
            clinicianID: Identifier<Clinician>(),
            weekly: [WeeklyInterval(weekday: 3, startMinute: 540, endMinute: 1_020)])
        let first = try #require(LocalDate("1950-01-01"))
        let last = try #require(LocalDate("2049-12-31"))
        let windows = availability.windows(from: first, through: last, timeZone: TimeZone(identifier: "Europe/London")!)
        #expect((5_200...5_220).contains(windows.count))
    }
}
