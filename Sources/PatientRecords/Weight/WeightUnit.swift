import Foundation

/// A unit a weight can be entered in.
///
/// Conversions go through grams with exact decimal factors (the pound is defined as exactly
/// 453.59237 g by the 1959 international yard and pound agreement), so a value converted and
/// rounded to the gram is always the same whichever unit it was entered in.
public enum WeightUnit: String, Codable, Sendable, CaseIterable {
    /// Kilograms.
    case kg
    /// Grams, usual for birds, reptiles and neonates.
    case g
    /// Avoirdupois pounds.
    case lb

    /// Exact number of grams in one unit.
    public var grams: Decimal {
        switch self {
        case .kg: return 1000
        case .g: return 1
        case .lb: return Self.gramsPerPound
        }
    }

    /// 1 lb = 453.59237 g exactly.
    public static let gramsPerPound = Decimal(sign: .plus, exponent: -5, significand: 45_359_237)

    /// Converts `value` in this unit to `unit`. Exact to Decimal's 38 significant digits; only
    /// conversions *into* pounds can be non-terminating and are cut there. A value written with
    /// more than ``maximumFractionDigits`` decimal places (1e-127 kg) converts to NaN, which
    /// validation refuses; no weighing needs such precision.
    public func convert(_ value: Decimal, to unit: WeightUnit) -> Decimal {
        if unit == self { return value }
        // Decimal's multiplication traps when a product's exponent falls below its range
        // (about 10^-128), so such values never reach it. Overflow at the other end yields NaN.
        guard value.isZero || value.exponent >= -Self.maximumFractionDigits else { return .nan }
        return value * grams / unit.grams
    }

    /// Most decimal places a value may have and still be converted (see ``convert(_:to:)``).
    public static let maximumFractionDigits = 100
}
