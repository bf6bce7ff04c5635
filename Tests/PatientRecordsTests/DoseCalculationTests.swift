import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Dose from the latest weight")
struct DoseCalculationTests {
    static func medication(rate: String = "2", concentration: String = "10") -> Medication {
        Medication(
            patientID: Fixture.patientID, drug: "Meloxicam", concentrationMgPerML: Fixture.dec(concentration),
            doseMgPerKg: Fixture.dec(rate),
            route: .oral, frequency: "every 24 hours", startDate: Fixture.day("2026-03-15"))
    }

    @Test(
        "dose in mg and volume in mL from weight, rate and concentration",
        arguments: [
            ("10", WeightUnit.kg, "2", "10", "20", "2"), // the worked example: 10 kg dog
            ("4.5", .kg, "0.1", "1.5", "0.45", "0.3"),
            ("22", .lb, "2", "10", "19.95806428", "1.995806428"), // 22 lb = 9.97903214 kg exactly
            ("350", .g, "5", "50", "1.75", "0.035"),
            ("30", .kg, "0.2", "5", "6", "1.2"),
        ])
    func dose(weight: String, unit: WeightUnit, rate: String, concentration: String, mg: String, mL: String) throws {
        let result = try Self.medication(rate: rate, concentration: concentration)
            .dose(weights: [Fixture.weight(weight, unit, at: Fixture.day("2026-03-14"))], now: Fixture.now)
        #expect(result.doseMg == Fixture.dec(mg))
        #expect(result.volumeML == Fixture.dec(mL))
    }

    @Test("the result names the weight used and its date, and rounds for the label")
    func weightUsed() throws {
        let old = Fixture.weight("9", .kg, at: Fixture.day("2026-03-01"))
        let latest = Fixture.weight("22", .lb, at: Fixture.day("2026-03-10"))
        let result = try Self.medication().dose(weights: [latest, old], now: Fixture.now)
        #expect(result.weight.id == latest.id)
        #expect(result.weightMeasuredAt == Fixture.day("2026-03-10"))
        #expect(result.weightKg == Fixture.dec("9.97903214"))
        #expect(result.doseMg(fractionDigits: 1) == Fixture.dec("20"))
        #expect(result.volumeML(fractionDigits: 2) == Fixture.dec("2"))
    }

    @Test("no weight, or only a future-dated one, refuses the computation")
    func noWeight() {
        #expect(throws: DoseCalculationError.noWeight) { try Self.medication().dose(weights: [], now: Fixture.now) }
        let future = Fixture.weight("10", .kg, at: Fixture.now.addingTimeInterval(3600))
        #expect(throws: DoseCalculationError.noWeight) {
            try Self.medication().dose(weights: [future], now: Fixture.now)
        }
    }

    @Test(
        "a weight older than the limit is refused; exactly at the limit it is used",
        arguments: [
            (30, 30, 0, true),
            (30, 30, 1, false), // one second past the limit
            (30, 31, 0, false),
            (7, 7, 0, true),
            (7, 8, 0, false),
            (0, 0, 0, true),
        ])
    func staleness(limit: Int, days: Int, extraSeconds: Int, accepted: Bool) {
        let age = TimeInterval(days * 86_400 + extraSeconds)
        let weight = Fixture.weight("10", .kg, at: Fixture.now.addingTimeInterval(-age))
        do {
            let result = try Self.medication().dose(weights: [weight], now: Fixture.now, maximumWeightAgeInDays: limit)
            #expect(accepted)
            #expect(result.doseMg == 20)
        } catch {
            #expect(!accepted)
            #expect(error == .staleWeight(measuredAt: weight.measuredAt, ageInDays: days, maximumAgeInDays: limit))
            #expect(error.description.contains("weigh the patient again"))
        }
    }

    @Test("the default limit is 30 days")
    func defaultLimit() {
        #expect(Medication.defaultMaximumWeightAgeInDays == 30)
        let weight = Fixture.weight("10", .kg, at: Fixture.day("2026-02-01"))
        #expect(throws: DoseCalculationError.self) { try Self.medication().dose(weights: [weight], now: Fixture.now) }
    }

    @Test("a zero rate or concentration is refused before any arithmetic")
    func invalidPrescription() {
        let weight = Fixture.weight("10", .kg)
        #expect(
            throws: DoseCalculationError.invalidPrescription(
                ValidationError(field: "concentrationMgPerML", message: "must be greater than zero"))
        ) {
            try Self.medication(concentration: "0").dose(weights: [weight], now: Fixture.now)
        }
    }
}
