import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Practice-wide vaccination reminders")
struct VaccinationScheduleTests {
    static func vaccination(
        _ vaccine: String = "Rabies", patient: Identifier<Patient> = Fixture.patientID,
        given: String = "2025-03-01", due: String?
    ) -> Vaccination {
        Vaccination(
            patientID: patient, vaccine: vaccine, administeredDate: Fixture.day(given),
            nextDueDate: due.map { Fixture.day($0) })
    }

    enum Expected { case overdue, dueSoon, neither }

    @Test(
        "classification by due day, as of 2026-03-15 10:00 with a 30-day window",
        arguments: [
            ("2026-03-14", Expected.overdue), // yesterday
            ("2025-12-01", .overdue),
            ("2026-03-15", .dueSoon), // due today is not yet overdue, whatever the hour
            ("2026-03-16", .dueSoon),
            ("2026-04-14", .dueSoon), // the 30th day ahead is inside the window
            ("2026-04-15", .neither), // the 31st is not
            ("2027-03-01", .neither),
        ])
    func classify(due: String, expected: Expected) {
        let vaccination = Self.vaccination(due: due)
        let report = VaccinationSchedule.dueAndOverdue(
            vaccinations: [vaccination], asOf: Fixture.now, dueWithinDays: 30)
        #expect(report.overdue.map(\.id) == (expected == .overdue ? [vaccination.id] : []))
        #expect(report.dueSoon.map(\.id) == (expected == .dueSoon ? [vaccination.id] : []))
    }

    @Test("a later dose supersedes the earlier one's due date, matched ignoring case and accents")
    func superseded() {
        let first = Self.vaccination("Rabies", given: "2024-03-01", due: "2025-03-01")
        let booster = Self.vaccination(" RABIES ", given: "2025-03-01", due: "2026-03-01")
        let other = Self.vaccination("Leptospirose", given: "2025-03-10", due: "2026-03-10")
        let otherLater = Self.vaccination("Leptospirosé", given: "2026-03-12", due: "2027-03-12")
        let report = VaccinationSchedule.dueAndOverdue(
            vaccinations: [booster, other, first, otherLater], asOf: Fixture.now)
        #expect(report.overdue.map(\.id) == [booster.id])
        #expect(report.dueSoon.isEmpty)
    }

    @Test("a final dose with no next due date clears earlier reminders and is never listed")
    func noNextDue() {
        let first = Self.vaccination("FeLV", given: "2025-02-01", due: "2025-03-01")
        let final = Self.vaccination("FeLV", given: "2025-03-01", due: nil)
        #expect(
            VaccinationSchedule.dueAndOverdue(vaccinations: [first, final], asOf: Fixture.now) == VaccinationDueReport()
        )
    }

    @Test("across patients, most overdue first and soonest due first")
    func ordering() {
        let patients = (0..<4).map { _ in Identifier<Patient>() }
        let a = Self.vaccination(patient: patients[0], due: "2026-03-01")
        let b = Self.vaccination(patient: patients[1], due: "2026-02-01")
        let c = Self.vaccination(patient: patients[2], due: "2026-04-01")
        let d = Self.vaccination(patient: patients[3], due: "2026-03-20")
        let report = VaccinationSchedule.dueAndOverdue(
            vaccinations: [a, b, c, d], asOf: Fixture.now, dueWithinDays: 30)
        #expect(report.overdue.map(\.id) == [b.id, a.id])
        #expect(report.dueSoon.map(\.id) == [d.id, c.id])
    }

    @Test("a zero-day window lists only what is due today")
    func zeroWindow() {
        let today = Self.vaccination(due: "2026-03-15")
        let tomorrow = Self.vaccination("DHPPi", due: "2026-03-16")
        let report = VaccinationSchedule.dueAndOverdue(
            vaccinations: [today, tomorrow], asOf: Fixture.now, dueWithinDays: 0)
        #expect(report.dueSoon.map(\.id) == [today.id])
    }

    @Test("the practice's time zone decides what today is")
    func timeZone() throws {
        var sydney = Calendar(identifier: .gregorian)
        sydney.timeZone = try #require(TimeZone(identifier: "Australia/Sydney"))
        // 2026-03-15 20:00 UTC is already 2026-03-16 in Sydney, so a dose due on the 15th is
        // overdue there but due today in UTC.
        let asOf = Fixture.day("2026-03-15", hour: 20)
        let due = Fixture.day("2026-03-15")
        let vaccination = Vaccination(
            patientID: Fixture.patientID, vaccine: "Rabies", administeredDate: Fixture.day("2025-03-15"),
            nextDueDate: due)
        #expect(
            VaccinationSchedule.dueAndOverdue(vaccinations: [vaccination], asOf: asOf, calendar: sydney).overdue.count
                == 1)
        #expect(VaccinationSchedule.dueAndOverdue(vaccinations: [vaccination], asOf: asOf).dueSoon.count == 1)
    }
}
