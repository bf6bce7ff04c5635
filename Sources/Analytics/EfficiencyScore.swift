import Foundation

/// The parts the efficiency score is made of, each a share from 0 (worst) to 1 (best).
public enum EfficiencyFactor: String, CaseIterable, Codable, Sendable {
    /// `min(1, booked ÷ available minutes)` of the clinicians: time on the rota that earns.
    case utilization
    /// `1 − no-show rate`: booked slots the patient actually came to.
    case attendance
    /// `1 − late-cancellation rate`: slots not lost to short-notice cancellations.
    case slotRetention
    /// `max(0, 1 − mean |actual − booked| ÷ mean booked length)`: how well the booked
    /// lengths fit the consultations (overruns and idle gaps both count).
    case durationFit
    /// Share of triaged patients seen within their VTL maximum wait.
    case triageCompliance
}

/// Relative weights of the efficiency factors; the score divides by the weights of the parts
/// that have data, so they need not add up to 1.
public struct EfficiencyWeights: Hashable, Codable, Sendable {
    /// Weight per factor; a missing factor weighs 0.
    public var values: [EfficiencyFactor: Double]

    /// Creates weights.
    public init(_ values: [EfficiencyFactor: Double]) { self.values = values }

    /// The default: use of clinician time counts most (0.30) because it is the practice's
    /// scarcest resource; triage compliance (0.20) and attendance (0.20) next, because a
    /// missed emergency target or an empty slot cost the most after that; late
    /// cancellations (0.15) and duration fit (0.15) last, as they mostly cost slack.
    public static let standard = EfficiencyWeights([
        .utilization: 0.30, .triageCompliance: 0.20, .attendance: 0.20, .slotRetention: 0.15, .durationFit: 0.15,
    ])

    /// Weight of `factor`, 0 when absent or negative.
    public subscript(factor: EfficiencyFactor) -> Double { max(0, values[factor] ?? 0) }
}

/// One part of the efficiency score.
public struct EfficiencyPart: Hashable, Codable, Sendable {
    /// The factor.
    public let factor: EfficiencyFactor
    /// The factor's value, 0…1; `nil` when the period has no data for it.
    public let value: Double?
    /// Its configured weight.
    public let weight: Double
    /// Points it adds to the score: `100 × weight × value ÷ (sum of weights with data)`; 0 without data.
    public let points: Double

    /// Creates a part.
    public init(factor: EfficiencyFactor, value: Double?, weight: Double, points: Double) {
        self.factor = factor
        self.value = value
        self.weight = weight
        self.points = points
    }
}

/// A 0–100 summary of how well the practice turned its time into care.
///
/// **Formula:** `score = 100 × Σ wᵢ·vᵢ ÷ Σ wᵢ`, summed over the factors ``EfficiencyFactor``
/// that have data in the period (vᵢ in 0…1, wᵢ from ``EfficiencyWeights``). A factor without
/// data (no triage arrivals, no completed appointments) is left out and the others are
/// re-weighted, so a practice without an emergency service is not marked down for it; with
/// no data at all the score is `nil`. The parts add up to the score.
public struct EfficiencyScore: Hashable, Codable, Sendable {
    /// The score, 0–100; `nil` when no factor has data.
    public let value: Double?
    /// Every factor, in ``EfficiencyFactor`` order.
    public let parts: [EfficiencyPart]

    /// Computes the score from factor values (absent or `nil` means no data).
    public init(values: [EfficiencyFactor: Double?], weights: EfficiencyWeights) {
        let present = EfficiencyFactor.allCases.compactMap { factor -> (EfficiencyFactor, Double)? in
            guard let value = values[factor] ?? nil, value.isFinite else { return nil }
            return (factor, min(1, max(0, value)))
        }
        let totalWeight = present.reduce(0) { $0 + weights[$1.0] }
        let known = Dictionary(uniqueKeysWithValues: present)
        parts = EfficiencyFactor.allCases.map { factor in
            let value = known[factor]
            let points = (value != nil && totalWeight > 0) ? 100 * weights[factor] * value! / totalWeight : 0
            return EfficiencyPart(factor: factor, value: value, weight: weights[factor], points: points)
        }
        value = totalWeight > 0 ? parts.reduce(0) { $0 + $1.points } : nil
    }

    /// The part for `factor`.
    public func part(_ factor: EfficiencyFactor) -> EfficiencyPart? { parts.first { $0.factor == factor } }
}
