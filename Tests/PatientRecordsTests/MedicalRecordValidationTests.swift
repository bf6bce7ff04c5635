import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Problems, allergies, medications and vaccinations refuse impossible data")
struct MedicalRecordValidationTests {
    static let birth = Fixture.day("2020-05-01")

    @Test(
        "problem dates and status",
        arguments: [
            (Problem.Status.active, "2024-01-10", nil as String?, [String]()),
            (.resolved, "2024-01-10", "2024-01-10", []), // same-day resolution
            (.resolved, "2024-01-10", "2024-01-09", ["resolvedDate"]), // resolved before onset
            (.resolved, "2024-01-10", nil, ["resolvedDate"]),
            (.active, "2024-01-10", "2024-02-01", ["resolvedDate"]),
            (.active, "2026-03-16", nil, ["onsetDate"]), // onset in the future
            (.active, "2020-04-30", nil, ["onsetDate"]), // onset before birth
            (.resolved, "2024-01-10", "2026-03-16", ["resolvedDate"]), // resolved in the future
        ])
    func problem(status: Problem.Status, onset: String, resolved: String?, fields: [String]) {
        let problem = Problem(
            patientID: Fixture.patientID, name: "Otitis externa", status: status, onsetDate: Fixture.day(onset),
            resolvedDate: resolved.map { Fixture.day($0) })
        #expect(
            Fixture.fields { () throws(ValidationError) in try problem.validate(now: Fixture.now, birthDate: Self.birth)
            } == fields)
    }

    @Test("resolving a problem keeps the original value unchanged")
    func resolve() {
        let problem = Problem(
            patientID: Fixture.patientID, name: "Otitis externa", onsetDate: Fixture.day("2026-03-01"))
        let resolved = problem.resolved(on: Fixture.day("2026-03-14"))
        #expect(problem.status == .active && problem.resolvedDate == nil)
        #expect(resolved.status == .resolved)
        #expect(Fixture.fields { () throws(ValidationError) in try resolved.validate(now: Fixture.now) } == [])
    }

    @Test("an allergy needs a substance; severities are ordered")
    func allergy() {
        let blank = Allergy(patientID: Fixture.patientID, substance: "  ", reaction: "urticaria", severity: .moderate)
        #expect(Fixture.fields { () throws(ValidationError) in try blank.validate() } == ["substance"])
        #expect(Allergy.Severity.mild < .lifeThreatening)
        #expect(Allergy.Severity.allCases.sorted() == [.mild, .moderate, .severe, .lifeThreatening])
    }

    @Test("a medication needs a drug, positive rate and concentration, and a course that ends after it starts")
    func medication() {
        let bad = Medication(
            patientID: Fixture.patientID, drug: "", concentrationMgPerML: 0, doseMgPerKg: -1, route: .subcutaneous,
            frequency: " ", startDate: Fixture.day("2020-04-01"), endDate: Fixture.day("2020-03-31"))
        #expect(
            Fixture.fields { () throws(ValidationError) in try bad.validate(birthDate: Self.birth) }
                == ["drug", "concentrationMgPerML", "doseMgPerKg", "frequency", "startDate", "endDate"])
        let course = Medication(
            patientID: Fixture.patientID, drug: "Amoxicillin", concentrationMgPerML: 50, doseMgPerKg: 10, route: .oral,
            frequency: "every 12 hours", startDate: Fixture.day("2026-03-10"), endDate: Fixture.day("2026-03-15"))
        #expect(Fixture.fields { () throws(ValidationError) in try course.validate(birthDate: Self.birth) } == [])
        #expect(course.isCurrent(on: Fixture.day("2026-03-10")))
        #expect(course.isCurrent(on: Fixture.day("2026-03-15", hour: 23)))
        #expect(!course.isCurrent(on: Fixture.day("2026-03-16")))
        #expect(!course.isCurrent(on: Fixture.day("2026-03-09", hour: 23)))
    }

    @Test(
        "vaccination dates",
        arguments: [
            ("2025-05-01", "2026-05-01", [String]()),
            ("2020-05-01", "2020-05-22", []), // on the birth day
            ("2020-04-30", "2021-04-30", ["administeredDate"]), // before birth
            ("2026-03-16", "2027-03-16", ["administeredDate"]), // in the future
            ("2025-05-01", "2025-04-30", ["nextDueDate"]), // due before given
            ("2025-05-01", "2025-05-01", ["nextDueDate"]), // due the same day
        ])
    func vaccination(administered: String, nextDue: String, fields: [String]) {
        let vaccination = Vaccination(
            patientID: Fixture.patientID, vaccine: "DHPPi", administeredDate: Fixture.day(administered),
            batchNumber: "A123", nextDueDate: Fixture.day(nextDue))
        #expect(
            Fixture.fields { () throws(ValidationError) in
                try vaccination.validate(now: Fixture.now, birthDate: Self.birth)
            } == fields)
    }

    @Test("a vaccination needs a vaccine name and a non-blank batch when one is given")
    func vaccinationText() {
        let vaccination = Vaccination(
            patientID: Fixture.patientID, vaccine: "", administeredDate: Fixture.day("2025-05-01"), batchNumber: " ")
        #expect(
            Fixture.fields { () throws(ValidationError) in try vaccination.validate(now: Fixture.now) } == [
                "vaccine", "batchNumber",
            ])
    }
}
