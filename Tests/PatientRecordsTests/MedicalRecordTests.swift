import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("The medical record as a whole")
struct MedicalRecordTests {
    static let patient = Patient(
        id: Fixture.patientID, name: "Rex", species: .dog, birthDate: Fixture.day("2020-05-01"), ownerID: .init())

    static func medication(_ drug: String, from start: String, to end: String? = nil) -> Medication {
        Medication(
            patientID: Fixture.patientID, drug: drug, concentrationMgPerML: 10, doseMgPerKg: 2, route: .oral,
            frequency: "SID",
            startDate: Fixture.day(start), endDate: end.map { Fixture.day($0) })
    }

    @Test("reads active problems, current medications, allergies by severity, dose and reminders")
    func reading() throws {
        let record = MedicalRecord(
            patient: Self.patient,
            weights: [
                Fixture.weight("10", .kg, at: Fixture.day("2026-03-10")),
                Fixture.weight("9", .kg, at: Fixture.day("2026-01-10")),
            ],
            problems: [
                Problem(
                    patientID: Fixture.patientID, name: "Otitis", status: .resolved,
                    onsetDate: Fixture.day("2025-01-01"),
                    resolvedDate: Fixture.day("2025-02-01")),
                Problem(patientID: Fixture.patientID, name: "Osteoarthritis", onsetDate: Fixture.day("2025-06-01")),
            ],
            allergies: [
                Allergy(patientID: Fixture.patientID, substance: "Chicken", severity: .mild),
                Allergy(patientID: Fixture.patientID, substance: "Penicillin", severity: .severe),
            ],
            medications: [
                Self.medication("Meloxicam", from: "2026-03-01"),
                Self.medication("Amoxicillin", from: "2026-02-01", to: "2026-02-10"),
            ],
            vaccinations: [
                Vaccination(
                    patientID: Fixture.patientID, vaccine: "Rabies", administeredDate: Fixture.day("2025-03-20"),
                    nextDueDate: Fixture.day("2026-03-20"))
            ]
        )
        #expect(record.activeProblems.map(\.name) == ["Osteoarthritis"])
        #expect(record.allergiesBySeverity.map(\.substance) == ["Penicillin", "Chicken"])
        #expect(record.currentMedications(on: Fixture.now).map(\.drug) == ["Meloxicam"])
        #expect(record.age(now: Fixture.now)?.description == "5 years")
        let dose = try record.dose(for: record.medications[0], now: Fixture.now)
        #expect(dose.doseMg == 20 && dose.volumeML == 2)
        #expect(dose.weightMeasuredAt == Fixture.day("2026-03-10"))
        #expect(record.vaccinationReminders(asOf: Fixture.now).dueSoon.count == 1)
        #expect(Fixture.fields { () throws(ValidationError) in try record.validate(now: Fixture.now) } == [])
    }

    @Test("validation reports every bad entry by its path in the record")
    func validation() {
        let record = MedicalRecord(
            patient: Self.patient,
            weights: [Fixture.weight("150", .kg, at: Fixture.day("2026-03-01"))],
            problems: [
                Problem(
                    patientID: Fixture.patientID, name: "Otitis", status: .resolved,
                    onsetDate: Fixture.day("2025-02-01"),
                    resolvedDate: Fixture.day("2025-01-01"))
            ],
            medications: [Self.medication("Meloxicam", from: "2026-03-01", to: "2026-02-01")],
            vaccinations: [
                Vaccination(
                    patientID: Fixture.otherPatientID, vaccine: "Rabies", administeredDate: Fixture.day("2019-01-01"))
            ]
        )
        #expect(
            Fixture.fields { () throws(ValidationError) in try record.validate(now: Fixture.now) } == [
                "weights[0].value", "problems[0].resolvedDate", "medications[0].endDate",
                "vaccinations[0].patientId", "vaccinations[0].administeredDate",
            ])
    }
}
