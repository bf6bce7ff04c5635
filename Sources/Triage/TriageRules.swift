import SharedKernel

// MARK: - Derived rules (§4)

/// The rules that turn structured input into discriminators. Each rule reads only its own
/// inputs; a missing input fires nothing and never lowers a level (§2.6).
enum TriageRules {
    /// Applies every rule of the catalogue to `triageCase`; returns caveats for the clinician.
    static func apply(_ triageCase: TriageCase, into firings: inout Firings) -> [String] {
        var notes: [String] = []
        asserted(triageCase, &firings)
        observations(triageCase, &firings)
        consciousness(triageCase, &firings)
        glucose(triageCase, &firings)
        hydrationAndFeeding(triageCase, &firings)
        temperature(triageCase, &firings, &notes)
        foreignBody(triageCase, &firings)

        // Shock before pale membranes: pale_membranes_no_shock exists only without shock.
        let shock = ShockRule(triageCase)
        shock.fire(into: &firings)
        if let membranes = triageCase.vitals.mucousMembranes, [.pale, .white, .grey].contains(membranes),
            !firings.contains(.shockDecompensated)
        {
            firings.fire(
                .paleMembranesNoShock, field: "vitals.mucousMembranes", value: membranes.rawValue,
                rule: "pale, white or grey membranes without decompensated shock")
        }
        VitalSignSafetyNet.apply(triageCase, into: &firings)
        return notes
    }

    // MARK: Findings

    private static func asserted(_ triageCase: TriageCase, _ firings: inout Firings) {
        for id in triageCase.findings {
            firings.fire(id, field: "findings", value: id.rawValue + " (asserted)")
        }
    }

    // MARK: Observations

    private static func observations(_ triageCase: TriageCase, _ firings: inout Firings) {
        let observed = triageCase.observations
        switch observed.respiratoryDistress {
        case .severe: firings.fire(.respDistressSevere, field: "observations.respiratoryDistress", value: "severe")
        case .moderate:
            firings.fire(.respDistressModerate, field: "observations.respiratoryDistress", value: "moderate")
        case .mild: firings.fire(.respDistressMild, field: "observations.respiratoryDistress", value: "mild")
        case .absent?, nil: break
        }
        switch observed.hemorrhage {
        case .exsanguinating:
            firings.fire(.exsanguinatingHemorrhage, field: "observations.hemorrhage", value: "exsanguinating")
        case .uncontrollableMajor:
            firings.fire(
                .uncontrollableMajorHemorrhage, field: "observations.hemorrhage", value: "uncontrollable_major")
        case .uncontrollableMinor:
            firings.fire(
                .uncontrollableMinorHemorrhage, field: "observations.hemorrhage", value: "uncontrollable_minor")
        case .absent?, .controlled, nil: break
        }
        if observed.seizingNow == true {
            firings.fire(.seizingNow, field: "observations.seizingNow", value: "true")
        }
        if let seizures = observed.seizuresLast24h {
            let evidence = Evidence(field: "observations.seizuresLast24h", value: String(seizures))
            if seizures > 2 {
                firings.fire(.clusterSeizures, [evidence], rule: "more than 2 seizures in 24 h")
            } else if seizures >= 1, observed.seizingNow != true {
                // The VTL names 1 (isolated) and > 2 (cluster) and is silent on exactly 2;
                // 2 seizures are reported as recent seizure activity rather than nothing.
                firings.fire(
                    .seizureRecentIsolated, [evidence],
                    rule: seizures == 1
                        ? "exactly 1 seizure in 24 h, not seizing now"
                        : "2 seizures in 24 h (not a VTL cluster, which needs > 2), not seizing now")
            }
        }
        switch observed.pain {
        case .severe: firings.fire(.painSevere, field: "observations.pain", value: "severe")
        case .moderate: firings.fire(.painModerate, field: "observations.pain", value: "moderate")
        case .mild:
            let onset = triageCase.onsetHoursAgo
            if onset == nil || onset! <= ClinicalThresholds.recentOnsetHours {
                let onsetText = onset.map { Format.decimal($0) + " h ago" } ?? "unknown (treated as recent)"
                firings.fire(
                    .mildPainRecent,
                    [
                        Evidence(field: "observations.pain", value: "mild"),
                        Evidence(field: "onsetHoursAgo", value: onsetText),
                    ],
                    rule: "mild pain with onset within 7 days")
            }
        case .absent?, nil: break
        }
        switch observed.vomiting {
        case .persistent: firings.fire(.vomitingPersistent, field: "observations.vomiting", value: "persistent")
        case .occasional: firings.fire(.vomiting, field: "observations.vomiting", value: "occasional")
        case .absent?, nil: break
        }
    }

    private static func consciousness(_ triageCase: TriageCase, _ firings: inout Firings) {
        guard let mentation = triageCase.vitals.mentation else { return }
        switch mentation {
        case .unresponsive: firings.fire(.unresponsive, field: "vitals.mentation", value: "unresponsive")
        case .depressed, .obtunded, .stuporous:
            firings.fire(.alteredConsciousness, field: "vitals.mentation", value: mentation.rawValue)
        case .alert: break
        }
    }

    // MARK: Glucose

    private static func glucose(_ triageCase: TriageCase, _ firings: inout Firings) {
        guard let glucose = triageCase.vitals.glucose else { return }
        let mmol = glucose.mmolPerLitre
        if mmol <= ClinicalThresholds.hypoglycaemiaAtOrBelowMmol {
            firings.fire(
                .hypoglycemia, field: "vitals.glucose", value: glucose.display,
                rule: "glucose <= 3.3 mmol/L or <= 60 mg/dL")
        }
        if mmol >= ClinicalThresholds.hyperglycaemiaAtOrAboveMmol, triageCase.vitals.ketosis == true {
            firings.fire(
                .hyperglycemiaKetosis,
                [
                    Evidence(field: "vitals.glucose", value: glucose.display),
                    Evidence(field: "vitals.ketosis", value: "true"),
                ],
                rule: "glucose >= 11 mmol/L (>= 198.2 mg/dL) with ketosis")
        }
    }

    // MARK: Hydration and feeding

    private static func hydrationAndFeeding(_ triageCase: TriageCase, _ firings: inout Firings) {
        if let dehydration = triageCase.vitals.dehydrationPercent {
            let value = Format.decimal(dehydration) + " %"
            if dehydration > ClinicalThresholds.severeDehydrationAbove {
                firings.fire(
                    .dehydrationSevere, field: "vitals.dehydrationPercent", value: value, rule: "dehydration > 8 %")
            } else if dehydration >= ClinicalThresholds.moderateDehydrationAtOrAbove {
                firings.fire(
                    .dehydrationModerate, field: "vitals.dehydrationPercent", value: value,
                    rule: "5 % <= dehydration <= 8 %")
            }
        }
        if let age = triageCase.ageWeeks, age < ClinicalThresholds.neonateBelowWeeks,
            let fasting = triageCase.observations.hoursSinceLastMeal, fasting >= ClinicalThresholds.neonateFastingHours
        {
            firings.fire(
                .anorexiaNeonate,
                [
                    Evidence(field: "ageWeeks", value: Format.decimal(age) + " weeks"),
                    Evidence(field: "observations.hoursSinceLastMeal", value: Format.decimal(fasting) + " h"),
                ],
                rule: "age < 12 weeks and >= 12 h since last meal")
        }
    }

    // MARK: Temperature (dogs and cats only)

    /// §4.5 (rules `vetnet-1.2.0`): hypothermia at admission in rabbits, the one species beyond
    /// dogs and cats with outcome evidence for a triage vital (316 hospitalised rabbits: T ≤ 37.9 °C
    /// carried 3.09× the risk of death within a week of discharge). Boundaries follow the table
    /// exactly: 36.99 orange; 37.0 and 37.9 yellow; 38.0 nothing. °F is converted first (98.6 °F is 37.0 °C).
    private static func rabbitHypothermia(_ temperature: Temperature, _ firings: inout Firings) {
        let celsius = temperature.celsius
        if celsius < ClinicalThresholds.rabbitSevereHypothermiaBelow {
            firings.fire(
                .rabbitHypothermiaSevere, field: "vitals.temperature", value: temperature.display,
                rule: "rabbit, T < 37.0 °C")
        } else if celsius <= ClinicalThresholds.rabbitHypothermiaAtOrBelow {
            firings.fire(
                .rabbitHypothermia, field: "vitals.temperature", value: temperature.display,
                rule: "rabbit, 37.0 °C <= T <= 37.9 °C")
        }
    }

    private static func temperature(_ triageCase: TriageCase, _ firings: inout Firings, _ notes: inout [String]) {
        guard let temperature = triageCase.vitals.temperature else { return }
        if triageCase.species == .rabbit { rabbitHypothermia(temperature, &firings) }
        guard triageCase.species == .dog || triageCase.species == .cat else {
            notes.append(
                "VTL temperature bands apply to dogs and cats only; the " + triageCase.species.rawValue
                    + "'s temperature is compared with its reference range instead (see abnormalVitals).")
            return
        }
        let celsius = temperature.celsius
        let id: DiscriminatorID?
        if celsius >= 41.0 {
            id = .tempGe41
        } else if celsius >= 40.5 {
            id = .temp40_5To40_9
        } else if celsius >= 40.0 {
            id = .temp40_0To40_4
        } else if celsius >= 39.0 {
            id = .temp39_0To39_9
        } else if celsius <= 36.7 {
            id = .tempLe36_7
        } else {
            id = nil
        }
        if let id { firings.fire(id, field: "vitals.temperature", value: temperature.display) }
    }

    // MARK: Foreign body

    /// Upgrades an asserted possible foreign body to the orange entry when the case itself
    /// shows the orange criteria: present > 24 h with vomiting or ≥ 24 h without food.
    private static func foreignBody(_ triageCase: TriageCase, _ firings: inout Firings) {
        guard triageCase.findings.contains(.foreignBodyPossible),
            let onset = triageCase.onsetHoursAgo, onset > ClinicalThresholds.foreignBodyHours
        else { return }
        var evidence = [
            Evidence(field: "findings", value: "foreign_body_possible (asserted)"),
            Evidence(field: "onsetHoursAgo", value: Format.decimal(onset) + " h ago"),
        ]
        let observed = triageCase.observations
        if let vomiting = observed.vomiting, vomiting != .absent {
            evidence.append(Evidence(field: "observations.vomiting", value: vomiting.rawValue))
        }
        if let fasting = observed.hoursSinceLastMeal, fasting >= ClinicalThresholds.foreignBodyHours {
            evidence.append(
                Evidence(field: "observations.hoursSinceLastMeal", value: Format.decimal(fasting) + " h (anorexia)"))
        }
        guard evidence.count > 2 else { return }
        firings.fire(.foreignBodyWithSigns, evidence, rule: "possible foreign body > 24 h with vomiting or anorexia")
    }
}
