import Foundation
import SharedKernel

@testable import Triage

/// A fixed instant so target times and events are reproducible.
let testNow = Date(timeIntervalSince1970: 1_750_000_000)

/// The engine every test uses: frozen clock, standard weights.
let engine = TriageEngine(clock: .fixed(testNow))

/// Triages a case built in code.
func triage(_ triageCase: TriageCase, context: TriageContext = TriageContext()) -> TriageResult {
    engine.evaluate(triageCase, arrival: testNow, context: context)
}

/// Parses JSON text and triages it; fails the test on a validation error.
func triage(json: String) throws -> TriageResult {
    engine.evaluate(try TriageCase(json: json), arrival: testNow)
}

/// Parses JSON text expecting a ValidationError; returns it (nil if parsing succeeded).
func validationError(_ json: String) -> ValidationError? {
    do {
        _ = try TriageCase(json: json)
        return nil
    } catch {
        return error
    }
}

/// A dog with vitals only.
func dog(
    _ vitals: Vitals = Vitals(), observations: Observations = Observations(), onset: Double? = 2, age: Double? = 200
) -> TriageCase {
    TriageCase(species: .dog, ageWeeks: age, onsetHoursAgo: onset, vitals: vitals, observations: observations)
}

/// A cat with vitals only.
func cat(
    _ vitals: Vitals = Vitals(), observations: Observations = Observations(), onset: Double? = 2, age: Double? = 200
) -> TriageCase {
    TriageCase(species: .cat, ageWeeks: age, onsetHoursAgo: onset, vitals: vitals, observations: observations)
}

/// Deterministic pseudo-random numbers so property tests are reproducible.
typealias SeededGenerator = SplitMix64
