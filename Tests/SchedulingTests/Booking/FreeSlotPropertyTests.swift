import Foundation
import PropertyBased
import SharedKernel
import Testing

@testable import Scheduling

// MARK: - Generators

private let edgeMinutes = [0, 1, 5, 60, 720, 721, 1_440, -1, Int.max, Int.min, Int.max / 60, Int(Int32.max)]

private let anyMinutes = Generator<Int, Shrink.None<Int>> { rng in
    Bool.random(using: &rng) ? edgeMinutes.randomElement(using: &rng)! : Int.random(in: -10...800, using: &rng)
}

/// Instants from the booking week to the far edges of `Date`, including infinities.
private let anyInstant = Generator<Date, Shrink.None<Date>> { rng in
    let week = BookingFixture.at("2026-03-23T00:00:00Z")
    switch Int.random(in: 0...3, using: &rng) {
    case 0:
        return [
            Date.distantPast, .distantFuture, Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300),
            Date(timeIntervalSince1970: .infinity), Date(timeIntervalSince1970: 9.3e18),
        ].randomElement(using: &rng)!
    case 1: return week.addingTimeInterval(Double.random(in: -3.2e9...3.2e9, using: &rng))
    default: return week.addingTimeInterval(Double.random(in: 0...(7 * 86_400), using: &rng))
    }
}

/// Ranges from a minute to a century, at any point in time.
private let anyRange = zip(
    anyInstant, Gen<Double?>.element(of: [60, 3_600, 86_400, 62 * 86_400, 63 * 86_400, 100 * 365 * 86_400, 1e300])
)
.compactMap { start, length in TimeRange(start: start, end: start.addingTimeInterval(length ?? 60)) }

private let queries = zip(anyRange, anyMinutes, anyMinutes, anyMinutes, Gen.int(in: -1...20).optional)
    .map { range, duration, buffer, grid, limit in
        SlotQuery(range: range, durationMinutes: duration, bufferAfterMinutes: buffer, gridMinutes: grid, limit: limit)
    }

/// A finder for one clinician working every day of the booking week 08:00–18:00 UTC.
private let finder: FreeSlotFinder = {
    let days = (0..<7).map { BookingFixture.at("2026-03-23T08:00:00Z").addingTimeInterval(Double($0) * 86_400) }
    let working = days.map { TimeRange(start: $0, end: $0.addingTimeInterval(10 * 3_600))! }
    let timetable = BookingFixture.timetable(1, working: working)
    let booking = BookingFixture.booking(1, "2026-03-24T10:00:00Z", "2026-03-24T11:00:00Z", buffer: 10)
    return try! FreeSlotFinder(
        practice: BookingFixture.practice(zone: "UTC", opens: 8 * 60, closes: 18 * 60), rooms: [],
        timetables: [timetable], appointments: [booking])
}()

// MARK: - Properties

@Suite("Free slot properties: any query gets slots, an empty list or named errors, never a crash")
struct FreeSlotPropertyTests {
    @Test("any query is answered with slots inside its range and working time, or refused naming its fields")
    func anyQuery() async {
        await propertyCheck(count: 500, input: queries) { query in
            do throws(ValidationError) {
                let slots = try finder.slots(for: query)
                if let limit = query.limit { #expect(slots.count <= limit) }
                for slot in slots {
                    #expect(query.range.contains(slot.start), "slot \(slot.start) outside \(query.range)")
                    #expect(slot.end.timeIntervalSince(slot.start) == Double(query.durationMinutes * 60))
                }
            } catch {
                #expect(!error.errors.isEmpty)
                let fields: Set<String> = [
                    "durationMinutes", "bufferAfterMinutes", "gridMinutes", "limit", "range", "range.start",
                    "range.end",
                ]
                #expect(error.errors.allSatisfy { fields.contains($0.field) }, "\(error)")
            }
        }
    }

    @Test("asking whether any instant is free, or for its nearest alternatives, is answered or refused by name")
    func anyInstantIsFree() async {
        let query = SlotQuery(
            range: BookingFixture.range("2026-03-23T00:00:00Z", "2026-03-24T00:00:00Z"), durationMinutes: 30)
        await propertyCheck(count: 300, input: anyInstant, Gen.int(in: -2...40)) { instant, days in
            do throws(ValidationError) {
                _ = try finder.isFree(instant, for: query)
                let nearest = try finder.nearestAlternatives(to: instant, for: query, searchDays: days)
                if let before = nearest.before { #expect(before.start < instant) }
                if let after = nearest.after { #expect(after.start > instant) }
            } catch {
                #expect(!error.errors.isEmpty && error.errors.allSatisfy { !$0.field.isEmpty })
            }
        }
    }

    @Test("a practice with any opening hours gives a finder or errors naming openingHours")
    func anyOpeningHours() async {
        let hours = zip(Gen.int(in: 0...8), anyMinutes, anyMinutes).map {
            OpeningHours(weekday: $0, opensMinute: $1, closesMinute: $2)
        }
        await propertyCheck(count: 300, input: hours.array(of: 0...4)) { openingHours in
            let practice = PracticeProfile(
                id: BookingFixture.practiceID, name: "Riverside Vets", timeZone: "Europe/London",
                openingHours: openingHours)
            do throws(ValidationError) {
                let finder = try FreeSlotFinder(practice: practice, rooms: [], timetables: [], appointments: [])
                let query = SlotQuery(
                    range: BookingFixture.range("2026-03-28T00:00:00Z", "2026-04-04T00:00:00Z"), durationMinutes: 15)
                let slots = try finder.slots(for: query)
                #expect(slots.isEmpty, "no clinician, no slot")
            } catch {
                #expect(error.errors.allSatisfy { $0.field.hasPrefix("openingHours[") }, "\(error)")
            }
        }
    }
}

// MARK: - Regression

@Suite("Free slot regressions")
struct FreeSlotRegressionTests {
    @Test("a query range beyond the year 9999 is refused naming it, instead of overflowing whole seconds")
    func farRange() throws {
        let start = Date(timeIntervalSince1970: 1e19)
        let query = SlotQuery(range: TimeRange(start: start, end: start.addingTimeInterval(1e6))!, durationMinutes: 30)
        #expect(throws: ValidationError.self) { try finder.slots(for: query) }
        do {
            try query.validate()
        } catch {
            #expect(error.errors.map(\.field) == ["range.start", "range.end"])
        }
    }

    @Test("asking whether an instant too far out to add a second to is free is refused naming start")
    func farInstant() {
        let query = SlotQuery(
            range: BookingFixture.range("2026-03-23T00:00:00Z", "2026-03-24T00:00:00Z"), durationMinutes: 30)
        for instant in [Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: .infinity)] {
            do {
                _ = try finder.isFree(instant, for: query)
                Issue.record("\(instant) was answered")
            } catch {
                #expect(error.errors.map(\.field) == ["start"])
            }
        }
    }

    @Test("opening hours outside the day are refused naming the minute, instead of trapping in the calendar")
    func openingMinutesOutsideTheDay() {
        let practice = PracticeProfile(
            id: BookingFixture.practiceID, name: "Riverside Vets", timeZone: "Europe/London",
            openingHours: [OpeningHours(weekday: 1, opensMinute: Int.min, closesMinute: 600)])
        do {
            _ = try FreeSlotFinder(practice: practice, rooms: [], timetables: [], appointments: [])
            Issue.record("accepted")
        } catch {
            #expect(error.errors.map(\.field) == ["openingHours[0].opensMinute"])
        }
        #expect(throws: ValidationError.self) { try practice.validate() }
    }
}
