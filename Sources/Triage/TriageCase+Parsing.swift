import Foundation
import SharedKernel

// MARK: - Parsing the wire format

extension TriageCase {
    /// Parses and validates a case in the wire format of spec §9.
    ///
    /// Refuses, all at once in one ``ValidationError`` (field path + reason, in input order):
    /// malformed JSON (field `$`), wrong JSON types, a missing `species`, unknown enumeration
    /// values, unknown finding ids, unknown keys (a typo such as `heartrate` would otherwise
    /// drop a vital and under-triage), and physically impossible values (§4.1).
    /// `null` for an optional field means "not measured".
    public init(jsonData data: Data) throws(ValidationError) {
        let root: JSONValue
        do {
            root = try JSONReader.parse([UInt8](data))
        } catch {
            throw ValidationError(field: "$", message: "malformed JSON at byte \(error.offset): \(error.message)")
        }
        try self.init(root: root)
    }

    /// Parses and validates a case already read as JSON (field paths relative to it).
    init(root: JSONValue) throws(ValidationError) {
        var parser = CaseParser()
        let (parsed, hasSpecies) = parser.parseCase(root)
        // Range checks run even when the species is bad, so every error is reported at once.
        parsed.collectRangeErrors(into: &parser.errors)
        try parser.finish()
        // `finish` has thrown unless the species was valid (its absence is always an error);
        // should that ever change, the case is still refused rather than triaged as `other`.
        guard hasSpecies else {
            throw ValidationError(
                field: "species",
                message: "is required (one of: \(Species.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = parsed
    }

    /// Parses a case from a JSON string (see ``TriageCase/init(jsonData:)``).
    public init(json: String) throws(ValidationError) {
        try self.init(jsonData: Data(json.utf8))
    }

    /// The keys accepted at each level of the wire format; anything else is refused.
    public enum WireKeys {
        /// Top-level keys.
        public static let root = [
            "species", "ageWeeks", "sex", "onsetHoursAgo", "vitals", "observations", "findings", "complaint",
        ]
        /// Keys of `vitals`.
        public static let vitals = [
            "temperature", "heartRate", "respiratoryRate", "capillaryRefillSeconds", "capillaryRefillAbsent",
            "mucousMembranes", "pulseQuality", "mentation", "extremities", "systolicBP", "spo2", "glucose",
            "ketosis", "dehydrationPercent",
        ]
        /// Keys of `observations`.
        public static let observations = [
            "respiratoryDistress", "pain", "hemorrhage", "seizuresLast24h", "seizingNow", "vomiting",
            "hoursSinceLastMeal",
        ]
        /// Keys of a measurement with a unit (`temperature`, `glucose`).
        public static let measurement = ["value", "unit"]
    }
}

// MARK: - Parser

/// Walks the JSON tree once, collecting every error instead of stopping at the first.
struct CaseParser {
    var errors = FieldErrorCollector()
    /// Input position of each path as member indices from the root (`vitals.heartRate` in
    /// `{"species":…, "vitals":{"mentation":…, "heartRate":…}}` is [1, 1]), so errors found
    /// in later passes (impossible values) still sort into input order.
    var order: [String: [Int]] = ["": []]

    mutating func finish() throws(ValidationError) {
        guard !errors.errors.isEmpty else { return }
        let ranked = errors.errors.enumerated().sorted { lhs, rhs in
            let left = order[lhs.element.field] ?? [Int.max]
            let right = order[rhs.element.field] ?? [Int.max]
            return left != right ? left.lexicographicallyPrecedes(right) : lhs.offset < rhs.offset
        }
        throw ValidationError(ranked.map(\.element))
    }

    mutating func parseCase(_ root: JSONValue) -> (TriageCase, hasSpecies: Bool) {
        var result = TriageCase(species: .other)
        guard let members = members(of: root, at: "", allowed: TriageCase.WireKeys.root) else { return (result, false) }
        var species: Species?
        var speciesSeen = false
        for (key, value) in members {
            switch key {
            case "species":
                speciesSeen = true
                if case .null = value {
                    errors.add("species", "is required; found null")
                } else {
                    species = enumeration(value, "species")
                }
            case "ageWeeks": result.ageWeeks = number(value, "ageWeeks")
            // The record's words, or `male`/`female` for an intact animal (§9).
            case "sex": result.sex = enumeration(value, "sex", word: Sex.init(word:))
            case "onsetHoursAgo": result.onsetHoursAgo = number(value, "onsetHoursAgo")
            case "vitals": result.vitals = parseVitals(value)
            case "observations": result.observations = parseObservations(value)
            case "findings": result.findings = parseFindings(value)
            case "complaint": result.complaint = string(value, "complaint")
            default: break
            }
        }
        if !speciesSeen {
            missing("species", under: "")
            errors.add("species", "is required (one of: \(Species.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard let species else { return (result, false) }
        result.species = species
        return (result, true)
    }

    // MARK: Sections

    mutating func parseVitals(_ value: JSONValue) -> Vitals {
        var vitals = Vitals()
        guard let members = members(of: value, at: "vitals", allowed: TriageCase.WireKeys.vitals) else { return vitals }
        for (key, value) in members {
            let path = "vitals." + key
            switch key {
            case "temperature":
                vitals.temperature = measurement(value, path) { Temperature($0, $1) }
            case "heartRate": vitals.heartRate = number(value, path)
            case "respiratoryRate": vitals.respiratoryRate = number(value, path)
            case "capillaryRefillSeconds": vitals.capillaryRefillSeconds = number(value, path)
            case "capillaryRefillAbsent": vitals.capillaryRefillAbsent = bool(value, path)
            case "mucousMembranes": vitals.mucousMembranes = enumeration(value, path)
            case "pulseQuality": vitals.pulseQuality = enumeration(value, path)
            case "mentation": vitals.mentation = enumeration(value, path)
            case "extremities": vitals.extremities = enumeration(value, path)
            case "systolicBP": vitals.systolicBP = number(value, path)
            case "spo2": vitals.spo2 = number(value, path)
            case "glucose":
                vitals.glucose = measurement(value, path) { Glucose($0, $1) }
            case "ketosis": vitals.ketosis = bool(value, path)
            case "dehydrationPercent": vitals.dehydrationPercent = number(value, path)
            default: break
            }
        }
        return vitals
    }

    private mutating func parseObservations(_ value: JSONValue) -> Observations {
        var observations = Observations()
        guard let members = members(of: value, at: "observations", allowed: TriageCase.WireKeys.observations) else {
            return observations
        }
        for (key, value) in members {
            let path = "observations." + key
            switch key {
            case "respiratoryDistress": observations.respiratoryDistress = enumeration(value, path)
            case "pain": observations.pain = enumeration(value, path)
            case "hemorrhage": observations.hemorrhage = enumeration(value, path)
            case "seizuresLast24h": observations.seizuresLast24h = integer(value, path)
            case "seizingNow": observations.seizingNow = bool(value, path)
            case "vomiting": observations.vomiting = enumeration(value, path)
            case "hoursSinceLastMeal": observations.hoursSinceLastMeal = number(value, path)
            default: break
            }
        }
        return observations
    }

    private mutating func parseFindings(_ value: JSONValue) -> [DiscriminatorID] {
        if case .null = value { return [] }
        guard case .array(let elements) = value else {
            errors.add("findings", "expected an array of finding ids, found \(value.typeName)")
            return []
        }
        var findings: [DiscriminatorID] = []
        for (index, element) in elements.enumerated() {
            let path = "findings[\(index)]"
            order[path] = (order["findings"] ?? []) + [index]
            guard case .string(let text) = element else {
                errors.add(path, "expected a finding id string, found \(element.typeName)")
                continue
            }
            if let id = DiscriminatorID(rawValue: text) {
                if !findings.contains(id) { findings.append(id) }
            } else {
                let hint =
                    Suggestion.closest(to: text, in: DiscriminatorID.allCases.map(\.rawValue)).map {
                        "; did you mean '\($0)'?"
                    } ?? ""
                errors.add(path, "unknown finding id '\(text)': not in the discriminator catalogue\(hint)")
            }
        }
        return findings
    }

    private mutating func measurement<U, T>(_ value: JSONValue, _ path: String, _ make: (Double, U) -> T) -> T?
    where U: RawRepresentable & CaseIterable, U.RawValue == String {
        if case .null = value { return nil }
        guard let members = members(of: value, at: path, allowed: TriageCase.WireKeys.measurement) else { return nil }
        var amount: Double?
        var unit: U?
        var valueSeen = false
        var unitSeen = false
        for (key, member) in members {
            switch key {
            case "value":
                valueSeen = !member.isNull
                amount = number(member, path + ".value")
            case "unit":
                unitSeen = !member.isNull
                unit = enumeration(member, path + ".unit")
            default: break
            }
        }
        let units = U.allCases.map(\.rawValue).joined(separator: ", ")
        if !valueSeen {
            missing(path + ".value", under: path)
            errors.add(path + ".value", "is required when \(path) is given")
        }
        // A reading without its unit is refused: 40 could be a fever in °C or deep hypothermia in °F.
        if !unitSeen {
            missing(path + ".unit", under: path)
            errors.add(
                path + ".unit",
                "is required (one of: \(units)); a reading without its unit cannot be interpreted safely")
        }
        guard let amount, let unit else { return nil }
        return make(amount, unit)
    }
}
