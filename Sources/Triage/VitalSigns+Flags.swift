import SharedKernel

// MARK: - Abnormal vital flags

extension Temperature {
    /// As entered, with the °C value when entered in °F: `106.2 °F (41.22 °C)`.
    var display: String {
        switch unit {
        case .celsius: return Format.decimal(value) + " °C"
        case .fahrenheit: return Format.decimal(value) + " °F (" + Format.decimal(celsius) + " °C)"
        }
    }
}

extension Glucose {
    /// As entered, with the mmol/L value when entered in mg/dL.
    var display: String {
        switch unit {
        case .mmolPerLitre: return Format.decimal(value) + " mmol/L"
        case .mgPerDecilitre: return Format.decimal(value) + " mg/dL (" + Format.decimal(mmolPerLitre) + " mmol/L)"
        }
    }
}

enum VitalFlags {
    /// Every abnormal vital of the case (§5), in wire-format field order.
    static func abnormalVitals(of triageCase: TriageCase) -> [AbnormalVital] {
        let vitals = triageCase.vitals
        let species = triageCase.species
        let range = ReferenceRange.forSpecies(species)
        var flags: [AbnormalVital] = []

        func rangeText(_ range: ClosedRange<Double>, _ unit: String) -> String {
            Format.decimal(range.lowerBound) + "–" + Format.decimal(range.upperBound) + " " + unit + " ("
                + species.rawValue + ")"
        }

        if let temperature = vitals.temperature, let reference = range.temperatureCelsius {
            let celsius = temperature.celsius
            if celsius < reference.lowerBound || celsius > reference.upperBound {
                flags.append(
                    AbnormalVital(
                        field: "vitals.temperature", value: temperature.display,
                        interpretation: celsius < reference.lowerBound
                            ? "hypothermia (below reference range)" : "hyperthermia (above reference range)",
                        reference: rangeText(reference, "°C"), abcde: .exposure))
            }
        }
        if let heartRate = vitals.heartRate, let reference = range.heartRate {
            var interpretation: String?
            if heartRate < reference.lowerBound {
                interpretation = "bradycardia (below reference range)"
            } else if let tachycardia = range.tachycardiaAbove, heartRate > tachycardia {
                interpretation = "tachycardia (> " + Format.decimal(tachycardia) + " /min)"
            } else if heartRate > reference.upperBound {
                interpretation = "above reference range"
            }
            if let interpretation {
                flags.append(
                    AbnormalVital(
                        field: "vitals.heartRate", value: Format.decimal(heartRate) + " /min",
                        interpretation: interpretation, reference: rangeText(reference, "/min"), abcde: .circulation))
            }
        }
        if let rate = vitals.respiratoryRate, let reference = range.respiratoryRate, !reference.contains(rate) {
            flags.append(
                AbnormalVital(
                    field: "vitals.respiratoryRate", value: Format.decimal(rate) + " /min",
                    interpretation: rate < reference.lowerBound
                        ? "bradypnoea (below reference range)" : "tachypnoea (above reference range)",
                    reference: rangeText(reference, "/min"), abcde: .breathing))
        }
        if let crt = vitals.capillaryRefillSeconds {
            if crt > ClinicalThresholds.prolongedCRTSeconds {
                flags.append(
                    AbnormalVital(
                        field: "vitals.capillaryRefillSeconds", value: Format.decimal(crt) + " s",
                        interpretation: "prolonged: poor perfusion", reference: "1–2 s", abcde: .circulation))
            } else if crt < ClinicalThresholds.hyperdynamicCRTSeconds {
                flags.append(
                    AbnormalVital(
                        field: "vitals.capillaryRefillSeconds", value: Format.decimal(crt) + " s",
                        interpretation: "rapid: hyperdynamic", reference: "1–2 s", abcde: .circulation))
            }
        }
        if vitals.capillaryRefillAbsent == true {
            flags.append(
                AbnormalVital(
                    field: "vitals.capillaryRefillAbsent", value: "true",
                    interpretation: "no capillary refill: late shock", reference: "1–2 s", abcde: .circulation))
        }
        if let membranes = vitals.mucousMembranes, membranes != .pink {
            let (interpretation, letter): (String, ABCDELetter) =
                switch membranes {
                case .pink: ("normal", .circulation)
                case .palePink: ("pale pink: possible early anaemia or poor perfusion", .circulation)
                case .pale, .white: ("anaemia or shock", .circulation)
                case .grey: ("hypoxaemia or late shock", .circulation)
                case .cyanotic: ("hypoxaemia", .breathing)
                case .brickRed: ("hyperdynamic (e.g. sepsis, heatstroke)", .circulation)
                case .icteric: ("icterus", .circulation)
                }
            flags.append(
                AbnormalVital(
                    field: "vitals.mucousMembranes", value: membranes.rawValue,
                    interpretation: interpretation, reference: "pink", abcde: letter))
        }
        if let pulse = vitals.pulseQuality, pulse != .normal {
            flags.append(
                AbnormalVital(
                    field: "vitals.pulseQuality", value: pulse.rawValue,
                    interpretation: pulse == .bounding ? "bounding: hyperdynamic" : "poor peripheral pulses",
                    reference: "normal", abcde: .circulation))
        }
        if let mentation = vitals.mentation, mentation != .alert {
            flags.append(
                AbnormalVital(
                    field: "vitals.mentation", value: mentation.rawValue,
                    interpretation: "reduced consciousness", reference: "alert", abcde: .disability))
        }
        if vitals.extremities == .cool {
            flags.append(
                AbnormalVital(
                    field: "vitals.extremities", value: "cool",
                    interpretation: "cool extremities: poor peripheral perfusion", reference: "warm",
                    abcde: .circulation))
        }
        if let pressure = vitals.systolicBP {
            if pressure < ClinicalThresholds.hypotensionBelow {
                flags.append(
                    AbnormalVital(
                        field: "vitals.systolicBP", value: Format.decimal(pressure) + " mmHg",
                        interpretation: "hypotension", reference: "90–179 mmHg", abcde: .circulation))
            } else if pressure >= ClinicalThresholds.severeHypertensionAtOrAbove {
                flags.append(
                    AbnormalVital(
                        field: "vitals.systolicBP", value: Format.decimal(pressure) + " mmHg",
                        interpretation: "severe hypertension", reference: "90–179 mmHg", abcde: .circulation))
            }
        }
        if let saturation = vitals.spo2, saturation < ClinicalThresholds.hypoxaemiaBelow {
            flags.append(
                AbnormalVital(
                    field: "vitals.spo2", value: Format.decimal(saturation) + " %",
                    interpretation: saturation < ClinicalThresholds.severeHypoxaemiaBelow
                        ? "severe hypoxaemia" : "hypoxaemia",
                    reference: ">= 95 %", abcde: .breathing))
        }
        if let glucose = vitals.glucose {
            let mmol = glucose.mmolPerLitre
            if mmol <= ClinicalThresholds.hypoglycaemiaAtOrBelowMmol {
                flags.append(
                    AbnormalVital(
                        field: "vitals.glucose", value: glucose.display,
                        interpretation: "hypoglycaemia", reference: "> 3.3 mmol/L (> 60 mg/dL)", abcde: .exposure))
            } else if mmol >= ClinicalThresholds.hyperglycaemiaAtOrAboveMmol {
                flags.append(
                    AbnormalVital(
                        field: "vitals.glucose", value: glucose.display,
                        interpretation: "hyperglycaemia", reference: "< 11 mmol/L (< 198 mg/dL)", abcde: .exposure))
            }
        }
        if vitals.ketosis == true {
            flags.append(
                AbnormalVital(
                    field: "vitals.ketosis", value: "true", interpretation: "ketosis", reference: "false",
                    abcde: .exposure))
        }
        if let dehydration = vitals.dehydrationPercent, dehydration >= ClinicalThresholds.moderateDehydrationAtOrAbove {
            flags.append(
                AbnormalVital(
                    field: "vitals.dehydrationPercent", value: Format.decimal(dehydration) + " %",
                    interpretation: dehydration > ClinicalThresholds.severeDehydrationAbove
                        ? "severe dehydration" : "moderate dehydration",
                    reference: "< 5 %", abcde: .circulation))
        }
        return flags
    }
}
