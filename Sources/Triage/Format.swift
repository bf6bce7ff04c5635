// MARK: - Number formatting

/// Locale-free, allocation-light number formatting for evidence and messages.
///
/// Foundation's formatters are slow on the evaluation path and locale-dependent; evidence
/// must read the same on every server.
enum Format {
    /// Up to `places` decimals, trailing zeros dropped: 41.0 → "41", 40.55 → "40.55", 103.46 → "103.5" (1 place).
    static func decimal(_ value: Double, places: Int = 2) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return "\(value)" }
        let whole = Int(scaled) / Int(scale)
        var fraction = Int(scaled) % Int(scale)
        var digits = places
        while digits > 0 && fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        var fractionText = String(fraction)
        while fractionText.count < digits { fractionText = "0" + fractionText }
        return sign + String(whole) + "." + fractionText
    }
}
