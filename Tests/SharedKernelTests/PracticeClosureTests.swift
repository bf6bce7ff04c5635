import Foundation
import SharedKernel
import Testing

@Suite("Practice closures")
struct PracticeClosureTests {
    static let london = TimeZone(identifier: "Europe/London")!

    static func day(_ text: String) -> LocalDate { LocalDate(text)! }
    static func instant(_ text: String) -> Date { Timestamp.date(text)! }
    static func range(_ from: String, _ to: String) -> TimeRange { TimeRange(start: instant(from), end: instant(to))! }

    @Test("a whole-day closure on the autumn daylight-saving change covers all 25 hours of the local day")
    func autumnChange() {
        let closure = PracticeClosure(firstDay: Self.day("2026-10-25"), reason: "Practice move")
        let closed = [closure].closedIntervals(
            overlapping: Self.range("2026-10-24T00:00:00Z", "2026-10-27T00:00:00Z"), timeZone: Self.london)
        // Midnight BST (23:00Z the day before) to midnight GMT.
        #expect(closed == [Self.range("2026-10-24T23:00:00Z", "2026-10-26T00:00:00Z")])
        #expect(closed[0].duration == 25 * 3600)
    }

    @Test("'from 13:00' is 13:00 local time on a spring daylight-saving day, not 13:00 UTC")
    func springChangePartial() {
        let closure = PracticeClosure(firstDay: Self.day("2027-03-28"), fromMinute: 13 * 60, reason: "Staff training")
        let closed = [closure].closedIntervals(
            overlapping: Self.range("2027-03-27T00:00:00Z", "2027-03-30T00:00:00Z"), timeZone: Self.london)
        #expect(closed == [Self.range("2027-03-28T12:00:00Z", "2027-03-28T23:00:00Z")])
        #expect(!closure.isWholeDay)
    }

    @Test("a yearly closure comes back every year from its first year on, including one that runs over New Year")
    func yearly() {
        let christmas = PracticeClosure(
            firstDay: Self.day("2026-12-25"), lastDay: Self.day("2026-12-26"), recursYearly: true, reason: "Christmas")
        #expect(
            christmas.closedDays(from: Self.day("2028-12-20"), through: Self.day("2028-12-31")).map(\.description) == [
                "2028-12-25", "2028-12-26",
            ])
        #expect(christmas.closedDays(from: Self.day("2025-12-20"), through: Self.day("2025-12-31")).isEmpty)
        let newYear = PracticeClosure(
            firstDay: Self.day("2026-12-31"), lastDay: Self.day("2027-01-01"), recursYearly: true, reason: "New Year")
        #expect(
            newYear.closedDays(from: Self.day("2028-01-01"), through: Self.day("2028-01-03")).map(\.description) == [
                "2028-01-01"
            ])
        let once = PracticeClosure(firstDay: Self.day("2026-12-25"), reason: "Christmas 2026 only")
        #expect(once.closedDays(from: Self.day("2027-12-01"), through: Self.day("2027-12-31")).isEmpty)
    }

    @Test("a 29 February closure recurs in leap years only")
    func leapDay() {
        let closure = PracticeClosure(firstDay: Self.day("2028-02-29"), recursYearly: true, reason: "Leap day")
        #expect(closure.closedDays(from: Self.day("2029-02-01"), through: Self.day("2029-03-31")).isEmpty)
        #expect(
            closure.closedDays(from: Self.day("2032-02-01"), through: Self.day("2032-03-31")).map(\.description) == [
                "2032-02-29"
            ])
    }

    @Test("closed time is taken out of working windows")
    func subtracting() {
        let closure = PracticeClosure(firstDay: Self.day("2026-12-24"), fromMinute: 13 * 60, reason: "Christmas Eve")
        let working = [
            Self.range("2026-12-24T09:00:00Z", "2026-12-24T17:00:00Z"),
            Self.range("2026-12-27T09:00:00Z", "2026-12-27T17:00:00Z"),
        ]
        #expect(
            [closure].removingClosedTime(from: working, timeZone: Self.london)
                == [
                    Self.range("2026-12-24T09:00:00Z", "2026-12-24T13:00:00Z"),
                    Self.range("2026-12-27T09:00:00Z", "2026-12-27T17:00:00Z"),
                ])
    }

    @Test("every bad field is named")
    func validation() {
        let closure = PracticeClosure(
            firstDay: Self.day("2026-12-24"), lastDay: Self.day("2026-12-23"), fromMinute: 900, untilMinute: 800,
            recursYearly: false, reason: "  ")
        #expect(throws: ValidationError.self) { try closure.validate() }
        do { try closure.validate(field: "closures[0]") } catch {
            #expect(
                error.errors.map(\.field) == ["closures[0].reason", "closures[0].lastDay", "closures[0].untilMinute"])
        }
        let yearLong = PracticeClosure(
            firstDay: Self.day("2026-01-01"), lastDay: Self.day("2026-12-31"), recursYearly: true, reason: "Never open")
        #expect(throws: ValidationError.self) { try yearLong.validate() }
    }

    @Test("a time-zone change is refused while appointments are still to come, and allowed once none are")
    func timeZoneChange() throws {
        let practice = PracticeProfile(
            id: PracticeID(), name: "Harbour Vets", timeZone: "Europe/London", openingHours: [])
        let change = PracticeSettingsChange(timeZone: "Europe/Dublin")
        #expect(throws: DomainError.self) { try practice.applying(change, openAppointments: 3) }
        #expect(try practice.applying(change, openAppointments: 0).timeZone == "Europe/Dublin")
        // Other settings change freely, and are validated.
        #expect(
            try practice.applying(PracticeSettingsChange(slotGridMinutes: 15), openAppointments: 3).slotGridMinutes
                == 15)
        #expect(throws: ValidationError.self) {
            try practice.applying(PracticeSettingsChange(slotGridMinutes: 7), openAppointments: 0)
        }
    }
}
