import Foundation
import SharedKernel

/// A dose computed for one administration, with the weight it was computed from so that the
/// label and the record can show "based on 10 kg, weighed 2026-03-01".
public struct DoseCalculation: Codable, Hashable, Sendable {
    /// The weighing used.
    public let weight: WeightMeasurement
    /// That weight in kilograms.
    public let weightKg: Decimal
    /// Dose in mg: dose rate × weight in kg (exact).
    public let doseMg: Decimal
    /// Volume to draw up in mL: dose ÷ concentration (exact to Decimal precision).
    public let volumeML: Decimal

    /// Creates a calculation; ``Medication/dose(weights:now:maximumWeightAgeInDays:)`` is the
    /// usual way to get one.
    public init(weight: WeightMeasurement, weightKg: Decimal, doseMg: Decimal, volumeML: Decimal) {
        self.weight = weight
        self.weightKg = weightKg
        self.doseMg = doseMg
        self.volumeML = volumeML
    }

    /// When the weight used was measured.
    public var weightMeasuredAt: Date { weight.measuredAt }

    /// The dose rounded to `fractionDigits` places for a label.
    public func doseMg(fractionDigits: Int) -> Decimal { doseMg.rounded(fractionDigits: fractionDigits) }

    /// The volume rounded to `fractionDigits` places for a syringe (2 places is 0.01 mL).
    public func volumeML(fractionDigits: Int) -> Decimal { volumeML.rounded(fractionDigits: fractionDigits) }
}

/// Why a dose was not computed. A dose from a missing or stale weight is a medication error
/// waiting to happen, so the record refuses rather than guessing.
public enum DoseCalculationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The patient has never been weighed (or only with a time after `now`).
    case noWeight
    /// The latest weight is older than the allowed age.
    case staleWeight(measuredAt: Date, ageInDays: Int, maximumAgeInDays: Int)
    /// The prescription itself cannot produce a dose (non-positive rate or concentration).
    case invalidPrescription(ValidationError)

    public var description: String {
        switch self {
        case .noWeight:
            return "No weight recorded for this patient; weigh the patient before computing a dose."
        case .staleWeight(let measuredAt, let age, let limit):
            return
                """
                The latest weight (\(Timestamp.string(measuredAt))) is \(age) days old, more than the \(limit) days \
                allowed; weigh the patient again.
                """
        case .invalidPrescription(let error):
            return "The prescription is invalid: \(error)"
        }
    }
}

// MARK: - Dose from weight

extension Medication {
    /// Days a weight stays usable for dosing unless the practice configures otherwise.
    public static let defaultMaximumWeightAgeInDays = 30

    /// Computes the dose in mg and the volume in mL from the latest weight taken at or before
    /// `now`.
    ///
    /// Refuses when there is no such weight, or when it is more than `maximumWeightAgeInDays`
    /// days old (a weight exactly that old is still accepted).
    public func dose(
        weights: WeightHistory, now: Date,
        maximumWeightAgeInDays: Int = Medication.defaultMaximumWeightAgeInDays
    ) throws(DoseCalculationError) -> DoseCalculation {
        var errors = FieldErrorCollector()
        if concentrationMgPerML <= 0 { errors.add("concentrationMgPerML", "must be greater than zero") }
        if doseMgPerKg <= 0 { errors.add("doseMgPerKg", "must be greater than zero") }
        if !errors.errors.isEmpty { throw .invalidPrescription(ValidationError(errors.errors)) }

        guard let weight = weights.latest(asOf: now) else { throw .noWeight }
        let age = now.timeIntervalSince(weight.measuredAt)
        if age > TimeInterval(maximumWeightAgeInDays) * 86_400 {
            throw .staleWeight(
                measuredAt: weight.measuredAt, ageInDays: Int(age / 86_400), maximumAgeInDays: maximumWeightAgeInDays)
        }
        let kilograms = weight.kilograms
        let doseMg = doseMgPerKg * kilograms
        return DoseCalculation(
            weight: weight, weightKg: kilograms, doseMg: doseMg, volumeML: doseMg / concentrationMgPerML)
    }

    /// Convenience for weighings in any order.
    public func dose(
        weights: [WeightMeasurement], now: Date,
        maximumWeightAgeInDays: Int = Medication.defaultMaximumWeightAgeInDays
    ) throws(DoseCalculationError) -> DoseCalculation {
        try dose(weights: WeightHistory(weights), now: now, maximumWeightAgeInDays: maximumWeightAgeInDays)
    }
}
