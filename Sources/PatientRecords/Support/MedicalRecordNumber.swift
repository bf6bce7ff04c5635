import Foundation

/// A practice's medical record numbers: `P-000001`, `P-000002`, … assigned in order per
/// practice (at least six digits, more once a practice passes 999,999). Both stores assign
/// them from a per-practice counter; this is the one rule for their text.
public enum MedicalRecordNumber {
    /// The record number of counter value `value`.
    public static func text(_ value: Int64) -> String {
        let digits = String(value)
        return "P-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The counter value of a number in the assigned form; `nil` for any other text (a number
    /// a practice brought from its previous system).
    public static func value(of text: String) -> Int64? {
        guard text.hasPrefix("P-") else { return nil }
        let digits = text.dropFirst(2)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int64(digits)
    }
}
