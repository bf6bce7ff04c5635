import Foundation

extension Decimal {
    /// The value rounded to `fractionDigits` decimal places, halves away from zero
    /// (the rounding a clinician expects on a label: 2.345 mL → 2.35 mL).
    func rounded(fractionDigits: Int) -> Decimal {
        var source = self
        var result = Decimal()
        NSDecimalRound(&result, &source, fractionDigits, .plain)
        return result
    }
}
