import Foundation
import Scheduling
import SharedKernel
import Testing

@Suite("Duration prediction")
struct DurationPredictorTests {
    static let dental = AppointmentType(
        name: "Dental", defaultDurationMinutes: 30, fee: Money(minorUnits: 20000, currency: "GBP"))
    static let origin = BookingFixture.at("2026-01-05T09:00:00Z")

    private static func visits(
        _ minutes: [Int], species: Species = .dog, clinician: Int = 1, type: AppointmentType = dental
    ) -> [CompletedVisit] {
        minutes.enumerated().map { index, value in
            CompletedVisit(
                appointmentTypeID: type.id, species: species, complexity: 0.3,
                clinicianID: BookingFixture.clinician(clinician),
                actualMinutes: value, completedAt: origin.addingTimeInterval(TimeInterval(index * 3600)))
        }
    }

    @Test("no or too little history falls back to the type's default", arguments: [0, 4])
    func fallback(count: Int) {
        let predictor = DurationPredictor(history: Self.visits(Array(repeating: 60, count: count)))
        let prediction = predictor.predict(type: Self.dental, species: .dog, clinicianID: BookingFixture.clinician(1))
        #expect(prediction.minutes == 30 && prediction.levels.isEmpty)
    }

    @Test(
        "type mean is shrunk towards the default, then rounded up to the grid",
        arguments: [
            (5, 5.0, 5, 45.0, 45), (5, 0.0, 5, 60.0, 60), (10, 5.0, 5, 50.0, 50), (5, 5.0, 15, 45.0, 45),
            (5, 1.0, 10, 55.0, 60),
        ] as [(Int, Double, Int, Double, Int)])
    func typeLevel(count: Int, shrinkage: Double, grid: Int, raw: Double, minutes: Int) {
        // Cats only, so the dog prediction uses the type level alone.
        let predictor = DurationPredictor(
            history: Self.visits(Array(repeating: 60, count: count), species: .cat, clinician: 9),
            minimumSamples: 5, shrinkage: shrinkage, gridMinutes: grid)
        let prediction = predictor.predict(type: Self.dental, species: .dog, clinicianID: nil)
        #expect(abs(prediction.rawMinutes - raw) < 1e-9)
        #expect(prediction.minutes == minutes)
        #expect(prediction.levels == [.type])
    }

    @Test("species and clinician levels refine the type level")
    func levels() {
        let history =
            Self.visits(Array(repeating: 30, count: 10), species: .dog, clinician: 1)
            + Self.visits(Array(repeating: 50, count: 10), species: .rabbit, clinician: 2)
            + Self.visits(Array(repeating: 45, count: 10), species: .dog, clinician: 3)
        let predictor = DurationPredictor(history: history, shrinkage: 0, gridMinutes: 1)
        #expect(predictor.predict(type: Self.dental, species: .rabbit, clinicianID: nil).minutes == 50)
        let slow = predictor.predict(type: Self.dental, species: .dog, clinicianID: BookingFixture.clinician(3))
        #expect(slow.levels == [.type, .species, .clinician])
        #expect(slow.minutes == 45)
        #expect(predictor.predict(type: Self.dental, species: .cat, clinicianID: nil).levels == [.type])
    }

    @Test("on a synthetic history the predictor beats the defaults on held-out visits")
    func heldOut() {
        let consult = AppointmentType(
            name: "Consultation", defaultDurationMinutes: 15, fee: Money(minorUnits: 4500, currency: "GBP"))
        let surgery = AppointmentType(
            name: "Spay", defaultDurationMinutes: 60, fee: Money(minorUnits: 30000, currency: "GBP"))
        var state: UInt64 = 42
        func noise() -> Int {
            // A small deterministic linear congruential generator: reproducible without Foundation randomness.
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 59) - 16 // −16…15, i.e. roughly ±15 %
        }
        var history: [CompletedVisit] = []
        for index in 0..<600 {
            let type = index % 3 == 0 ? surgery : consult
            let species: Species = index % 4 == 0 ? .rabbit : .dog
            let clinician = index % 5
            var minutes = type.id == consult.id ? 22 : 75
            if species == .rabbit { minutes += 10 }
            if clinician == 4 { minutes = minutes * 3 / 2 }
            minutes = max(5, minutes + minutes * noise() / 100)
            history.append(
                CompletedVisit(
                    appointmentTypeID: type.id, species: species, complexity: 0.5,
                    clinicianID: BookingFixture.clinician(clinician),
                    actualMinutes: minutes, completedAt: Self.origin.addingTimeInterval(TimeInterval(index * 1800))))
        }
        let result = DurationPredictor.evaluate(history: history, types: [consult, surgery])
        #expect(result.trainCount == 480 && result.testCount == 120)
        #expect(result.predictorMAE < result.defaultMAE / 2)
        #expect(result.improvement > 5)
        // Deterministic: the order of the input does not matter.
        #expect(DurationPredictor.evaluate(history: history.reversed(), types: [consult, surgery]) == result)
    }
}
