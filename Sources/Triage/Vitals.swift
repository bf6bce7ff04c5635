// MARK: - Vitals

/// Measured vital signs (spec §9 `vitals`). All optional: unmeasured is not normal, it is unknown.
public struct Vitals: Hashable, Sendable {
    /// Rectal temperature.
    public var temperature: Temperature?
    /// Heart rate, beats per minute.
    public var heartRate: Double?
    /// Respiratory rate, breaths per minute.
    public var respiratoryRate: Double?
    /// Capillary refill time, seconds.
    public var capillaryRefillSeconds: Double?
    /// `true` when no capillary refill can be seen at all (late shock sign).
    public var capillaryRefillAbsent: Bool?
    /// Mucous membrane colour.
    public var mucousMembranes: MucousMembranes?
    /// Peripheral pulse quality.
    public var pulseQuality: PulseQuality?
    /// Level of consciousness.
    public var mentation: Mentation?
    /// Temperature of the extremities.
    public var extremities: Extremities?
    /// Systolic blood pressure, mmHg.
    public var systolicBP: Double?
    /// Oxygen saturation, percent.
    public var spo2: Double?
    /// Blood glucose.
    public var glucose: Glucose?
    /// Ketones present (blood or urine).
    public var ketosis: Bool?
    /// Estimated dehydration, percent of body weight.
    public var dehydrationPercent: Double?

    /// Creates a set of vitals; omit what was not measured.
    public init(
        temperature: Temperature? = nil, heartRate: Double? = nil, respiratoryRate: Double? = nil,
        capillaryRefillSeconds: Double? = nil, capillaryRefillAbsent: Bool? = nil,
        mucousMembranes: MucousMembranes? = nil, pulseQuality: PulseQuality? = nil,
        mentation: Mentation? = nil, extremities: Extremities? = nil, systolicBP: Double? = nil,
        spo2: Double? = nil, glucose: Glucose? = nil, ketosis: Bool? = nil, dehydrationPercent: Double? = nil
    ) {
        self.temperature = temperature
        self.heartRate = heartRate
        self.respiratoryRate = respiratoryRate
        self.capillaryRefillSeconds = capillaryRefillSeconds
        self.capillaryRefillAbsent = capillaryRefillAbsent
        self.mucousMembranes = mucousMembranes
        self.pulseQuality = pulseQuality
        self.mentation = mentation
        self.extremities = extremities
        self.systolicBP = systolicBP
        self.spo2 = spo2
        self.glucose = glucose
        self.ketosis = ketosis
        self.dehydrationPercent = dehydrationPercent
    }
}

// MARK: - Observations

/// Structured observations (spec §9 `observations`).
public struct Observations: Hashable, Sendable {
    /// Respiratory distress grade.
    public var respiratoryDistress: Grade?
    /// Pain grade.
    public var pain: Grade?
    /// Haemorrhage grade.
    public var hemorrhage: Hemorrhage?
    /// Generalised seizures in the last 24 h.
    public var seizuresLast24h: Int?
    /// Seizing on arrival.
    public var seizingNow: Bool?
    /// Vomiting frequency.
    public var vomiting: Vomiting?
    /// Hours since the last meal eaten.
    public var hoursSinceLastMeal: Double?

    /// Creates observations; omit what was not observed.
    public init(
        respiratoryDistress: Grade? = nil, pain: Grade? = nil, hemorrhage: Hemorrhage? = nil,
        seizuresLast24h: Int? = nil, seizingNow: Bool? = nil, vomiting: Vomiting? = nil,
        hoursSinceLastMeal: Double? = nil
    ) {
        self.respiratoryDistress = respiratoryDistress
        self.pain = pain
        self.hemorrhage = hemorrhage
        self.seizuresLast24h = seizuresLast24h
        self.seizingNow = seizingNow
        self.vomiting = vomiting
        self.hoursSinceLastMeal = hoursSinceLastMeal
    }
}
