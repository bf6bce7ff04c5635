// MARK: - Findings asserted at the desk

/// The findings staff may assert at the desk (spec §3), as every client offers them: by ABCDE
/// letter, each with the words shown to staff. Findings the engine derives from vitals and
/// observations are not listed: it decides those from the measurements.
///
/// This is the one copy: the web app and any other client read it from the API
/// (`GET /api/v1/triage/catalogue`) instead of keeping their own.
public enum DeskFindings {
    /// One finding: its wire id and the words staff see.
    public struct Finding: Sendable, Equatable {
        /// The discriminator asserted.
        public let id: DiscriminatorID
        /// The words shown to staff.
        public let label: String
        /// The level it gives on its own (from the catalogue).
        public var level: TriageLevel { DiscriminatorCatalogue.entry(id).level }
    }

    /// A group of findings under one ABCDE letter, or none ("other presentations").
    public struct Section: Sendable, Equatable {
        /// The letter, `nil` for presentations outside the survey.
        public let letter: ABCDELetter?
        /// The heading shown to staff.
        public let title: String
        /// Its findings, in the order shown.
        public let findings: [Finding]
    }

    private static func section(_ letter: ABCDELetter?, _ title: String, _ findings: [(DiscriminatorID, String)])
        -> Section
    {
        Section(letter: letter, title: title, findings: findings.map { Finding(id: $0.0, label: $0.1) })
    }

    /// The sections in the order the form shows them.
    public static let sections: [Section] = [
        section(
            .airway, "Airway",
            [
                (.acuteStridor, "Acute stridor (upper-airway noise)"),
                (.subcutaneousEmphysema, "Subcutaneous emphysema"),
                (.oralStickInjury, "Oral stick injury"), (.facialEdema, "Facial oedema"),
            ]),
        section(
            .circulation, "Circulation",
            [
                (.rapidAbdominalDistension, "Rapid abdominal distension (e.g. GDV)"),
                (.arterialThromboembolism, "Arterial thromboembolism"),
                (.abdominalFluidThrill, "Abdominal fluid thrill"),
                (.petechiaeEcchymoses, "Petechiae, purpura or ecchymoses"),
            ]),
        section(
            .disability, "Disability",
            [
                (.acuteAbnormalBehaviour, "Acute abnormal behaviour"),
                (.acuteContinuousVocalisation, "Acute continuous vocalisation"),
                (.acuteBlindness, "Acute blindness"), (.generalisedWeakness, "Generalised weakness"),
                (.acuteNeuroDeficit, "Acute spinal or peripheral deficit"), (.headTilt, "Head tilt"),
                (.historyUnconsciousness, "History of unconsciousness"),
                (.ventroflexionNeck, "Ventroflexion of head and neck"),
            ]),
        section(
            .exposure, "Exposure",
            [
                (.evisceration, "Evisceration"), (.envenomationHigh, "Envenomation, high lethality"),
                (.envenomationModerate, "Envenomation, moderate"),
                (.proptosis, "Proptosis of the eye"), (.ocularInjuryPenetrating, "Penetrating or chemical eye injury"),
                (.openFractureDeformity, "Open fracture or gross deformity"),
                (.skinWoundLarge, "Medium to large skin wound"),
                (.pruritusSevere, "Severe pruritus"), (.pruritusRecent, "Mild pruritus, began this week"),
                (.localInflammation, "Local inflammation"),
                (.swelling, "Swelling"),
            ]),
        section(
            nil, "Other presentations",
            [
                (.toxinIngestion, "Toxin ingestion"),
                (.foreignBodyWithSigns, "Foreign body > 24 h with anorexia or vomiting"),
                (.foreignBodyPossible, "Possible foreign body, no other signs"),
                (.testicularSwellingAcute, "Acute testicular swelling and pain"),
                (.urethralObstruction, "Urethral obstruction (straining, no urine)"), (.dystocia, "Dystocia"),
                (.melena, "Melaena"),
                (.hematuriaNoStranguria, "Red urine without straining"),
                (.stranguriaTenesmus, "Straining (stranguria or tenesmus)"),
            ]),
    ]
}
