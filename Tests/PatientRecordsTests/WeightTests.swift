import Foundation
import PatientRecords
import SharedKernel
import Testing

@Suite("Weights: exact conversions, plausibility, history")
struct WeightTests {
    @Test(
        "conversions to grams are exact, and round to the gram the same in every unit",
        arguments: [
            ("10", WeightUnit.lb, "4535.9237", 4536),
            ("1", .lb, "453.59237", 454),
            ("0.5", .lb, "226.796185", 227),
            ("1", .kg, "1000", 1000),
            ("4.25", .kg, "4250", 4250),
            ("0.0125", .kg, "12.5", 13), // halves round up
            ("350", .g, "350", 350),
            ("2.2046226218", .lb, "999.999999977875666", 1000),
        ])
    func grams(value: String, unit: WeightUnit, exact: String, rounded: Int) {
        let weight = Fixture.weight(value, unit)
        #expect(weight.grams == Fixture.dec(exact))
        #expect(weight.roundedGrams == rounded)
    }

    @Test(
        "conversions between units at a given precision",
        arguments: [
            ("1", WeightUnit.kg, WeightUnit.lb, 5, "2.20462"),
            ("10", .kg, .lb, 2, "22.05"),
            ("10", .lb, .kg, 4, "4.5359"),
            ("4536", .g, .lb, 3, "10"),
            ("2.5", .kg, .g, 0, "2500"),
        ])
    func between(value: String, from: WeightUnit, to: WeightUnit, digits: Int, expected: String) {
        #expect(Fixture.weight(value, from).value(in: to, fractionDigits: digits) == Fixture.dec(expected))
    }

    @Test("the pound factor is exactly 453.59237 g")
    func poundFactor() {
        #expect(WeightUnit.gramsPerPound == Fixture.dec("453.59237"))
        #expect(WeightUnit.lb.convert(Fixture.dec("1"), to: .kg) == Fixture.dec("0.45359237"))
    }

    @Test("zero and negative weights are refused naming value", arguments: ["0", "-1", "-0.001"])
    func nonPositive(value: String) {
        let weight = Fixture.weight(value, .kg)
        #expect(
            Fixture.fields { () throws(ValidationError) in try weight.validate(species: .dog, now: Fixture.now) } == [
                "value"
            ])
    }

    @Test(
        "each species' plausible range is inclusive at both ends and refuses just outside",
        arguments: [
            (Species.dog, "0.05", "120"), (.cat, "0.05", "15"), (.rabbit, "0.02", "12"), (.ferret, "0.1", "3.5"),
            (.bird, "0.002", "20"), (.horse, "20", "1500"), (.reptile, "0.001", "300"), (.other, "0.001", "2000"),
        ])
    func speciesRange(species: Species, minimum: String, maximum: String) {
        func fields(_ kg: Decimal) -> [String] {
            let weight = WeightMeasurement(patientID: Fixture.patientID, value: kg, unit: .kg, measuredAt: Fixture.now)
            return Fixture.fields { () throws(ValidationError) in
                try weight.validate(species: species, now: Fixture.now)
            }
        }
        let low = Fixture.dec(minimum)
        let high = Fixture.dec(maximum)
        let step = Fixture.dec("0.0001")
        #expect(fields(low) == [])
        #expect(fields(high) == [])
        #expect(fields(low - step) == ["value"])
        #expect(fields(high + step) == ["value"])
        #expect(SpeciesWeightRange.kilograms(for: species) == low...high)
    }

    @Test("typical slips are refused: a 45 kg cat, a 2 g dog, a 3000 lb horse")
    func slips() {
        let cases: [(WeightMeasurement, Species)] = [
            (Fixture.weight("45", .kg), .cat), (Fixture.weight("2", .g), .dog), (Fixture.weight("3400", .lb), .horse),
        ]
        for (weight, species) in cases {
            #expect(
                Fixture.fields { () throws(ValidationError) in try weight.validate(species: species, now: Fixture.now) }
                    == ["value"])
        }
        // The same cat in pounds is fine: 9.9 lb ≈ 4.49 kg.
        #expect(
            Fixture.fields { () throws(ValidationError) in
                try Fixture.weight("9.9", .lb).validate(species: .cat, now: Fixture.now)
            } == [])
    }

    @Test("a weighing in the future or before birth is refused naming measuredAt")
    func impossibleDates() {
        let future = Fixture.weight("10", .kg, at: Fixture.now.addingTimeInterval(60))
        #expect(
            Fixture.fields { () throws(ValidationError) in try future.validate(species: .dog, now: Fixture.now) } == [
                "measuredAt"
            ])
        let beforeBirth = Fixture.weight("10", .kg, at: Fixture.day("2020-01-01"))
        #expect(
            Fixture.fields { () throws(ValidationError) in
                try beforeBirth.validate(species: .dog, birthDate: Fixture.day("2020-01-02"), now: Fixture.now)
            } == ["measuredAt"])
        let birthDay = Fixture.weight("0.3", .kg, at: Fixture.day("2020-01-02", hour: 8))
        #expect(
            Fixture.fields { () throws(ValidationError) in
                try birthDay.validate(species: .dog, birthDate: Fixture.day("2020-01-02"), now: Fixture.now)
            } == [])
    }

    @Test("history is chronological whatever the input order; latest ignores future-dated entries")
    func history() {
        let january = Fixture.weight("9", .kg, at: Fixture.day("2026-01-10"))
        let february = Fixture.weight("9.5", .kg, at: Fixture.day("2026-02-10"))
        let march = Fixture.weight("21", .lb, at: Fixture.day("2026-03-10"))
        let clockSlip = Fixture.weight("30", .kg, at: Fixture.day("2026-04-01"))
        var history = WeightHistory([march, january, clockSlip])
        history.append(february)
        #expect(history.measurements.map(\.id) == [january, february, march, clockSlip].map(\.id))
        #expect(history.newestFirst.first?.id == clockSlip.id)
        #expect(history.latest?.id == clockSlip.id)
        #expect(history.latest(asOf: Fixture.now)?.id == march.id)
        #expect(history.latest(asOf: Fixture.day("2026-01-09")) == nil)
        #expect(WeightHistory().latest == nil)
    }

    @Test("two weighings at the same instant order by identifier, so every reader sees the same latest")
    func tieBreak() {
        let a = WeightMeasurement(
            id: .init(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!), patientID: Fixture.patientID,
            value: 10, unit: .kg, measuredAt: Fixture.now)
        let b = WeightMeasurement(
            id: .init(UUID(uuidString: "00000000-0000-0000-0000-000000000002")!), patientID: Fixture.patientID,
            value: 11, unit: .kg, measuredAt: Fixture.now)
        #expect(WeightHistory([b, a]).latest?.id == b.id)
        #expect(WeightHistory([a, b]).latest?.id == b.id)
    }

    @Test("a measurement round-trips through JSON without losing its decimal value")
    func codable() throws {
        let weight = Fixture.weight("4.35", .kg)
        let decoded = try JSONDecoder().decode(WeightMeasurement.self, from: JSONEncoder().encode(weight))
        #expect(decoded == weight)
    }
}
