import SharedKernel

// MARK: - Physically possible values

/// Limits outside which a value cannot be a real measurement (spec §4.1). A value outside
/// them is a typing or unit error, and triaging on it could hide a real emergency, so the
/// case is refused with the field named rather than evaluated.
///
/// The spec fixes temperature (15–47 °C), heart rate (> 0, ≤ 500), CRT (≥ 0) and dehydration
/// (0–20 %); the other limits are project choices, set wide enough never to refuse a
/// measured extreme (e.g. respiratory rate 0 in apnoea is accepted and flagged).
public enum PhysicalLimits {
    /// Rectal temperature, °C, inclusive.
    public static let temperatureCelsius: ClosedRange<Double> = 15...47
    /// Heart rate upper bound (inclusive); the lower bound is exclusive: HR must be > 0.
    public static let heartRateMax: Double = 500
    /// Respiratory rate, breaths/min, inclusive.
    public static let respiratoryRate: ClosedRange<Double> = 0...300
    /// Capillary refill time, seconds, inclusive.
    public static let capillaryRefillSeconds: ClosedRange<Double> = 0...30
    /// Systolic blood pressure, mmHg, inclusive.
    public static let systolicBP: ClosedRange<Double> = 0...400
    /// Oxygen saturation, percent, inclusive.
    public static let spo2: ClosedRange<Double> = 0...100
    /// Blood glucose, mmol/L, inclusive.
    public static let glucoseMmolPerLitre: ClosedRange<Double> = 0...200
    /// Dehydration, percent, inclusive.
    public static let dehydrationPercent: ClosedRange<Double> = 0...20
    /// Age, weeks (100 years), inclusive.
    public static let ageWeeks: ClosedRange<Double> = 0...5_200
    /// Onset, hours ago (100 years), inclusive.
    public static let onsetHoursAgo: ClosedRange<Double> = 0...876_000
    /// Seizures in 24 h, inclusive.
    public static let seizuresLast24h: ClosedRange<Int> = 0...200
    /// Hours since the last meal (one year), inclusive.
    public static let hoursSinceLastMeal: ClosedRange<Double> = 0...8_760
    /// Longest accepted complaint, in characters.
    public static let complaintMaxLength = 2_000
}

// MARK: - Validation

extension TriageCase {
    /// Throws a ``ValidationError`` naming every physically impossible value (§4.1).
    ///
    /// ``TriageCase/init(jsonData:)`` already calls this; call it yourself for a case built in code.
    public func validate() throws(ValidationError) {
        var collector = FieldErrorCollector()
        collectRangeErrors(into: &collector)
        try collector.throwIfAny()
    }

    /// Adds an error for every value outside ``PhysicalLimits``, in wire-format field order.
    func collectRangeErrors(into errors: inout FieldErrorCollector) {
        check(ageWeeks, "ageWeeks", PhysicalLimits.ageWeeks, "weeks", &errors)
        check(onsetHoursAgo, "onsetHoursAgo", PhysicalLimits.onsetHoursAgo, "hours", &errors)

        if let temperature = vitals.temperature {
            let celsius = temperature.celsius
            if !temperature.value.isFinite || !PhysicalLimits.temperatureCelsius.contains(celsius) {
                let entered =
                    temperature.unit == .celsius
                    ? "\(Format.decimal(temperature.value)) °C"
                    : "\(Format.decimal(temperature.value)) °F (\(Format.decimal(celsius)) °C)"
                errors.add(
                    "vitals.temperature.value",
                    """
                    \(entered) is physically impossible: a rectal temperature must be 15–47 °C (59–116.6 °F); check \
                    the value and its unit
                    """
                )
            }
        }
        if let heartRate = vitals.heartRate,
            !heartRate.isFinite || heartRate <= 0 || heartRate > PhysicalLimits.heartRateMax
        {
            errors.add(
                "vitals.heartRate",
                """
                \(Format.decimal(heartRate)) /min is physically impossible: heart rate must be above 0 and at most \
                500 /min
                """
            )
        }
        check(vitals.respiratoryRate, "vitals.respiratoryRate", PhysicalLimits.respiratoryRate, "/min", &errors)
        check(
            vitals.capillaryRefillSeconds, "vitals.capillaryRefillSeconds", PhysicalLimits.capillaryRefillSeconds, "s",
            &errors)
        check(vitals.systolicBP, "vitals.systolicBP", PhysicalLimits.systolicBP, "mmHg", &errors)
        check(vitals.spo2, "vitals.spo2", PhysicalLimits.spo2, "%", &errors)
        if let glucose = vitals.glucose {
            let mmol = glucose.mmolPerLitre
            if !glucose.value.isFinite || !PhysicalLimits.glucoseMmolPerLitre.contains(mmol) {
                errors.add(
                    "vitals.glucose.value",
                    """
                    \(Format.decimal(glucose.value)) \(glucose.unit.rawValue) is physically impossible: glucose must \
                    be 0–200 mmol/L (0–3603 mg/dL); check the value and its unit
                    """
                )
            }
        }
        check(vitals.dehydrationPercent, "vitals.dehydrationPercent", PhysicalLimits.dehydrationPercent, "%", &errors)

        if let seizures = observations.seizuresLast24h, !PhysicalLimits.seizuresLast24h.contains(seizures) {
            errors.add(
                "observations.seizuresLast24h", "\(seizures) is impossible: must be a whole number from 0 to 200")
        }
        check(
            observations.hoursSinceLastMeal, "observations.hoursSinceLastMeal", PhysicalLimits.hoursSinceLastMeal,
            "hours", &errors)

        if let complaint, complaint.count > PhysicalLimits.complaintMaxLength {
            errors.add(
                "complaint",
                "is \(complaint.count) characters long; at most \(PhysicalLimits.complaintMaxLength) are accepted")
        }
    }

    private func check(
        _ value: Double?, _ field: String, _ range: ClosedRange<Double>, _ unit: String,
        _ errors: inout FieldErrorCollector
    ) {
        guard let value else { return }
        if !value.isFinite || !range.contains(value) {
            errors.add(
                field,
                """
                \(Format.decimal(value)) \(unit) is physically impossible: must be from \
                \(Format.decimal(range.lowerBound)) to \(Format.decimal(range.upperBound)) \(unit)
                """
            )
        }
    }
}
