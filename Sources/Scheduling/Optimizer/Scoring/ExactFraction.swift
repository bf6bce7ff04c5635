// MARK: - Exact rational arithmetic

/// A non-negative rational number with 128-bit parts, enough for every score of the
/// vetsched-v1 sizes without rounding (numerators stay below 2^90).
///
/// The score is defined in exact arithmetic (`fractions.Fraction` in `evaluate.py`), so the
/// Swift scorer must not round before the final conversion to `Double`.
public struct ExactFraction: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Numerator (lowest terms).
    public let numerator: Int128
    /// Denominator (lowest terms, positive).
    public let denominator: Int128

    /// Creates `numerator / denominator` in lowest terms; a zero denominator yields 0.
    public init(_ numerator: Int128, _ denominator: Int128 = 1) {
        guard denominator != 0 else {
            self.numerator = 0
            self.denominator = 1
            return
        }
        let sign: Int128 = denominator < 0 ? -1 : 1
        let g = Self.gcd(numerator.magnitude, denominator.magnitude)
        self.numerator = sign * numerator / Int128(g)
        self.denominator = sign * denominator / Int128(g)
    }

    static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
        var (a, b) = (a, b)
        while b != 0 { (a, b) = (b, a % b) }
        return a == 0 ? 1 : a
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.numerator * rhs.denominator < rhs.numerator * lhs.denominator
    }

    public var description: String { "\(numerator)/\(denominator)" }

    // MARK: - From Double, as Python's Fraction(x).limit_denominator(max)

    /// The exact value of `value` (a binary fraction), then the closest fraction whose
    /// denominator is at most `maxDenominator`, breaking ties like CPython's
    /// `Fraction.limit_denominator`. Values too small or too large for 128 bits become 0.
    public static func limitingDenominator(of value: Double, to maxDenominator: Int128 = 1000) -> ExactFraction {
        guard value.isFinite, value != 0 else { return ExactFraction(0) }
        let negative = value < 0
        let magnitude = value.magnitude
        // magnitude = significand · 2^shift with an integer significand of at most 53 bits.
        let significand = Int128(magnitude.significandBitPattern) | (magnitude.isNormal ? (Int128(1) << 52) : 0)
        let shift = Int(magnitude.exponent) - 52
        let exact: ExactFraction
        if shift >= 0 {
            guard shift < 70 else { return ExactFraction(0) }
            exact = ExactFraction(significand << shift)
        } else {
            guard -shift < 120 else { return ExactFraction(0) }
            exact = ExactFraction(significand, Int128(1) << -shift)
        }
        let limited = exact.limitingDenominator(to: maxDenominator)
        return negative ? ExactFraction(-limited.numerator, limited.denominator) : limited
    }

    /// The closest fraction with denominator at most `maxDenominator` (CPython's algorithm).
    public func limitingDenominator(to maxDenominator: Int128) -> ExactFraction {
        if denominator <= maxDenominator { return self }
        var (p0, q0, p1, q1): (Int128, Int128, Int128, Int128) = (0, 1, 1, 0)
        var (n, d) = (numerator, denominator)
        while true {
            let a = n / d
            let q2 = q0 + a * q1
            if q2 > maxDenominator { break }
            (p0, q0, p1, q1) = (p1, q1, p0 + a * p1, q2)
            (n, d) = (d, n - a * d)
        }
        let k = (maxDenominator - q0) / q1
        let bound1 = ExactFraction(p0 + k * p1, q0 + k * q1)
        let bound2 = ExactFraction(p1, q1)
        return (bound2 - self).absolute <= (bound1 - self).absolute ? bound2 : bound1
    }

    // MARK: - Arithmetic

    static func + (lhs: Self, rhs: Self) -> Self {
        ExactFraction(
            lhs.numerator * rhs.denominator + rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }

    static func - (lhs: Self, rhs: Self) -> Self {
        ExactFraction(
            lhs.numerator * rhs.denominator - rhs.numerator * lhs.denominator, lhs.denominator * rhs.denominator)
    }

    static func * (lhs: Self, rhs: Self) -> Self {
        ExactFraction(lhs.numerator * rhs.numerator, lhs.denominator * rhs.denominator)
    }

    var absolute: Self { numerator < 0 ? ExactFraction(-numerator, denominator) : self }

    // MARK: - To Double

    /// The nearest `Double` (round half to even), like Python's `float(Fraction)`.
    public var doubleValue: Double {
        if numerator == 0 { return 0 }
        let negative = numerator < 0
        let n = numerator.magnitude
        let d = denominator.magnitude
        // Build 55 significant quotient bits plus a sticky bit, then round to 53.
        var mantissa = n / d
        var remainder = n % d
        var exponent = 0
        var sticky = false
        while mantissa >> 55 != 0 {
            sticky = sticky || (mantissa & 1) != 0
            mantissa >>= 1
            exponent += 1
        }
        while mantissa >> 54 == 0 {
            remainder <<= 1
            mantissa <<= 1
            if remainder >= d {
                remainder -= d
                mantissa |= 1
            }
            exponent -= 1
        }
        sticky = sticky || remainder != 0
        let roundBit = (mantissa >> 1) & 1
        let lowBit = mantissa & 1
        mantissa >>= 2
        exponent += 2
        if roundBit == 1 && (lowBit == 1 || sticky || mantissa & 1 == 1) { mantissa += 1 }
        if mantissa >> 53 != 0 {
            mantissa >>= 1
            exponent += 1
        }
        let value = Double(sign: .plus, exponent: exponent, significand: Double(UInt64(mantissa)))
        return negative ? -value : value
    }
}
