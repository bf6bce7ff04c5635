import Foundation
import SharedKernel
import Testing

@testable import Triage

/// Temperature boundaries at and ±0.1 (°C): value → the band that must fire (nil = none).
let celsiusBoundaries: [(Double, DiscriminatorID?)] = [
    (41.1, .tempGe41), (41.0, .tempGe41), (40.9, .temp40_5To40_9),
    (40.6, .temp40_5To40_9), (40.5, .temp40_5To40_9), (40.4, .temp40_0To40_4),
    (40.1, .temp40_0To40_4), (40.0, .temp40_0To40_4), (39.9, .temp39_0To39_9),
    (39.1, .temp39_0To39_9), (39.0, .temp39_0To39_9), (38.9, nil),
    (36.8, nil), (36.7, .tempLe36_7), (36.6, .tempLe36_7),
]

/// The same boundaries in °F: the °F equivalent of each °C boundary, and ±0.1 °F around it.
let fahrenheitBoundaries: [(Double, DiscriminatorID?)] = [
    (105.9, .tempGe41), (105.8, .tempGe41), (105.7, .temp40_5To40_9), // 41.0 °C = 105.8 °F
    (105.0, .temp40_5To40_9), (104.9, .temp40_5To40_9), (104.8, .temp40_0To40_4), // 40.5 °C = 104.9 °F
    (104.1, .temp40_0To40_4), (104.0, .temp40_0To40_4), (103.9, .temp39_0To39_9), // 40.0 °C = 104.0 °F
    (102.3, .temp39_0To39_9), (102.2, .temp39_0To39_9), (102.1, nil), // 39.0 °C = 102.2 °F
    (98.16, nil), (98.06, .tempLe36_7), (97.96, .tempLe36_7), // 36.7 °C = 98.06 °F
]

private let temperatureBands: Set<DiscriminatorID> = [
    .tempGe41, .temp40_5To40_9, .temp40_0To40_4, .temp39_0To39_9, .tempLe36_7,
]

private func band(_ result: TriageResult) -> [DiscriminatorID] {
    result.fired.map(\.id).filter { temperatureBands.contains($0) }
}

@Suite("Numeric thresholds at and ±0.1 around each boundary")
struct ThresholdTests {
    // MARK: Temperature

    @Test("temperature bands in °C (dog)", arguments: celsiusBoundaries)
    func celsiusBands(value: Double, expected: DiscriminatorID?) {
        #expect(band(triage(dog(Vitals(temperature: Temperature(value, .celsius))))) == (expected.map { [$0] } ?? []))
    }

    @Test("temperature bands in °F (cat)", arguments: fahrenheitBoundaries)
    func fahrenheitBands(value: Double, expected: DiscriminatorID?) {
        #expect(
            band(triage(cat(Vitals(temperature: Temperature(value, .fahrenheit))))) == (expected.map { [$0] } ?? []))
    }

    @Test(
        "°F converts to °C as (°F − 32) × 5/9",
        arguments: [(212.0, 100.0), (32.0, 0.0), (105.8, 41.0), (98.06, 36.7), (103.5, 39.722222)])
    func fahrenheitConversion(fahrenheit: Double, celsius: Double) {
        #expect(abs(Temperature(fahrenheit, .fahrenheit).celsius - celsius) < 1e-6)
        #expect(Temperature(celsius, .celsius).celsius == celsius)
    }

    @Test(
        "the same temperature in °C and °F triages the same",
        arguments: stride(from: 35.0, through: 42.0, by: 0.1).map { $0 })
    func unitsAgree(celsius: Double) {
        let inCelsius = triage(dog(Vitals(temperature: Temperature((celsius * 10).rounded() / 10, .celsius))))
        let inFahrenheit = triage(
            dog(Vitals(temperature: Temperature(((celsius * 10).rounded() / 10) * 9 / 5 + 32, .fahrenheit))))
        #expect(inCelsius.level == inFahrenheit.level)
        #expect(inCelsius.fired.map(\.id) == inFahrenheit.fired.map(\.id))
    }

    // MARK: Glucose

    @Test("hypoglycaemia ≤ 3.3 mmol/L", arguments: [(3.2, true), (3.3, true), (3.4, false), (1.0, true), (5.0, false)])
    func hypoglycaemiaMmol(value: Double, fires: Bool) {
        #expect(triage(dog(Vitals(glucose: Glucose(value, .mmolPerLitre)))).didFire(.hypoglycemia) == fires)
    }

    @Test(
        "hypoglycaemia ≤ 60 mg/dL (3.33 mmol/L: the safer of the spec's two figures)",
        arguments: [(59.9, true), (60.0, true), (60.1, false), (18.0, true), (90.0, false)])
    func hypoglycaemiaMgPerDecilitre(value: Double, fires: Bool) {
        let result = triage(dog(Vitals(glucose: Glucose(value, .mgPerDecilitre))))
        #expect(result.didFire(.hypoglycemia) == fires)
        if fires { #expect(result.level == .red) }
    }

    @Test(
        "hyperglycaemia with ketosis ≥ 11 mmol/L", arguments: [(10.9, false), (11.0, true), (11.1, true), (30.0, true)])
    func hyperglycaemiaMmol(value: Double, fires: Bool) {
        #expect(
            triage(cat(Vitals(glucose: Glucose(value, .mmolPerLitre), ketosis: true))).didFire(.hyperglycemiaKetosis)
                == fires)
    }

    @Test(
        """
        hyperglycaemia with ketosis in mg/dL: 11 mmol/L = 198.176 mg/dL; 200 mg/dL and just below it fire (safer \
        reading)
        """,
        arguments: [
            (198.076, false), (198.176, true), (198.276, true), (199.9, true), (200.0, true), (200.1, true),
            (150.0, false),
        ])
    func hyperglycaemiaMgPerDecilitre(value: Double, fires: Bool) {
        #expect(
            triage(cat(Vitals(glucose: Glucose(value, .mgPerDecilitre), ketosis: true))).didFire(.hyperglycemiaKetosis)
                == fires)
    }

    @Test(
        "mg/dL converts to mmol/L by ÷ 18.016", arguments: [(18.016, 1.0), (90.08, 5.0), (198.176, 11.0), (0.0, 0.0)])
    func glucoseConversion(mg: Double, mmol: Double) {
        #expect(abs(Glucose(mg, .mgPerDecilitre).mmolPerLitre - mmol) < 1e-6)
    }

    // MARK: Dehydration

    @Test(
        "dehydration: > 8 % severe, 5–8 % moderate",
        arguments: [
            (4.9, DiscriminatorID?.none), (5.0, .dehydrationModerate), (5.1, .dehydrationModerate),
            (7.9, .dehydrationModerate),
            (8.0, .dehydrationModerate), (8.1, .dehydrationSevere), (20.0, .dehydrationSevere), (0.0, nil),
        ])
    func dehydration(percent: Double, expected: DiscriminatorID?) {
        #expect(triage(dog(Vitals(dehydrationPercent: percent))).fired.map(\.id) == (expected.map { [$0] } ?? []))
    }

    // MARK: Neonatal anorexia

    @Test("neonatal anorexia: age < 12 weeks", arguments: [(11.9, true), (12.0, false), (12.1, false), (1.0, true)])
    func neonateAge(weeks: Double, fires: Bool) {
        #expect(
            triage(dog(observations: Observations(hoursSinceLastMeal: 20), age: weeks)).didFire(.anorexiaNeonate)
                == fires)
    }

    @Test("neonatal anorexia: ≥ 12 h since the last meal", arguments: [(11.9, false), (12.0, true), (12.1, true)])
    func neonateFasting(hours: Double, fires: Bool) {
        #expect(
            triage(cat(observations: Observations(hoursSinceLastMeal: hours), age: 4)).didFire(.anorexiaNeonate)
                == fires)
    }

    @Test("neonatal anorexia needs the age: unknown age fires nothing (missing data fires nothing)")
    func neonateUnknownAge() {
        #expect(!triage(dog(observations: Observations(hoursSinceLastMeal: 30), age: nil)).didFire(.anorexiaNeonate))
    }

    // MARK: Shock-sign thresholds

    @Test("cat bradycardia < 120 /min is a shock sign", arguments: [(119.9, true), (120.0, false), (120.1, false)])
    func catBradycardia(heartRate: Double, shock: Bool) {
        let result = triage(cat(Vitals(heartRate: heartRate, mucousMembranes: .pale, mentation: .depressed)))
        #expect(result.didFire(.shockDecompensated) == shock)
        #expect(result.level == (shock ? .red : .orange))
    }

    @Test("dog tachycardia > 160 /min is a shock sign", arguments: [(159.9, false), (160.0, false), (160.1, true)])
    func dogTachycardia(heartRate: Double, shock: Bool) {
        #expect(
            triage(dog(Vitals(heartRate: heartRate, mucousMembranes: .pale, mentation: .depressed))).didFire(
                .shockDecompensated) == shock)
    }

    @Test("CRT > 2 s is a shock sign and a key sign", arguments: [(1.9, false), (2.0, false), (2.1, true)])
    func capillaryRefill(seconds: Double, shock: Bool) {
        #expect(
            triage(dog(Vitals(capillaryRefillSeconds: seconds, mucousMembranes: .grey, pulseQuality: .weak))).didFire(
                .shockDecompensated) == shock)
    }

    @Test(
        "rectal temperature < 37.8 °C is a shock sign (°C and °F)",
        arguments: [
            (Temperature(37.7, .celsius), true), (Temperature(37.8, .celsius), false),
            (Temperature(37.9, .celsius), false),
            (Temperature(99.94, .fahrenheit), true), (Temperature(100.04, .fahrenheit), false),
            (Temperature(100.14, .fahrenheit), false),
        ])
    func lowTemperature(temperature: Temperature, shock: Bool) {
        #expect(
            triage(dog(Vitals(temperature: temperature, mucousMembranes: .pale, mentation: .depressed))).didFire(
                .shockDecompensated) == shock)
    }

    // MARK: Onset

    @Test(
        "fall-through: within 7 days (168 h) green, older blue",
        arguments: [(167.9, TriageLevel.green), (168.0, .green), (168.1, .blue), (0, .green)])
    func onsetBoundary(hours: Double, level: TriageLevel) {
        #expect(triage(dog(onset: hours)).level == level)
    }
}
