import SharedKernel

// MARK: - Objective vital-sign safety net (§4.4)

/// The rules of spec §4.4 (rules version `vetnet-1.1.0`): a measured vital sign that by itself
/// shows a life-threatening state raises the level even when staff recorded no observation
/// for it.
///
/// | id | letter | level | fires when | species |
/// |---|---|---|---|---|
/// | `cyanosis` | B | red | mucous membranes cyanotic | all |
/// | `spo2_very_low` | B | orange | SpO₂ < 90 % | all with a reading |
/// | `spo2_low` | B | yellow | 90 % ≤ SpO₂ < 95 % | all with a reading |
/// | `abnormal_pulse` | C | orange | dog HR < 60 or > 180; cat HR ≤ 120 or > 260; pulse weak/absent | dog, cat¹ |
/// | `hypotension` | C | orange | systolic BP < 90 mmHg | dog, cat |
///
/// ¹ Heart rate in dogs and cats; a weak or absent pulse in every species.
///
/// These fire alongside the shock rule (§4.2), never instead of it: shock still decides red
/// for the combinations it names, and a sign that is also a shock sign (cyanotic membranes,
/// a weak pulse, a cat's slow heart) is reported under both, because every fired
/// discriminator is part of the explanation (§2.3). Respiratory rate is deliberately absent:
/// a panting dog is not an emergency, so it stays a flagged abnormal vital only.
enum VitalSignSafetyNet {
    /// Fires every safety-net discriminator the case's measured vitals show.
    static func apply(_ triageCase: TriageCase, into firings: inout Firings) {
        let vitals = triageCase.vitals
        if vitals.mucousMembranes == .cyanotic {
            firings.fire(
                .cyanosis, field: "vitals.mucousMembranes", value: "cyanotic",
                rule: "cyanotic mucous membranes: hypoxaemia")
        }
        oxygenSaturation(vitals, &firings)
        pulse(triageCase, &firings)
        // The §4.4 table limits hypotension to the species the VTL was validated on; in other
        // species a low pressure remains an abnormal vital (§5).
        if let pressure = vitals.systolicBP, pressure < ClinicalThresholds.hypotensionBelow,
            triageCase.species == .dog || triageCase.species == .cat
        {
            firings.fire(
                .hypotension, field: "vitals.systolicBP", value: Format.decimal(pressure) + " mmHg",
                rule: "systolic BP < 90 mmHg")
        }
    }

    /// One band at most: a saturation below 90 % is very low, not also low.
    private static func oxygenSaturation(_ vitals: Vitals, _ firings: inout Firings) {
        guard let saturation = vitals.spo2 else { return }
        let value = Format.decimal(saturation) + " %"
        if saturation < ClinicalThresholds.severeHypoxaemiaBelow {
            firings.fire(.spo2VeryLow, field: "vitals.spo2", value: value, rule: "SpO2 < 90 %")
        } else if saturation < ClinicalThresholds.hypoxaemiaBelow {
            firings.fire(.spo2Low, field: "vitals.spo2", value: value, rule: "90 % <= SpO2 < 95 %")
        }
    }

    /// Heart-rate grades for dogs and cats, pulse quality for every species; one firing that
    /// carries whichever of the two made it fire.
    private static func pulse(_ triageCase: TriageCase, _ firings: inout Firings) {
        var evidence: [Evidence] = []
        var reasons: [String] = []
        if let heartRate = triageCase.vitals.heartRate {
            switch triageCase.species {
            case .dog
            where heartRate < ClinicalThresholds.dogAbnormalPulseBelow
                || heartRate > ClinicalThresholds.dogAbnormalPulseAbove:
                evidence.append(Evidence(field: "vitals.heartRate", value: Format.decimal(heartRate) + " /min (dog)"))
                reasons.append("dog HR < 60 or > 180 /min")
            case .cat
            where heartRate <= ClinicalThresholds.catAbnormalPulseAtOrBelow
                || heartRate > ClinicalThresholds.catAbnormalPulseAbove:
                evidence.append(Evidence(field: "vitals.heartRate", value: Format.decimal(heartRate) + " /min (cat)"))
                reasons.append("cat HR <= 120 or > 260 /min")
            default:
                break
            }
        }
        if let quality = triageCase.vitals.pulseQuality, quality == .weak || quality == .absent {
            evidence.append(Evidence(field: "vitals.pulseQuality", value: quality.rawValue))
            reasons.append("pulse " + quality.rawValue)
        }
        guard !evidence.isEmpty else { return }
        firings.fire(.abnormalPulse, evidence, rule: reasons.joined(separator: "; "))
    }
}
