import Foundation
import SharedKernel
import Testing

@testable import Triage

/// A random but valid case: random species, age, onset, a random subset of vitals and findings.
func randomCase(_ rng: inout SeededGenerator) -> TriageCase {
    func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &rng) ? value() : nil }
    let species = Species.allCases.randomElement(using: &rng)!
    var vitals = Vitals()
    vitals.temperature = maybe(Temperature(Double.random(in: 35...42.5, using: &rng), .celsius))
    vitals.heartRate = maybe(Double.random(in: 20...450, using: &rng))
    vitals.respiratoryRate = maybe(Double.random(in: 4...90, using: &rng))
    vitals.capillaryRefillSeconds = maybe(Double.random(in: 0.5...4, using: &rng))
    vitals.capillaryRefillAbsent = maybe(Int.random(in: 0..<10, using: &rng) == 0)
    vitals.mucousMembranes = maybe(MucousMembranes.allCases.randomElement(using: &rng)!)
    vitals.pulseQuality = maybe(PulseQuality.allCases.randomElement(using: &rng)!)
    vitals.mentation = maybe(Mentation.allCases.randomElement(using: &rng)!)
    vitals.extremities = maybe(Extremities.allCases.randomElement(using: &rng)!)
    vitals.systolicBP = maybe(Double.random(in: 50...220, using: &rng))
    vitals.spo2 = maybe(Double.random(in: 80...100, using: &rng))
    vitals.glucose = maybe(Glucose(Double.random(in: 1...30, using: &rng), .mmolPerLitre))
    vitals.ketosis = maybe(Bool.random(using: &rng))
    vitals.dehydrationPercent = maybe(Double.random(in: 0...15, using: &rng))
    var observations = Observations()
    observations.respiratoryDistress = maybe(Grade.allCases.randomElement(using: &rng)!)
    observations.pain = maybe(Grade.allCases.randomElement(using: &rng)!)
    observations.hemorrhage = maybe(Hemorrhage.allCases.randomElement(using: &rng)!)
    observations.seizuresLast24h = maybe(Int.random(in: 0...5, using: &rng))
    observations.seizingNow = maybe(Int.random(in: 0..<8, using: &rng) == 0)
    observations.vomiting = maybe(Vomiting.allCases.randomElement(using: &rng)!)
    observations.hoursSinceLastMeal = maybe(Double.random(in: 0...48, using: &rng))
    let findings = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
        DiscriminatorID.allCases.randomElement(using: &rng)!
    }
    return TriageCase(
        species: species, ageWeeks: maybe(Double.random(in: 1...1200, using: &rng)),
        onsetHoursAgo: maybe(Double.random(in: 0...1000, using: &rng)),
        vitals: vitals, observations: observations, findings: Array(Set(findings)).sorted { $0.rawValue < $1.rawValue })
}

@Suite("Complexity score (§8)")
struct ComplexityTests {
    @Test("monotone: adding any finding to any of 600 random cases never lowers the score")
    func monotoneUnderAddedFindings() throws {
        var rng = SeededGenerator(seed: 20_240_601)
        for _ in 0..<600 {
            var triageCase = randomCase(&rng)
            try triageCase.validate()
            let chronic = Int.random(in: 0...4, using: &rng)
            let before = triage(triageCase, context: TriageContext(chronicConditionCount: chronic))
            let missing = DiscriminatorID.allCases.filter { !triageCase.findings.contains($0) }
            triageCase.findings.append(missing.randomElement(using: &rng)!)
            let after = triage(triageCase, context: TriageContext(chronicConditionCount: chronic))
            #expect(after.complexity.score >= before.complexity.score - 1e-12, "\(triageCase)")
            #expect(after.level <= before.level, "adding a finding never makes a case less urgent")
            // And another chronic condition never lowers it either.
            let sicker = triage(triageCase, context: TriageContext(chronicConditionCount: chronic + 1))
            #expect(sicker.complexity.score >= after.complexity.score)
        }
    }

    @Test("score in [0, 1], every factor listed, points = weight × feature, score = Σ points")
    func contributionsExplainScore() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<200 {
            let result = triage(
                randomCase(&rng), context: TriageContext(chronicConditionCount: Int.random(in: 0...5, using: &rng)))
            let complexity = result.complexity
            #expect((0...1).contains(complexity.score))
            #expect(complexity.contributions.map(\.factor) == ComplexityFactor.allCases)
            for contribution in complexity.contributions {
                #expect(abs(contribution.points - contribution.weight * contribution.feature) < 1e-12)
                #expect((0...1).contains(contribution.feature))
            }
            #expect(abs(complexity.score - min(1, complexity.contributions.map(\.points).reduce(0, +))) < 1e-9)
        }
    }

    @Test("the standard weights sum to 1 so the maximal case scores exactly 1")
    func maximalCase() {
        let weights = ComplexityWeights.standard
        let sum =
            weights.level + weights.firedDiscriminators + weights.abcdeLetters + weights.abnormalVitals
            + weights.chronicConditions + weights.ageExtreme + weights.exoticSpecies
        #expect(abs(sum - 1) < 1e-12)
        let worst = TriageCase(
            species: .rabbit, ageWeeks: 4,
            vitals: Vitals(
                temperature: Temperature(42, .celsius), heartRate: 400, respiratoryRate: 90, capillaryRefillSeconds: 4,
                mucousMembranes: .white,
                pulseQuality: .weak, mentation: .unresponsive, spo2: 85),
            observations: Observations(respiratoryDistress: .severe, hemorrhage: .exsanguinating),
            findings: [.acuteStridor, .evisceration, .toxinIngestion])
        #expect(triage(worst, context: TriageContext(chronicConditionCount: 5)).complexity.score == 1)
    }

    @Test(
        "each factor raises the score of an otherwise identical case",
        arguments: [
            (
                "exotic species", TriageCase(species: .dog, ageWeeks: 200), TriageCase(species: .ferret, ageWeeks: 200),
                0, 0
            ),
            ("age extreme", TriageCase(species: .cat, ageWeeks: 200), TriageCase(species: .cat, ageWeeks: 700), 0, 0),
            (
                "chronic conditions", TriageCase(species: .cat, ageWeeks: 200),
                TriageCase(species: .cat, ageWeeks: 200), 0, 2
            ),
            (
                "abnormal vital", TriageCase(species: .horse),
                TriageCase(species: .horse, vitals: Vitals(heartRate: 80)), 0, 0
            ),
            (
                "level", TriageCase(species: .dog, findings: [.swelling]),
                TriageCase(species: .dog, findings: [.evisceration]), 0, 0
            ),
        ])
    func factorsRaiseScore(label: String, base: TriageCase, raised: TriageCase, chronicBase: Int, chronicRaised: Int) {
        let low = triage(base, context: TriageContext(chronicConditionCount: chronicBase)).complexity.score
        let high = triage(raised, context: TriageContext(chronicConditionCount: chronicRaised)).complexity.score
        #expect(high > low, "\(label)")
    }

    @Test("calibrated weights are used, and negative weights are refused (clamped to 0) to keep monotonicity")
    func calibratedWeights() {
        var weights = ComplexityWeights.standard
        weights.exoticSpecies = 0.5
        let calibrated = TriageEngine(clock: .fixed(testNow), complexityWeights: weights)
        let rabbit = TriageCase(species: .rabbit)
        #expect(calibrated.evaluate(rabbit).complexity.score > triage(rabbit).complexity.score)
        let negative = ComplexityWeights(
            level: -1, firedDiscriminators: -1, firedDiscriminatorsSaturation: 0, abcdeLetters: 0.1,
            abnormalVitals: 0.1, abnormalVitalsSaturation: 0, chronicConditions: 0.1,
            chronicConditionsSaturation: -3, ageExtreme: 0.1, exoticSpecies: 0.1)
        #expect(negative.level == 0)
        #expect(negative.firedDiscriminatorsSaturation == 1)
    }
}
