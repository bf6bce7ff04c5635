import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Patient age for display and triage")
struct AgeTests {
    @Test(
        "the unit follows the age: days, weeks under 12 weeks, months under a year, years after",
        arguments: [
            ("2026-03-15", "2026-03-15", "0 days", 0),
            ("2026-03-09", "2026-03-15", "6 days", 0),
            ("2026-03-08", "2026-03-15", "1 week", 1),
            ("2026-01-25", "2026-03-15", "7 weeks", 7),
            ("2025-12-22", "2026-03-15", "11 weeks", 11), // 83 days: last day shown in weeks
            ("2025-12-21", "2026-03-15", "2 months", 12), // 84 days = 12 weeks: months from here
            ("2025-09-15", "2026-03-15", "6 months", 25),
            ("2025-03-16", "2026-03-15", "11 months", 52), // the day before the first birthday
            ("2025-03-15", "2026-03-15", "1 year", 52),
            ("2023-03-16", "2026-03-15", "2 years", 156),
            ("2016-02-29", "2026-03-15", "10 years", 523),
        ])
    func display(birth: String, now: String, expected: String, weeks: Int) {
        let patient = Patient(name: "Rex", species: .dog, birthDate: Fixture.day(birth), ownerID: .init())
        let age = patient.age(now: Fixture.day(now, hour: 15))
        #expect(age?.description == expected)
        #expect(patient.ageInWeeks(now: Fixture.day(now, hour: 15)) == weeks)
    }

    @Test("an estimated birth date gives the same age, flagged as estimated")
    func estimated() {
        let patient = Patient(
            name: "Stray", species: .cat, birthDate: Fixture.day("2023-01-01"), birthDateEstimated: true,
            ownerID: .init())
        let age = patient.age(now: Fixture.now)
        #expect(age?.description == "3 years")
        #expect(age?.isEstimated == true)
    }

    @Test("no birth date, or one in the future, has no age")
    func unknown() {
        let none = Patient(name: "Rex", species: .dog, ownerID: .init())
        #expect(none.age(now: Fixture.now) == nil)
        #expect(none.ageInWeeks(now: Fixture.now) == nil)
        let future = Patient(name: "Rex", species: .dog, birthDate: Fixture.day("2026-03-16"), ownerID: .init())
        #expect(future.age(now: Fixture.now) == nil)
    }

    @Test("a birth date in the future is refused naming birthDate")
    func futureBirthRefused() {
        let patient = Patient(name: "Rex", species: .dog, birthDate: Fixture.day("2026-03-16"), ownerID: .init())
        #expect(
            Fixture.fields { () throws(ValidationError) in try patient.validate(now: Fixture.now) } == ["birthDate"])
    }

    @Test("the practice's calendar decides the day: late evening in New York is already tomorrow in UTC")
    func calendar() throws {
        var newYork = Calendar(identifier: .gregorian)
        newYork.timeZone = try #require(TimeZone(identifier: "America/New_York"))
        // Born 2026-01-01 local; now is 2026-01-07 22:00 local = 2026-01-08 03:00 UTC.
        let birth = try #require(RecordCalendar.date(fromISODay: "2026-01-01", calendar: newYork))
        let now = Fixture.day("2026-01-08", hour: 3)
        #expect(PatientAge(birthDate: birth, now: now, calendar: newYork)?.description == "6 days")
        #expect(PatientAge(birthDate: birth, now: now)?.description == "1 week")
    }
}
