import SharedKernel

// MARK: - Catalogue

/// The discriminator catalogue of spec §3 as data: one ``Discriminator`` per ``DiscriminatorID``.
///
/// Definitions are quoted from the spec; `routing` follows the §7 table (the presentation a
/// sign belongs to), most specific service first. The five entries of the objective
/// vital-sign safety net (§4.4, rules `vetnet-1.1.0`) close each level's block, after the
/// §3 rows, so their table follows §3's and no earlier entry changed its order.
public enum DiscriminatorCatalogue {
    /// Every entry in catalogue order (red first, then the spec's table order).
    public static let all: [Discriminator] = rows.enumerated().map { index, row in
        Discriminator(
            id: row.id, level: row.level, subcategory: row.subcategory, abcde: row.abcde,
            definition: row.definition, source: row.source, derivation: row.derivation,
            routing: row.routing, order: index
        )
    }

    /// The entry for `id`.
    public static func entry(_ id: DiscriminatorID) -> Discriminator { all[position[id]!] }

    /// Looks up a wire id (`"toxin_ingestion"`); `nil` when it is not in the catalogue.
    public static func entry(wireID: String) -> Discriminator? {
        DiscriminatorID(rawValue: wireID).map(entry)
    }

    private static let position: [DiscriminatorID: Int] = Dictionary(
        uniqueKeysWithValues: all.enumerated().map { ($0.element.id, $0.offset) }
    )

    // MARK: - Rows

    private struct Row {
        let id: DiscriminatorID
        let level: TriageLevel
        let subcategory: Subcategory
        let abcde: ABCDELetter?
        let derivation: Derivation
        let source: DiscriminatorSource
        let routing: [Specialty]
        let definition: String
    }

    private static func row(
        _ id: DiscriminatorID, _ level: TriageLevel, _ subcategory: Subcategory, _ abcde: ABCDELetter?,
        _ derivation: Derivation = .asserted, source: DiscriminatorSource = .vtl,
        routing: [Specialty], _ definition: String
    ) -> Row {
        Row(
            id: id, level: level, subcategory: subcategory, abcde: abcde, derivation: derivation,
            source: source, routing: routing, definition: definition)
    }

    private static let rows: [Row] = [
        // MARK: Red
        row(
            .respDistressSevere, .red, .respiratory, .breathing, .derived, routing: [.emergencyCriticalCare],
            """
            respiratoryDistress = severe: directly life-threatening or worsening; blue/very pale membranes, \
            open-mouth breathing, exhaustion
            """
        ),
        row(
            .shockDecompensated, .red, .circulatory, .circulation, .derived, source: .projectChoice,
            routing: [.emergencyCriticalCare],
            """
            decompensated shock: at least 3 of the 7 VTL signs including reduced consciousness or CRT > 2 s, or CRT \
            absent (§4.2 project rule)
            """
        ),
        row(
            .exsanguinatingHemorrhage, .red, .circulatory, .circulation, .derived, routing: [.emergencyCriticalCare],
            "hemorrhage = exsanguinating: death follows unless stopped"),
        row(
            .seizingNow, .red, .neurological, .disability, .derived, routing: [.emergencyCriticalCare, .neurology],
            "seizingNow = true"),
        row(
            .unresponsive, .red, .neurological, .disability, .derived, routing: [.emergencyCriticalCare, .neurology],
            "mentation = unresponsive (comatose)"),
        row(
            .rapidAbdominalDistension, .red, .gastrointestinal, .circulation,
            routing: [.emergencyCriticalCare, .softTissueSurgery],
            "rapid-onset abdominal distension (e.g. gastric dilatation-volvulus)"),
        row(
            .hypoglycemia, .red, .generalised, .exposure, .derived, routing: [.internalMedicine],
            "glucose <= 3.3 mmol/L (<= 60 mg/dL), or asserted on suspicion"),
        row(
            .tempGe41, .red, .generalised, .exposure, .derived, routing: [.emergencyCriticalCare, .internalMedicine],
            "rectal temperature >= 41.0 °C (dogs and cats)"),
        row(
            .tempLe36_7, .red, .generalised, .exposure, .derived, routing: [.emergencyCriticalCare, .internalMedicine],
            "rectal temperature <= 36.7 °C (dogs and cats)"),
        row(
            .cyanosis, .red, .respiratory, .breathing, .derived, source: .projectChoice,
            routing: [.emergencyCriticalCare],
            """
            mucous membranes cyanotic, any species (the VTL counts cyanosis as severe respiratory distress; §4.4 \
            safety net)
            """
        ),

        // MARK: Orange
        row(
            .respDistressModerate, .orange, .respiratory, .breathing, .derived, routing: [.emergencyCriticalCare],
            "respiratoryDistress = moderate: clearly increased effort, not worse in the last hour"),
        row(
            .acuteStridor, .orange, .respiratory, .airway, routing: [.emergencyCriticalCare, .softTissueSurgery],
            "acute inspiratory noise from the upper airway"),
        row(
            .subcutaneousEmphysema, .orange, .respiratory, .airway, routing: [.emergencyCriticalCare],
            "subcutaneous emphysema"),
        row(
            .uncontrollableMajorHemorrhage, .orange, .circulatory, .circulation, .derived,
            routing: [.emergencyCriticalCare],
            "hemorrhage = uncontrollable_major: not controlled by sustained pressure, heavy flow"),
        row(
            .arterialThromboembolism, .orange, .circulatory, .circulation,
            routing: [.cardiology, .emergencyCriticalCare],
            "e.g. acute limb paralysis with cold pads and absent pulses"),
        row(
            .paleMembranesNoShock, .orange, .circulatory, .circulation, .derived,
            routing: [.internalMedicine, .emergencyCriticalCare],
            "membranes pale, white or grey while shock_decompensated did not fire"),
        row(
            .abdominalFluidThrill, .orange, .circulatory, .circulation, routing: [.internalMedicine, .cardiology],
            "abdominal fluid thrill"),
        row(
            .alteredConsciousness, .orange, .neurological, .disability, .derived,
            routing: [.neurology, .emergencyCriticalCare],
            "mentation depressed, obtunded or stuporous"),
        row(
            .acuteAbnormalBehaviour, .orange, .neurological, .disability, routing: [.neurology],
            "acute abnormal behaviour"),
        row(
            .acuteContinuousVocalisation, .orange, .neurological, .disability,
            routing: [.neurology, .emergencyCriticalCare],
            "acute continuous vocalisation"),
        row(
            .clusterSeizures, .orange, .neurological, .disability, .derived,
            routing: [.neurology, .emergencyCriticalCare],
            "more than 2 generalised seizures in 24 h"),
        row(
            .acuteBlindness, .orange, .neurological, .disability, routing: [.ophthalmology, .neurology],
            "acute complete loss of vision"),
        row(
            .evisceration, .orange, .trauma, .exposure, routing: [.emergencyCriticalCare, .softTissueSurgery],
            "evisceration"),
        row(
            .envenomationHigh, .orange, .trauma, .exposure, routing: [.emergencyCriticalCare],
            "high-lethality envenomation"),
        row(
            .proptosis, .orange, .trauma, .exposure, routing: [.ophthalmology],
            "proptosis of the eye"),
        row(
            .ocularInjuryPenetrating, .orange, .trauma, .exposure, routing: [.ophthalmology],
            "penetrating or acute chemical eye injury"),
        row(
            .toxinIngestion, .orange, .gastrointestinal, nil, routing: [.emergencyCriticalCare, .internalMedicine],
            "toxin ingestion"),
        row(
            .foreignBodyWithSigns, .orange, .gastrointestinal, nil, .derived,
            routing: [.softTissueSurgery, .internalMedicine],
            """
            (possible) foreign body > 24 h with anorexia or vomiting; derived when foreign_body_possible is asserted \
            with onset > 24 h and vomiting or >= 24 h without food
            """
        ),
        row(
            .testicularSwellingAcute, .orange, .urogenital, nil, routing: [.theriogenology, .softTissueSurgery],
            "rapid-onset testicular swelling and pain"),
        row(
            .urethralObstruction, .orange, .urogenital, nil, source: .projectChoice,
            routing: [.emergencyCriticalCare, .internalMedicine],
            "safety floor: male cat straining with no urine output, asserted by the UI rule"),
        row(
            .petechiaeEcchymoses, .orange, .generalised, .circulation, routing: [.internalMedicine],
            "petechiae, purpura or ecchymoses"),
        row(
            .hyperglycemiaKetosis, .orange, .generalised, .exposure, .derived, routing: [.internalMedicine],
            "glucose >= 11 mmol/L (>= 200 mg/dL) with ketosis"),
        row(
            .painSevere, .orange, .generalised, nil, .derived, routing: [.emergencyCriticalCare],
            "pain = severe"),
        row(
            .generalisedWeakness, .orange, .generalised, .disability, routing: [.internalMedicine, .neurology],
            "reduced tone and mentation; lies down as soon as allowed"),
        row(
            .dehydrationSevere, .orange, .generalised, .circulation, .derived, routing: [.internalMedicine],
            "dehydration > 8 %"),
        row(
            .temp40_5To40_9, .orange, .generalised, .exposure, .derived, routing: [.internalMedicine],
            "40.5 <= T < 41.0 °C (dogs and cats)"),
        row(
            .dystocia, .orange, .obstetric, nil, source: .projectChoice,
            routing: [.theriogenology, .softTissueSurgery],
            """
            any published dystocia criterion, e.g. strong contractions 30 min without delivery, > 4 h since last \
            neonate, green discharge without delivery within 2 h, gestation > 70 days
            """
        ),
        row(
            .spo2VeryLow, .orange, .respiratory, .breathing, .derived, source: .projectChoice,
            routing: [.emergencyCriticalCare],
            "SpO2 < 90 %, any species with a reading (Manchester Triage System \"very low SaO2\"; §4.4 safety net)"),
        row(
            .abnormalPulse, .orange, .circulatory, .circulation, .derived, source: .projectChoice,
            routing: [.cardiology, .emergencyCriticalCare],
            """
            dog HR < 60 or > 180 /min; cat HR <= 120 or > 260 /min (Animal Trauma Triage grades); or pulse quality \
            weak or absent, any species (Manchester Triage System \"abnormal pulse\"; §4.4 safety net)
            """
        ),
        row(
            .hypotension, .orange, .circulatory, .circulation, .derived, source: .projectChoice,
            routing: [.emergencyCriticalCare, .internalMedicine],
            "systolic BP < 90 mmHg (dogs and cats; §4.4 safety net)"),
        row(
            .rabbitHypothermiaSevere, .orange, .generalised, .exposure, .derived, source: .projectChoice,
            routing: [.exotics, .emergencyCriticalCare],
            "rectal T < 37.0 °C in a rabbit (hypothermia at admission, Di Girolamo, Toth, Selleri, JAVMA 2016; §4.5)"),

        // MARK: Yellow
        row(
            .respDistressMild, .yellow, .respiratory, .breathing, .derived, routing: [.internalMedicine],
            "respiratoryDistress = mild"),
        row(
            .uncontrollableMinorHemorrhage, .yellow, .circulatory, .circulation, .derived,
            routing: [.softTissueSurgery],
            "hemorrhage = uncontrollable_minor: oozing, not rapidly controlled"),
        row(
            .acuteNeuroDeficit, .yellow, .neurological, .disability, routing: [.neurology],
            "acute spinal/peripheral deficit or acute deterioration"),
        row(
            .headTilt, .yellow, .neurological, .disability, routing: [.neurology],
            "head tilt"),
        row(
            .historyUnconsciousness, .yellow, .neurological, .disability, routing: [.neurology, .cardiology],
            "history of unconsciousness (not an uncomplicated seizure)"),
        row(
            .envenomationModerate, .yellow, .trauma, .exposure, routing: [.emergencyCriticalCare],
            "moderate envenomation"),
        row(
            .oralStickInjury, .yellow, .trauma, .airway, routing: [.softTissueSurgery, .dentistry],
            "oral stick injury"),
        row(
            .openFractureDeformity, .yellow, .trauma, .exposure, routing: [.orthopedics],
            "open fracture or gross deformity"),
        row(
            .skinWoundLarge, .yellow, .trauma, .exposure, routing: [.softTissueSurgery],
            "medium to large skin wound for the animal's size"),
        row(
            .foreignBodyPossible, .yellow, .gastrointestinal, nil, routing: [.softTissueSurgery, .internalMedicine],
            "(possible) foreign-body ingestion without the orange signs"),
        row(
            .vomitingPersistent, .yellow, .gastrointestinal, nil, .derived, routing: [.internalMedicine],
            "vomiting = persistent (no respite between episodes)"),
        row(
            .melena, .yellow, .gastrointestinal, nil, routing: [.internalMedicine],
            "melena"),
        row(
            .hematuriaNoStranguria, .yellow, .urogenital, nil, routing: [.internalMedicine],
            "red urine without straining"),
        row(
            .ventroflexionNeck, .yellow, .generalised, .disability, routing: [.neurology, .internalMedicine],
            "ventroflexion of head and neck"),
        row(
            .facialEdema, .yellow, .generalised, .airway, routing: [.emergencyCriticalCare, .dermatology],
            "facial edema"),
        row(
            .painModerate, .yellow, .generalised, nil, .derived, routing: [.generalPractice],
            "pain = moderate"),
        row(
            .dehydrationModerate, .yellow, .generalised, .circulation, .derived, routing: [.internalMedicine],
            "5 % <= dehydration <= 8 %"),
        row(
            .pruritusSevere, .yellow, .generalised, .exposure, routing: [.dermatology],
            "severe pruritus"),
        row(
            .anorexiaNeonate, .yellow, .generalised, nil, .derived, routing: [.internalMedicine],
            "age < 12 weeks and >= 12 h since last meal"),
        row(
            .temp40_0To40_4, .yellow, .generalised, .exposure, .derived, routing: [.internalMedicine],
            "40.0 <= T < 40.5 °C (dogs and cats)"),
        row(
            .spo2Low, .yellow, .respiratory, .breathing, .derived, source: .projectChoice,
            routing: [.internalMedicine, .emergencyCriticalCare],
            "90 % <= SpO2 < 95 %, any species with a reading (Manchester Triage System \"low SaO2\"; §4.4 safety net)"),
        row(
            .rabbitHypothermia, .yellow, .generalised, .exposure, .derived, source: .projectChoice, routing: [.exotics],
            """
            37.0 °C <= rectal T <= 37.9 °C in a rabbit (hypothermia at admission, Di Girolamo, Toth, Selleri, JAVMA \
            2016; §4.5)
            """
        ),

        // MARK: Green
        row(
            .localInflammation, .green, .generalised, .exposure, routing: [.generalPractice],
            "local inflammation"),
        row(
            .stranguriaTenesmus, .green, .generalised, nil, routing: [.internalMedicine],
            "stranguria or tenesmus"),
        row(
            .vomiting, .green, .generalised, nil, .derived, routing: [.internalMedicine],
            "vomiting = occasional"),
        row(
            .mildPainRecent, .green, .generalised, nil, .derived, routing: [.generalPractice],
            "pain = mild and onset within 7 days"),
        row(
            .pruritusRecent, .green, .generalised, .exposure, routing: [.dermatology],
            "mild pruritus, onset within 7 days"),
        row(
            .seizureRecentIsolated, .green, .generalised, .disability, .derived, routing: [.neurology],
            "exactly 1 seizure in the last 24 h, not seizing now (also 2, on which the VTL is silent)"),
        row(
            .swelling, .green, .generalised, .exposure, routing: [.generalPractice, .oncology],
            "swelling"),
        row(
            .temp39_0To39_9, .green, .generalised, .exposure, .derived, routing: [.generalPractice],
            "39.0 <= T < 40.0 °C (dogs and cats)"),
    ]
}
