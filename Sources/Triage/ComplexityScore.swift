import SharedKernel

// MARK: - Weights

/// The weights of the case-complexity score (spec §8), calibratable from recorded outcomes.
///
/// The score is `min(1, Σ weightᵢ × featureᵢ)` with every feature in [0, 1] and
/// non-decreasing in the findings, so the score is monotone: adding a finding never lowers
/// it. The standard weights sum to 1, so the clamp only matters for calibrated weights.
///
/// | factor | feature in [0, 1] | standard weight |
/// |---|---|---|
/// | level | urgency: red 1, orange 0.75, yellow 0.5, green 0.25, blue 0 | 0.30 |
/// | fired discriminators | min(n, 5) / 5 | 0.20 |
/// | ABCDE letters involved | non-normal letters / 6 (`<C>`, A–E) | 0.15 |
/// | abnormal vitals | min(n, 4) / 4 | 0.10 |
/// | chronic conditions | min(n, 3) / 3 | 0.10 |
/// | age extreme for the species | 1 if very young or old (see ``AgeExtremes``) | 0.07 |
/// | exotic species | 1 for rabbit, ferret, bird, reptile | 0.08 |
public struct ComplexityWeights: Hashable, Codable, Sendable {
    /// Weight of the level's urgency.
    public var level: Double
    /// Weight of the number of fired discriminators.
    public var firedDiscriminators: Double
    /// Count at which the fired-discriminator feature saturates.
    public var firedDiscriminatorsSaturation: Int
    /// Weight of the number of ABCDE letters involved.
    public var abcdeLetters: Double
    /// Weight of the number of abnormal vitals.
    public var abnormalVitals: Double
    /// Count at which the abnormal-vitals feature saturates.
    public var abnormalVitalsSaturation: Int
    /// Weight of the chronic-condition count.
    public var chronicConditions: Double
    /// Count at which the chronic-condition feature saturates.
    public var chronicConditionsSaturation: Int
    /// Weight of an age extreme.
    public var ageExtreme: Double
    /// Weight of an exotic species.
    public var exoticSpecies: Double

    /// Creates weights. Negative weights are clamped to 0 and saturations to at least 1,
    /// because either would break monotonicity.
    public init(
        level: Double, firedDiscriminators: Double, firedDiscriminatorsSaturation: Int, abcdeLetters: Double,
        abnormalVitals: Double, abnormalVitalsSaturation: Int, chronicConditions: Double,
        chronicConditionsSaturation: Int, ageExtreme: Double, exoticSpecies: Double
    ) {
        self.level = max(0, level)
        self.firedDiscriminators = max(0, firedDiscriminators)
        self.firedDiscriminatorsSaturation = max(1, firedDiscriminatorsSaturation)
        self.abcdeLetters = max(0, abcdeLetters)
        self.abnormalVitals = max(0, abnormalVitals)
        self.abnormalVitalsSaturation = max(1, abnormalVitalsSaturation)
        self.chronicConditions = max(0, chronicConditions)
        self.chronicConditionsSaturation = max(1, chronicConditionsSaturation)
        self.ageExtreme = max(0, ageExtreme)
        self.exoticSpecies = max(0, exoticSpecies)
    }

    /// The documented standard weights (sum 1.0).
    public static let standard = ComplexityWeights(
        level: 0.30, firedDiscriminators: 0.20, firedDiscriminatorsSaturation: 5, abcdeLetters: 0.15,
        abnormalVitals: 0.10, abnormalVitalsSaturation: 4, chronicConditions: 0.10,
        chronicConditionsSaturation: 3, ageExtreme: 0.07, exoticSpecies: 0.08
    )
}

// MARK: - Score

/// One factor of the complexity score.
public enum ComplexityFactor: String, CaseIterable, Codable, Sendable {
    case level
    case firedDiscriminators = "fired_discriminators"
    case abcdeLetters = "abcde_letters"
    case abnormalVitals = "abnormal_vitals"
    case chronicConditions = "chronic_conditions"
    case ageExtreme = "age_extreme"
    case exoticSpecies = "exotic_species"
}

/// What one factor added to the score.
public struct ComplexityContribution: Hashable, Codable, Sendable {
    /// The factor.
    public let factor: ComplexityFactor
    /// The input in words (`orange`, `3 fired`, `rabbit`).
    public let input: String
    /// The factor's feature value in [0, 1].
    public let feature: Double
    /// The factor's weight.
    public let weight: Double
    /// `weight × feature`, the points added.
    public let points: Double
}

/// Case complexity in [0, 1] with every contribution listed (zero ones too).
public struct ComplexityScore: Hashable, Sendable {
    /// The score, `min(1, Σ points)`.
    public let score: Double
    /// One entry per factor, in ``ComplexityFactor`` order.
    public let contributions: [ComplexityContribution]

    /// Computes the score from its inputs.
    public static func compute(
        level: TriageLevel, firedCount: Int, abcdeLettersInvolved: Int, abnormalVitalCount: Int,
        chronicConditionCount: Int, ageExtreme: String?, species: Species, weights: ComplexityWeights
    ) -> ComplexityScore {
        func saturating(_ count: Int, _ saturation: Int) -> Double {
            Double(min(max(count, 0), saturation)) / Double(saturation)
        }
        let letters = ABCDELetter.allCases.count
        let rows: [(ComplexityFactor, String, Double, Double)] = [
            (.level, level.colour, level.urgency, weights.level),
            (
                .firedDiscriminators, String(firedCount) + " fired",
                saturating(firedCount, weights.firedDiscriminatorsSaturation), weights.firedDiscriminators
            ),
            (
                .abcdeLetters, String(abcdeLettersInvolved) + " of " + String(letters) + " letters",
                saturating(abcdeLettersInvolved, letters), weights.abcdeLetters
            ),
            (
                .abnormalVitals, String(abnormalVitalCount) + " abnormal",
                saturating(abnormalVitalCount, weights.abnormalVitalsSaturation), weights.abnormalVitals
            ),
            (
                .chronicConditions, String(chronicConditionCount) + " chronic",
                saturating(chronicConditionCount, weights.chronicConditionsSaturation), weights.chronicConditions
            ),
            (.ageExtreme, ageExtreme ?? "no", ageExtreme == nil ? 0 : 1, weights.ageExtreme),
            (.exoticSpecies, species.rawValue, species.isExotic ? 1 : 0, weights.exoticSpecies),
        ]
        var total = 0.0
        var contributions: [ComplexityContribution] = []
        contributions.reserveCapacity(rows.count)
        for (factor, input, feature, weight) in rows {
            let points = weight * feature
            total += points
            contributions.append(
                ComplexityContribution(factor: factor, input: input, feature: feature, weight: weight, points: points))
        }
        // Rounded to 1e-9 so the maximal case scores exactly 1 despite binary fractions;
        // rounding is non-decreasing, so monotonicity is kept.
        let score = (min(1, max(0, total)) * 1e9).rounded() / 1e9
        return ComplexityScore(score: score, contributions: contributions)
    }
}

// MARK: - Age extremes

/// Very young or old for the species (project choice; the spec names the factor only).
///
/// Young: dog and cat < 26 weeks, rabbit and ferret < 12 weeks, horse < 26 weeks (foal).
/// Old: dog ≥ 520 weeks (10 y), cat ≥ 624 (12 y), rabbit ≥ 312 (6 y), ferret ≥ 260 (5 y),
/// horse ≥ 1040 (20 y). Birds, reptiles and others have lifespans too varied to call.
public enum AgeExtremes {
    /// The young-below / old-at-or-above limits in weeks, `nil` when the species has none.
    public static func limits(for species: Species) -> (youngBelow: Double, oldAtOrAbove: Double)? {
        switch species {
        case .dog: return (26, 520)
        case .cat: return (26, 624)
        case .rabbit: return (12, 312)
        case .ferret: return (12, 260)
        case .horse: return (26, 1_040)
        case .bird, .reptile, .other: return nil
        }
    }

    /// `"young"`, `"old"` or `nil`.
    public static func classify(ageWeeks: Double?, species: Species) -> String? {
        guard let age = ageWeeks, let limits = limits(for: species) else { return nil }
        if age < limits.youngBelow { return "young (" + Format.decimal(age) + " weeks)" }
        if age >= limits.oldAtOrAbove { return "old (" + Format.decimal(age) + " weeks)" }
        return nil
    }
}
