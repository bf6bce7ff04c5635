import SharedKernel

// MARK: - Species reference ranges

/// Resting vital-sign reference ranges of one species (spec §5), inclusive.
public struct ReferenceRange: Hashable, Sendable {
    /// Heart rate, beats/min.
    public let heartRate: ClosedRange<Double>?
    /// Respiratory rate, breaths/min.
    public let respiratoryRate: ClosedRange<Double>?
    /// Rectal temperature, °C.
    public let temperatureCelsius: ClosedRange<Double>?
    /// Heart rate above which the species is called tachycardic (§5 notes), if published.
    public let tachycardiaAbove: Double?

    /// The ranges for `species`.
    ///
    /// Project choices: dogs use 60–120 /min (the small-dog 70–120 needs a size the case
    /// does not carry); horses use the adult ranges; birds have the class-wide heart and
    /// respiratory ranges and 40.0–42.0 °C around the "~41 °C core" of the spec; reptiles
    /// and "other" have no range, so none of their vitals are flagged against one.
    public static func forSpecies(_ species: Species) -> ReferenceRange {
        switch species {
        case .dog:
            return ReferenceRange(
                heartRate: 60...120, respiratoryRate: 10...30, temperatureCelsius: 37.7...39.5, tachycardiaAbove: 180)
        case .cat:
            return ReferenceRange(
                heartRate: 120...200, respiratoryRate: 20...30, temperatureCelsius: 38.0...39.2, tachycardiaAbove: 220)
        case .rabbit:
            return ReferenceRange(
                heartRate: 130...325, respiratoryRate: 32...60, temperatureCelsius: 38.0...40.0, tachycardiaAbove: nil)
        case .ferret:
            return ReferenceRange(
                heartRate: 200...400, respiratoryRate: 33...36, temperatureCelsius: 37.8...40.0, tachycardiaAbove: nil)
        case .horse:
            return ReferenceRange(
                heartRate: 30...44, respiratoryRate: 12...20, temperatureCelsius: 37.2...38.6, tachycardiaAbove: nil)
        case .bird:
            return ReferenceRange(
                heartRate: 93...494, respiratoryRate: 12...85, temperatureCelsius: 40.0...42.0, tachycardiaAbove: nil)
        case .reptile, .other:
            return ReferenceRange(heartRate: nil, respiratoryRate: nil, temperatureCelsius: nil, tachycardiaAbove: nil)
        }
    }
}

// MARK: - Thresholds shared by rules and flags

/// Clinical thresholds of spec §4–§5 that are not species ranges.
public enum ClinicalThresholds {
    /// CRT above this (s) is poor perfusion and a shock sign.
    public static let prolongedCRTSeconds = 2.0
    /// CRT below this (s) is hyperdynamic.
    public static let hyperdynamicCRTSeconds = 1.0
    /// A rabbit's rectal temperature below this (°C) is severe hypothermia at admission (`rabbit_hypothermia_severe`,
    /// §4.5).
    public static let rabbitSevereHypothermiaBelow = 37.0
    /// A rabbit's rectal temperature at or below this (°C), and not severe, is hypothermia at admission
    /// (`rabbit_hypothermia`, §4.5).
    public static let rabbitHypothermiaAtOrBelow = 37.9

    /// Systolic BP below this (mmHg) is hypotension (an abnormal vital in every species, the
    /// `hypotension` discriminator in dogs and cats, §4.4).
    public static let hypotensionBelow = 90.0
    /// Systolic BP at or above this (mmHg) is severe hypertension.
    public static let severeHypertensionAtOrAbove = 180.0
    /// SpO₂ below this (%) is hypoxaemia (`spo2_low`, §4.4).
    public static let hypoxaemiaBelow = 95.0
    /// SpO₂ below this (%) is severe hypoxaemia (`spo2_very_low`, §4.4).
    public static let severeHypoxaemiaBelow = 90.0
    /// Hypoglycaemia at or below this (mmol/L): the larger of 3.3 mmol/L and 60 mg/dL
    /// (= 3.3304 mmol/L), because the spec's two figures disagree and firing on either is safer.
    public static let hypoglycaemiaAtOrBelowMmol = max(3.3, Units.snap(60 / Units.glucoseMgPerMmol))
    /// Hyperglycaemia at or above this (mmol/L): the smaller of 11 mmol/L and 200 mg/dL
    /// (= 11.10 mmol/L), i.e. 11.0 mmol/L = 198.18 mg/dL, for the same reason.
    public static let hyperglycaemiaAtOrAboveMmol = min(11.0, Units.snap(200 / Units.glucoseMgPerMmol))
    /// Shock sign: rectal temperature below this (°C).
    public static let shockLowTemperatureBelow = 37.8
    /// Shock sign in cats: heart rate below this (/min).
    public static let catShockBradycardiaBelow = 120.0
    /// Shock sign in dogs: heart rate above this (/min).
    public static let dogShockTachycardiaAbove = 160.0
    /// Abnormal pulse in dogs (§4.4, Animal Trauma Triage grade): heart rate below this (/min).
    public static let dogAbnormalPulseBelow = 60.0
    /// Abnormal pulse in dogs (§4.4): heart rate above this (/min).
    public static let dogAbnormalPulseAbove = 180.0
    /// Abnormal pulse in cats (§4.4): heart rate at or below this (/min). Inclusive, unlike
    /// the shock sign's `< 120`: the two rules come from different sources and both are kept as published.
    public static let catAbnormalPulseAtOrBelow = 120.0
    /// Abnormal pulse in cats (§4.4): heart rate above this (/min).
    public static let catAbnormalPulseAbove = 260.0
    /// Onset within this many hours is a "recent problem" (7 days).
    public static let recentOnsetHours = 168.0
    /// Neonate: younger than this many weeks.
    public static let neonateBelowWeeks = 12.0
    /// Neonatal anorexia: at least this many hours since the last meal.
    public static let neonateFastingHours = 12.0
    /// Foreign body with signs: present longer than this many hours.
    public static let foreignBodyHours = 24.0
    /// Dehydration above this (%) is severe.
    public static let severeDehydrationAbove = 8.0
    /// Dehydration at or above this (%) is moderate (up to and including 8 %).
    public static let moderateDehydrationAtOrAbove = 5.0
}
