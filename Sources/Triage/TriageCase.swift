import SharedKernel

// MARK: - Case

/// One patient presentation to triage (wire format of spec §9).
///
/// Every field but `species` is optional: a missing input simply fires nothing (§2.6).
/// Build one from JSON with ``TriageCase/init(jsonData:)`` (which validates), or in code and
/// call ``TriageCase/validate()`` before trusting it.
public struct TriageCase: Hashable, Sendable {
    /// The patient's species; decides reference ranges and whether the VTL is validated.
    public var species: Species
    /// Age in weeks (fractional allowed).
    public var ageWeeks: Double?
    /// Sex and neuter status, in the patient record's words (``SharedKernel/Sex``).
    public var sex: Sex?
    /// Hours since the problem began; `nil` when unknown (treated as recent, §2.4).
    public var onsetHoursAgo: Double?
    /// Measured vital signs.
    public var vitals: Vitals
    /// Structured observations.
    public var observations: Observations
    /// Discriminators asserted directly by the triaging person.
    public var findings: [DiscriminatorID]
    /// The owner's or nurse's free-text complaint (used for routing only, never for the level).
    public var complaint: String?

    /// Creates a case.
    public init(
        species: Species, ageWeeks: Double? = nil, sex: Sex? = nil, onsetHoursAgo: Double? = nil,
        vitals: Vitals = Vitals(), observations: Observations = Observations(),
        findings: [DiscriminatorID] = [], complaint: String? = nil
    ) {
        self.species = species
        self.ageWeeks = ageWeeks
        self.sex = sex
        self.onsetHoursAgo = onsetHoursAgo
        self.vitals = vitals
        self.observations = observations
        self.findings = findings
        self.complaint = complaint
    }
}

// MARK: - Enumerations

/// Mucous membrane colour.
public enum MucousMembranes: String, CaseIterable, Codable, Sendable {
    case pink
    case palePink = "pale_pink"
    case pale, white, grey, cyanotic
    case brickRed = "brick_red"
    case icteric
}

/// Peripheral pulse quality.
public enum PulseQuality: String, CaseIterable, Codable, Sendable {
    case normal, weak, absent, bounding
}

/// Level of consciousness, from normal to comatose.
public enum Mentation: String, CaseIterable, Codable, Sendable {
    case alert, depressed, obtunded, stuporous, unresponsive
}

/// Temperature of the extremities (paws, ears).
public enum Extremities: String, CaseIterable, Codable, Sendable {
    case warm, cool
}

/// A severity grade for respiratory distress and pain.
///
/// The wire's `"none"` is the case `absent`: a case named `none` would be confused with
/// `Optional.none` ("not observed") wherever a `Grade?` is expected.
public enum Grade: String, CaseIterable, Codable, Sendable {
    case absent = "none"
    case mild, moderate, severe
}

/// Haemorrhage, graded by the VTL definitions (wire `"none"` is `absent`, see ``Grade``).
public enum Hemorrhage: String, CaseIterable, Codable, Sendable {
    case absent = "none"
    case controlled
    case uncontrollableMinor = "uncontrollable_minor"
    case uncontrollableMajor = "uncontrollable_major"
    case exsanguinating
}

/// Vomiting frequency (wire `"none"` is `absent`, see ``Grade``).
public enum Vomiting: String, CaseIterable, Codable, Sendable {
    case absent = "none"
    case occasional, persistent
}

// MARK: - Measurements with units

/// Unit of a temperature reading.
public enum TemperatureUnit: String, CaseIterable, Codable, Sendable {
    /// Degrees Celsius, wire `"C"`.
    case celsius = "C"
    /// Degrees Fahrenheit, wire `"F"`.
    case fahrenheit = "F"
}

/// A rectal temperature as entered.
public struct Temperature: Hashable, Sendable {
    /// The number as entered.
    public var value: Double
    /// The unit as entered.
    public var unit: TemperatureUnit

    /// Creates a reading.
    public init(_ value: Double, _ unit: TemperatureUnit) {
        self.value = value
        self.unit = unit
    }

    /// The reading in °C: (°F − 32) × 5/9. Rounded to 1e-6 °C so that a °F value exactly on
    /// a published °C boundary (105.8 °F = 41.0 °C) lands on it despite binary floating point.
    public var celsius: Double {
        switch unit {
        case .celsius: return value
        case .fahrenheit: return Units.snap((value - 32) * 5 / 9)
        }
    }
}

/// Unit of a blood glucose reading.
public enum GlucoseUnit: String, CaseIterable, Codable, Sendable {
    /// Millimoles per litre, wire `"mmol/L"`.
    case mmolPerLitre = "mmol/L"
    /// Milligrams per decilitre, wire `"mg/dL"`.
    case mgPerDecilitre = "mg/dL"
}

/// A blood glucose reading as entered.
public struct Glucose: Hashable, Sendable {
    /// The number as entered.
    public var value: Double
    /// The unit as entered.
    public var unit: GlucoseUnit

    /// Creates a reading.
    public init(_ value: Double, _ unit: GlucoseUnit) {
        self.value = value
        self.unit = unit
    }

    /// The reading in mmol/L (mg/dL ÷ 18.016), snapped to 1e-6 like ``Temperature/celsius``.
    public var mmolPerLitre: Double {
        switch unit {
        case .mmolPerLitre: return value
        case .mgPerDecilitre: return Units.snap(value / Units.glucoseMgPerMmol)
        }
    }
}

/// Unit constants and the rounding that keeps converted values on their boundaries.
enum Units {
    /// mg/dL per mmol/L of glucose (spec §4.1).
    static let glucoseMgPerMmol = 18.016

    /// Rounds to 1e-6: far below any clinical resolution, far above conversion error.
    static func snap(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    /// °C to °F, for explanations.
    static func fahrenheit(fromCelsius celsius: Double) -> Double { celsius * 9 / 5 + 32 }
}
