import SharedKernel

// MARK: - Decompensated shock (§4.2)

/// One of the seven VTL signs of decompensated shock.
public enum ShockSign: String, CaseIterable, Codable, Sendable {
    /// Mentation depressed or worse.
    case reducedConsciousness = "reduced_consciousness"
    /// Membranes pale, white, grey or cyanotic.
    case paleMembranes = "pale_membranes"
    /// CRT > 2 s.
    case prolongedCapillaryRefill = "prolonged_capillary_refill"
    /// Pulse weak or absent.
    case poorPulse = "poor_pulse"
    /// Extremities cool or rectal temperature < 37.8 °C.
    case lowTemperature = "low_temperature"
    /// Cat with HR < 120 /min.
    case catBradycardia = "cat_bradycardia"
    /// Dog with HR > 160 /min.
    case dogTachycardia = "dog_tachycardia"
}

/// The project rule for `shock_decompensated`, exactly as specified:
/// fire when at least 3 of the 7 signs are present *and* at least one of them is reduced
/// consciousness or CRT > 2 s; or when capillary refill is absent (late decompensated shock).
///
/// The seven signs apply to every species, the cat and dog heart-rate signs only to cats
/// and dogs; "low temperature" uses the spec's 37.8 °C for all species.
struct ShockRule {
    /// Signs present, each with its evidence, in the order of ``ShockSign``.
    private(set) var signs: [(sign: ShockSign, evidence: [Evidence])] = []
    /// Capillary refill absent.
    private(set) var refillAbsent = false

    /// Signs required when refill is present.
    static let minimumSigns = 3

    init(_ triageCase: TriageCase) {
        let vitals = triageCase.vitals
        if let mentation = vitals.mentation, mentation != .alert {
            signs.append((.reducedConsciousness, [Evidence(field: "vitals.mentation", value: mentation.rawValue)]))
        }
        if let membranes = vitals.mucousMembranes, [.pale, .white, .grey, .cyanotic].contains(membranes) {
            signs.append((.paleMembranes, [Evidence(field: "vitals.mucousMembranes", value: membranes.rawValue)]))
        }
        if let crt = vitals.capillaryRefillSeconds, crt > ClinicalThresholds.prolongedCRTSeconds {
            signs.append(
                (
                    .prolongedCapillaryRefill,
                    [Evidence(field: "vitals.capillaryRefillSeconds", value: Format.decimal(crt) + " s")]
                ))
        }
        if let pulse = vitals.pulseQuality, pulse == .weak || pulse == .absent {
            signs.append((.poorPulse, [Evidence(field: "vitals.pulseQuality", value: pulse.rawValue)]))
        }
        var cold: [Evidence] = []
        if vitals.extremities == .cool { cold.append(Evidence(field: "vitals.extremities", value: "cool")) }
        if let temperature = vitals.temperature, temperature.celsius < ClinicalThresholds.shockLowTemperatureBelow {
            cold.append(Evidence(field: "vitals.temperature", value: temperature.display))
        }
        if !cold.isEmpty { signs.append((.lowTemperature, cold)) }
        if let heartRate = vitals.heartRate {
            if triageCase.species == .cat, heartRate < ClinicalThresholds.catShockBradycardiaBelow {
                signs.append(
                    (
                        .catBradycardia,
                        [Evidence(field: "vitals.heartRate", value: Format.decimal(heartRate) + " /min (cat)")]
                    ))
            }
            if triageCase.species == .dog, heartRate > ClinicalThresholds.dogShockTachycardiaAbove {
                signs.append(
                    (
                        .dogTachycardia,
                        [Evidence(field: "vitals.heartRate", value: Format.decimal(heartRate) + " /min (dog)")]
                    ))
            }
        }
        refillAbsent = vitals.capillaryRefillAbsent == true
    }

    /// Whether a sign is present.
    func has(_ sign: ShockSign) -> Bool { signs.contains { $0.sign == sign } }

    /// Whether the rule fires.
    var fires: Bool {
        if refillAbsent { return true }
        return signs.count >= Self.minimumSigns && (has(.reducedConsciousness) || has(.prolongedCapillaryRefill))
    }

    /// Evidence and rule text when the rule fires.
    func fire(into firings: inout Firings) {
        guard fires else { return }
        var evidence: [Evidence] = []
        if refillAbsent { evidence.append(Evidence(field: "vitals.capillaryRefillAbsent", value: "true")) }
        for sign in signs { evidence.append(contentsOf: sign.evidence) }
        let names = signs.map(\.sign.rawValue).joined(separator: ", ")
        let rule =
            refillAbsent
            ? "capillary refill absent: late decompensated shock" + (signs.isEmpty ? "" : " (also " + names + ")")
            : String(signs.count) + " of 7 shock signs (" + names + "), including reduced consciousness or CRT > 2 s"
        firings.fire(.shockDecompensated, evidence, rule: rule)
    }
}
