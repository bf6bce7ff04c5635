import Foundation
import SharedKernel

// MARK: - Engine

/// Triages a case with the Veterinary Triage List (Ruys et al. 2012), reductively as the
/// Manchester Triage System does (spec §2):
///
/// 1. every catalogue discriminator is evaluated (asserted findings and derived rules, §4,
///    including the objective vital-sign safety net of §4.4);
/// 2. the level is the most urgent among those that fired ("highest level wins");
/// 3. every fired discriminator is returned with its evidence;
/// 4. if nothing fired: green when the problem began within 7 days **or onset is unknown**,
///    otherwise blue;
/// 5. target time = arrival + the level's maximum wait.
///
/// The engine is a pure value: no I/O, no shared state; its only effect is reading the
/// injected ``Clock`` for `assessedAt`. Readings where the specification is ambiguous are
/// resolved towards the more urgent level and listed in ``SpecificationReadings``.
public struct TriageEngine: Sendable {
    /// Version of the rule set; stored with every result so an assessment can be re-played.
    ///
    /// `vetnet-1.1.0` added the objective vital-sign safety net (§4.4: `cyanosis`,
    /// `spo2_very_low`, `spo2_low`, `abnormal_pulse`, `hypotension`). A stored assessment keeps
    /// the version it was made with; a re-triage evaluates with this one.
    /// `vetnet-1.2.0` added hypothermia at admission in rabbits (§4.5: `rabbit_hypothermia_severe`,
    /// `rabbit_hypothermia`).
    public static let rulesVersion = "vtl-ruys2012+vetnet-1.2.0"

    /// Source of `assessedAt`.
    public var clock: Clock
    /// Weights of the complexity score.
    public var complexityWeights: ComplexityWeights

    /// Creates an engine.
    public init(clock: Clock = .system, complexityWeights: ComplexityWeights = .standard) {
        self.clock = clock
        self.complexityWeights = complexityWeights
    }

    /// Triages `triageCase`.
    ///
    /// - Parameters:
    ///   - triageCase: a validated case (``TriageCase/init(jsonData:)`` validates; a case built
    ///     in code should pass ``TriageCase/validate()`` first).
    ///   - arrival: when the patient arrived; defaults to now. The target time counts from here.
    ///   - context: what the medical record adds (chronic conditions).
    public func evaluate(_ triageCase: TriageCase, arrival: Date? = nil, context: TriageContext = TriageContext())
        -> TriageResult
    {
        let now = clock.now()
        var firings = Firings()
        var notes = TriageRules.apply(triageCase, into: &firings)
        let fired = firings.sorted()

        let level: TriageLevel
        let fallThrough: String?
        if let mostUrgent = fired.first?.level {
            level = mostUrgent
            fallThrough = nil
        } else if let onset = triageCase.onsetHoursAgo {
            level = onset <= ClinicalThresholds.recentOnsetHours ? .green : .blue
            fallThrough =
                "no discriminator fired; onset " + Format.decimal(onset) + " h ago is "
                + (level == .green ? "within 7 days (recent problem): green" : "more than 7 days ago: blue")
        } else {
            level = .green
            fallThrough = "no discriminator fired; onset unknown: green (the safer choice)"
        }

        let validated = triageCase.species == .dog || triageCase.species == .cat
        if !validated {
            notes.insert(
                "The VTL was validated on dogs and cats only; treat this level as guidance for a "
                    + triageCase.species.rawValue + ".", at: 0)
        }
        let abnormal = VitalFlags.abnormalVitals(of: triageCase)
        let abcde = ABCDESummary.survey(fired: fired, abnormalVitals: abnormal)
        let complexity = ComplexityScore.compute(
            level: level, firedCount: fired.count, abcdeLettersInvolved: abcde.involvedLetters.count,
            abnormalVitalCount: abnormal.count, chronicConditionCount: context.chronicConditionCount,
            ageExtreme: AgeExtremes.classify(ageWeeks: triageCase.ageWeeks, species: triageCase.species),
            species: triageCase.species, weights: complexityWeights
        )
        let specialties = SpecialtyRouting.rank(
            level: level, fired: fired, complaint: triageCase.complaint, species: triageCase.species)

        return TriageResult(
            level: level, fired: fired, fallThrough: fallThrough, abcde: abcde, abnormalVitals: abnormal,
            complexity: complexity, specialties: specialties, species: triageCase.species,
            validatedForSpecies: validated, notes: notes, rulesVersion: Self.rulesVersion,
            assessedAt: now, arrival: arrival ?? now
        )
    }
}
