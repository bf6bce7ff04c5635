import Foundation
import SharedKernel

/// One weighing of a patient, kept in the unit it was entered in so that the record shows
/// exactly what the nurse typed.
public struct WeightMeasurement: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: Identifier<WeightMeasurement>
    /// The patient weighed.
    public var patientID: Identifier<Patient>
    /// The number as entered.
    public var value: Decimal
    /// The unit it was entered in.
    public var unit: WeightUnit
    /// When the patient was weighed.
    public var measuredAt: Date

    /// Creates a measurement.
    public init(
        id: Identifier<WeightMeasurement> = .init(), patientID: Identifier<Patient>, value: Decimal, unit: WeightUnit,
        measuredAt: Date
    ) {
        self.id = id
        self.patientID = patientID
        self.value = value
        self.unit = unit
        self.measuredAt = measuredAt
    }

    // MARK: - Conversions

    /// The exact weight in grams.
    public var grams: Decimal { unit.convert(value, to: .g) }

    /// The exact weight in kilograms, the unit doses are prescribed per.
    public var kilograms: Decimal { unit.convert(value, to: .kg) }

    /// The weight in whole grams, halves rounded up (10 lb → 4536 g).
    public var roundedGrams: Int {
        NSDecimalNumber(decimal: grams.rounded(fractionDigits: 0)).intValue
    }

    /// The weight in `unit`, rounded to `fractionDigits` places (1 kg → 2.20462 lb at 5 places).
    public func value(in unit: WeightUnit, fractionDigits: Int) -> Decimal {
        self.unit.convert(value, to: unit).rounded(fractionDigits: fractionDigits)
    }
}

// MARK: - Ordering

extension WeightMeasurement {
    /// Chronological order; ties (two weighings entered for the same instant) are broken by
    /// identifier so that every caller sees the same "latest" weight.
    public static func chronological(_ lhs: WeightMeasurement, _ rhs: WeightMeasurement) -> Bool {
        if lhs.measuredAt != rhs.measuredAt { return lhs.measuredAt < rhs.measuredAt }
        return lhs.id < rhs.id
    }
}
