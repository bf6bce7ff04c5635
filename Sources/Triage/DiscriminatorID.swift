// MARK: - Discriminator ids

/// The stable id of every catalogue entry (spec §3, and §4.4 for the vital-sign safety net).
/// The raw value is the wire id; the declaration order is the catalogue order (most urgent
/// level first, then the §3 table order, then the §4.4 table order).
public enum DiscriminatorID: String, CaseIterable, Codable, Sendable {
    // MARK: Red
    case respDistressSevere = "resp_distress_severe"
    case shockDecompensated = "shock_decompensated"
    case exsanguinatingHemorrhage = "exsanguinating_hemorrhage"
    case seizingNow = "seizing_now"
    case unresponsive = "unresponsive"
    case rapidAbdominalDistension = "rapid_abdominal_distension"
    case hypoglycemia = "hypoglycemia"
    case tempGe41 = "temp_ge_41"
    case tempLe36_7 = "temp_le_36_7"
    case cyanosis = "cyanosis"

    // MARK: Orange
    case respDistressModerate = "resp_distress_moderate"
    case acuteStridor = "acute_stridor"
    case subcutaneousEmphysema = "subcutaneous_emphysema"
    case uncontrollableMajorHemorrhage = "uncontrollable_major_hemorrhage"
    case arterialThromboembolism = "arterial_thromboembolism"
    case paleMembranesNoShock = "pale_membranes_no_shock"
    case abdominalFluidThrill = "abdominal_fluid_thrill"
    case alteredConsciousness = "altered_consciousness"
    case acuteAbnormalBehaviour = "acute_abnormal_behaviour"
    case acuteContinuousVocalisation = "acute_continuous_vocalisation"
    case clusterSeizures = "cluster_seizures"
    case acuteBlindness = "acute_blindness"
    case evisceration = "evisceration"
    case envenomationHigh = "envenomation_high"
    case proptosis = "proptosis"
    case ocularInjuryPenetrating = "ocular_injury_penetrating"
    case toxinIngestion = "toxin_ingestion"
    case foreignBodyWithSigns = "foreign_body_with_signs"
    case testicularSwellingAcute = "testicular_swelling_acute"
    case urethralObstruction = "urethral_obstruction"
    case petechiaeEcchymoses = "petechiae_ecchymoses"
    case hyperglycemiaKetosis = "hyperglycemia_ketosis"
    case painSevere = "pain_severe"
    case generalisedWeakness = "generalised_weakness"
    case dehydrationSevere = "dehydration_severe"
    case temp40_5To40_9 = "temp_40_5_to_40_9"
    case dystocia = "dystocia"
    case spo2VeryLow = "spo2_very_low"
    case abnormalPulse = "abnormal_pulse"
    case hypotension = "hypotension"
    case rabbitHypothermiaSevere = "rabbit_hypothermia_severe"

    // MARK: Yellow
    case respDistressMild = "resp_distress_mild"
    case uncontrollableMinorHemorrhage = "uncontrollable_minor_hemorrhage"
    case acuteNeuroDeficit = "acute_neuro_deficit"
    case headTilt = "head_tilt"
    case historyUnconsciousness = "history_unconsciousness"
    case envenomationModerate = "envenomation_moderate"
    case oralStickInjury = "oral_stick_injury"
    case openFractureDeformity = "open_fracture_deformity"
    case skinWoundLarge = "skin_wound_large"
    case foreignBodyPossible = "foreign_body_possible"
    case vomitingPersistent = "vomiting_persistent"
    case melena = "melena"
    case hematuriaNoStranguria = "hematuria_no_stranguria"
    case ventroflexionNeck = "ventroflexion_neck"
    case facialEdema = "facial_edema"
    case painModerate = "pain_moderate"
    case dehydrationModerate = "dehydration_moderate"
    case pruritusSevere = "pruritus_severe"
    case anorexiaNeonate = "anorexia_neonate"
    case temp40_0To40_4 = "temp_40_0_to_40_4"
    case spo2Low = "spo2_low"
    case rabbitHypothermia = "rabbit_hypothermia"

    // MARK: Green
    case localInflammation = "local_inflammation"
    case stranguriaTenesmus = "stranguria_tenesmus"
    case vomiting = "vomiting"
    case mildPainRecent = "mild_pain_recent"
    case pruritusRecent = "pruritus_recent"
    case seizureRecentIsolated = "seizure_recent_isolated"
    case swelling = "swelling"
    case temp39_0To39_9 = "temp_39_0_to_39_9"

    /// The catalogue entry for this id.
    public var discriminator: Discriminator { DiscriminatorCatalogue.entry(self) }
}
