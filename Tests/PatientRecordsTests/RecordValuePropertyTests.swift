import Foundation
import PatientRecords
import PropertyBased
import SharedKernel
import Testing

// MARK: - Generators

/// Weights as typed or imported: ordinary values, zero and negatives, the smallest and largest
/// magnitudes `Decimal` holds, and NaN (what `Decimal(1e308)` becomes).
private let weightValues = Generator<Decimal, Shrink.None<Decimal>> { rng in
    switch Int.random(in: 0...3, using: &rng) {
    case 0:
        let text = ["0", "-0", "-1", "1e127", "-1e127", "1e-127", "9.999e125", "0.0000001", "453.59237", "1e5"]
            .randomElement(using: &rng)!
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    case 1:
        return [Decimal.nan, Decimal(1e308), Decimal.greatestFiniteMagnitude, Decimal.leastNonzeroMagnitude]
            .randomElement(using: &rng)!
    default:
        // significand · 10^exponent over the whole range Decimal accepts.
        let significand = Decimal(Int64.random(in: -1_000_000...1_000_000, using: &rng))
        return significand * pow(Decimal(10), Int.random(in: -20...20, using: &rng))
    }
}

/// Instants from long before the Gregorian reform to far past any real date, including the
/// points where Foundation's calendar stops counting.
private let instants = Generator<Date, Shrink.None<Date>> { rng in
    switch Int.random(in: 0...2, using: &rng) {
    case 0:
        return [
            Date.distantPast, .distantFuture, Date(timeIntervalSince1970: 0), Fixture.now,
            Date(timeIntervalSinceReferenceDate: 1e300), Date(timeIntervalSinceReferenceDate: -1e300),
        ].randomElement(using: &rng)!
    case 1: return Fixture.now.addingTimeInterval(Double.random(in: -3e9...3e9, using: &rng))
    default: return Date(timeIntervalSinceReferenceDate: Double.random(in: -1e14...1e14, using: &rng))
    }
}

// MARK: - Properties

@Suite("Record value properties: weights, ages and calendar days from any input")
struct RecordValuePropertyTests {
    @Test(
        """
        a weight is accepted only when plausible for the species and not in the future; a refusal names value or \
        measuredAt
        """
    )
    func weightValidation() async {
        await propertyCheck(
            count: 500, input: weightValues, Gen<WeightUnit>.case, Gen<Species>.case, instants, instants.optional
        ) {
            value, unit, species, measuredAt, birthDate in
            let weight = WeightMeasurement(
                patientID: Fixture.patientID, value: value, unit: unit, measuredAt: measuredAt)
            do throws(ValidationError) {
                try weight.validate(species: species, birthDate: birthDate, now: Fixture.now)
                #expect(SpeciesWeightRange.contains(weight, for: species))
                #expect(measuredAt <= Fixture.now)
                // What a chart and a dose calculation read from an accepted weight.
                let kilograms = SpeciesWeightRange.kilograms(for: species)
                #expect(weight.roundedGrams >= 0 && Decimal(weight.roundedGrams) <= kilograms.upperBound * 1000 + 1)
                _ = weight.value(in: .lb, fractionDigits: 3)
            } catch {
                #expect(!error.errors.isEmpty)
                #expect(
                    error.errors.allSatisfy { ["value", "measuredAt"].contains($0.field) && !$0.message.isEmpty },
                    "\(error)")
            }
        }
    }

    @Test("an age is shown for any birth date not after now, in completed non-negative units")
    func ageFromAnyDates() async {
        await propertyCheck(count: 500, input: instants, instants) { birth, now in
            let calendar = RecordCalendar.utc
            guard let age = PatientAge(birthDate: birth, now: now) else {
                #expect(calendar.startOfDay(for: birth) > calendar.startOfDay(for: now), "no age for \(birth) … \(now)")
                return
            }
            #expect(age.value >= 0 && age.weeks >= 0, "\(age) for \(birth) … \(now)")
            #expect(!age.description.isEmpty)
        }
    }

    @Test("a calendar day parses only in the form YYYY-MM-DD of a real day, and formats back to the same text")
    func isoDays() async {
        let digits = Gen<Character?>.element(of: Array("0123456789")).map { $0 ?? "0" }
        let texts = zip(digits.string(of: 4), digits.string(of: 2), digits.string(of: 2), Gen.int(in: 0...9))
            .map { year, month, day, noise -> String in
                switch noise {
                case 0: return "\(year)-\(month)"
                case 1: return "\(year)-\(month)-\(day)T00:00"
                case 2: return "-\(year.dropFirst())-\(month)-\(day)"
                case 3: return "\(year)\(month)\(day)"
                default: return "\(year)-\(month)-\(day)"
                }
            }
        await propertyCheck(count: 500, input: texts) { text in
            guard let date = RecordCalendar.date(fromISODay: text) else { return }
            #expect(RecordCalendar.isoDay(date) == text)
        }
    }
}

// MARK: - Regression

@Suite("Record value regressions")
struct RecordValueRegressionTests {
    @Test(
        "a weight too small or too large for Decimal to convert is refused naming value, instead of trapping",
        arguments: [
            ("1e-127", WeightUnit.lb), ("1e-124", .lb), ("1e-127", .kg), ("1e127", .kg), ("9.999e125", .kg),
            ("1e127", .lb), ("-1e127", .kg),
        ])
    func hugeWeight(text: String, unit: WeightUnit) throws {
        let weight = Fixture.weight(text, unit)
        let fields = Fixture.fields { () throws(ValidationError) in try weight.validate(species: .dog, now: Fixture.now)
        }
        #expect(fields == ["value"])
    }

    @Test("a conversion beyond Decimal's range, at either end, is NaN")
    func overflowingConversion() {
        #expect(WeightUnit.lb.convert(Fixture.dec("1e-127"), to: .g).isNaN)
        #expect(WeightUnit.g.convert(Fixture.dec("1e-125"), to: .lb).isNaN)
        #expect(WeightUnit.kg.convert(Fixture.dec("1e127"), to: .g).isNaN)
        #expect(WeightUnit.kg.convert(.leastNonzeroMagnitude, to: .lb).isNaN)
        #expect(WeightUnit.lb.convert(Fixture.dec("10"), to: .g) == Fixture.dec("4535.9237"))
    }

    @Test("a weight that is not a number is refused, never taken as plausible")
    func notANumber() {
        let weight = WeightMeasurement(patientID: Fixture.patientID, value: .nan, unit: .kg, measuredAt: Fixture.now)
        #expect(!SpeciesWeightRange.contains(weight, for: .other))
        #expect(
            Fixture.fields { () throws(ValidationError) in try weight.validate(species: .other, now: Fixture.now) } == [
                "value"
            ])
    }
}
