import Foundation
import SharedKernel

// MARK: - Validation

extension WeightMeasurement {
    /// Checks the measurement for a patient of `species` born on `birthDate` (if known).
    ///
    /// Refuses, naming the field: a value that is not a number, zero or negative, a value outside the
    /// species' plausible range (``SpeciesWeightRange``), a weighing in the future or before
    /// the patient was born.
    public func validate(species: Species, birthDate: Date? = nil, now: Date, calendar: Calendar = RecordCalendar.utc)
        throws(ValidationError)
    {
        var errors = FieldErrorCollector()
        if value.isNaN {
            // Checked first: Decimal's NaN also compares as `<= 0`.
            errors.add("value", "must be a number")
        } else if value <= 0 {
            errors.add("value", "must be greater than zero")
        } else if !SpeciesWeightRange.contains(self, for: species) {
            let range = SpeciesWeightRange.kilograms(for: species)
            errors.add(
                "value",
                """
                \(value) \(unit.rawValue) is not a plausible weight for a \(species.rawValue) \
                (\(range.lowerBound)–\(range.upperBound) kg)
                """
            )
        }
        if measuredAt > now { errors.add("measuredAt", "must not be in the future") }
        if let birthDate, calendar.startOfDay(for: measuredAt) < calendar.startOfDay(for: birthDate) {
            errors.add("measuredAt", "must not be before the patient's birth date")
        }
        try errors.throwIfAny()
    }
}
