import Foundation
import SharedKernel

// MARK: - Factors and weights

/// What a match score is made of.
public enum MatchFactor: String, CaseIterable, Codable, Sendable {
    /// Proficiency in the case's specialties, the first-ranked specialty counting most.
    case expertise
    /// Whether the clinician treats the species.
    case species
    /// How soon the clinician is free, relative to the case's maximum wait.
    case availability
    /// How much of the day's capacity is still free (spreads work across the team).
    case workload
    /// Whether the clinician has seen the patient before.
    case continuity
}

/// Relative weights of the factors. The score divides by their sum, so weights need not add up to 1.
public struct MatchWeights: Hashable, Codable, Sendable {
    /// Weight per factor; a missing factor weighs 0.
    public var values: [MatchFactor: Double]

    /// Creates weights.
    public init(_ values: [MatchFactor: Double]) { self.values = values }

    /// The default: the right skills matter most (0.40), then being free soon enough (0.20),
    /// then spreading work (0.15) and continuity of care (0.15); species competence (0.10) is
    /// mostly a tie-breaker because most clinicians treat dogs and cats.
    public static let standard = MatchWeights([
        .expertise: 0.40, .availability: 0.20, .workload: 0.15, .continuity: 0.15, .species: 0.10,
    ])

    /// Weight of `factor`, 0 when absent.
    public subscript(factor: MatchFactor) -> Double { values[factor] ?? 0 }

    /// Sum of all weights.
    public var total: Double { MatchFactor.allCases.reduce(0) { $0 + self[$1] } }
}

// MARK: - Results

/// One named contribution to a score: `contribution = weight × value / total weight`.
public struct ScorePart: Hashable, Codable, Sendable {
    /// The factor.
    public var factor: MatchFactor
    /// The factor's weight as configured.
    public var weight: Double
    /// The clinician's value on this factor, 0…1.
    public var value: Double
    /// What it adds to the score.
    public var contribution: Double
    /// A sentence explaining the value.
    public var detail: String

    /// Creates a part.
    public init(factor: MatchFactor, weight: Double, value: Double, contribution: Double, detail: String) {
        self.factor = factor
        self.weight = weight
        self.value = value
        self.contribution = contribution
        self.detail = detail
    }
}

/// A ranked clinician with the parts of their score.
public struct ClinicianMatch: Hashable, Codable, Sendable {
    /// The clinician.
    public var clinicianID: Identifier<Clinician>
    /// Name for the list.
    public var displayName: String
    /// Total score, 0…1 (the sum of the parts' contributions).
    public var score: Double
    /// Every factor's contribution, in ``MatchFactor`` order.
    public var parts: [ScorePart]
    /// Earliest free start, if known.
    public var earliestStart: Date?
    /// Whether ``earliestStart`` lies within the case's maximum wait (always true without one, when a start is known).
    public var withinMaxWait: Bool

    /// Creates a match.
    public init(
        clinicianID: Identifier<Clinician>, displayName: String, score: Double, parts: [ScorePart],
        earliestStart: Date?, withinMaxWait: Bool
    ) {
        self.clinicianID = clinicianID
        self.displayName = displayName
        self.score = score
        self.parts = parts
        self.earliestStart = earliestStart
        self.withinMaxWait = withinMaxWait
    }

    /// The part for `factor`.
    public func part(_ factor: MatchFactor) -> ScorePart? { parts.first { $0.factor == factor } }
}

/// A clinician the hard filters removed, with the reason.
public struct MatchExclusion: Hashable, Codable, Sendable {
    /// The clinician.
    public var clinicianID: Identifier<Clinician>
    /// Name for the list.
    public var displayName: String
    /// Why they cannot take the case.
    public var reason: String

    /// Creates an exclusion.
    public init(clinicianID: Identifier<Clinician>, displayName: String, reason: String) {
        self.clinicianID = clinicianID
        self.displayName = displayName
        self.reason = reason
    }
}

/// The matcher's answer: ranked clinicians, best first, and those excluded.
public struct MatchResult: Hashable, Codable, Sendable {
    /// Eligible clinicians, best first.
    public var ranked: [ClinicianMatch]
    /// Clinicians removed by a hard filter, in input order.
    public var excluded: [MatchExclusion]

    /// Creates a result.
    public init(ranked: [ClinicianMatch], excluded: [MatchExclusion]) {
        self.ranked = ranked
        self.excluded = excluded
    }
}
