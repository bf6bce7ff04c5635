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
        var parser = CaseParser()
        let (parsed, hasSpecies) = parser.parseCase(root)
        // Range checks run even when the species is bad, so every error is reported at once.
        parsed.collectRangeErrors(into: &parser.errors)
        try parser.finish()
        // `finish` has thrown unless the species was valid (its absence is always an error).
        precondition(hasSpecies)
        self = parsed
    }

    /// Parses a case from a JSON string (see ``TriageCase/init(jsonData:)``).
    public init(json: String) throws(ValidationError) {
        try self.init(jsonData: Data(json.utf8))
    }

    /// The keys accepted at each level of the wire format; anything else is refused.
    public enum WireKeys {
        /// Top-level keys.
        public static let root = ["species", "ageWeeks", "sex", "onsetHoursAgo", "vitals", "observations", "findings", "complaint"]
        /// Keys of `vitals`.
        public static let vitals = [
            "temperature", "heartRate", "respiratoryRate", "capillaryRefillSeconds", "capillaryRefillAbsent",
            "mucousMembranes", "pulseQuality", "mentation", "extremities", "systolicBP", "spo2", "glucose",
            "ketosis", "dehydrationPercent",
        ]
        /// Keys of `observations`.
        public static let observations = [
            "respiratoryDistress", "pain", "hemorrhage", "seizuresLast24h", "seizingNow", "vomiting", "hoursSinceLastMeal",
        ]
        /// Keys of a measurement with a unit (`temperature`, `glucose`).
        public static let measurement = ["value", "unit"]
    }
}

// MARK: - Parser

/// Walks the JSON tree once, collecting every error instead of stopping at the first.
private struct CaseParser {
    var errors = FieldErrorCollector()
    /// Input position of each path as member indices from the root (`vitals.heartRate` in
    /// `{"species":…, "vitals":{"mentation":…, "heartRate":…}}` is [1, 1]), so errors found
    /// in later passes (impossible values) still sort into input order.
    private var order: [String: [Int]] = ["": []]

    mutating func finish() throws(ValidationError) {
        guard !errors.errors.isEmpty else { return }
        let ranked = errors.errors.enumerated().sorted { lhs, rhs in
            let left = order[lhs.element.field] ?? [Int.max], right = order[rhs.element.field] ?? [Int.max]
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
                if case .null = value { errors.add("species", "is required; found null") } else {
                    species = enumeration(value, "species")
                }
            case "ageWeeks": result.ageWeeks = number(value, "ageWeeks")
            case "sex": result.sex = enumeration(value, "sex")
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

    private mutating func parseVitals(_ value: JSONValue) -> Vitals {
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
        guard let members = members(of: value, at: "observations", allowed: TriageCase.WireKeys.observations) else { return observations }
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
                let hint = Suggestion.closest(to: text, in: DiscriminatorID.allCases.map(\.rawValue)).map { "; did you mean '\($0)'?" } ?? ""
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
        var valueSeen = false, unitSeen = false
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
        if !valueSeen { missing(path + ".value", under: path); errors.add(path + ".value", "is required when \(path) is given") }
        // A reading without its unit is refused: 40 could be a fever in °C or deep hypothermia in °F.
        if !unitSeen { missing(path + ".unit", under: path); errors.add(path + ".unit", "is required (one of: \(units)); a reading without its unit cannot be interpreted safely") }
        guard let amount, let unit else { return nil }
        return make(amount, unit)
    }

    // MARK: Leaves

    /// Orders an absent required field after everything present in its parent object.
    private mutating func missing(_ path: String, under parent: String) {
        order[path] = (order[parent] ?? []) + [Int.max]
    }

    /// The members of an object whose keys are all known; unknown keys are errors.
    private mutating func members(of value: JSONValue, at path: String, allowed: [String]) -> [(key: String, value: JSONValue)]? {
        let label = path.isEmpty ? "$" : path
        if case .null = value, !path.isEmpty { return nil }
        guard case .object(let members) = value else {
            errors.add(label, "expected an object, found \(value.typeName)")
            return nil
        }
        var known: [(key: String, value: JSONValue)] = []
        let parentOrder = order[path] ?? []
        for (index, member) in members.enumerated() {
            let memberPath = path.isEmpty ? member.key : path + "." + member.key
            order[memberPath] = parentOrder + [index]
            if allowed.contains(member.key) {
                known.append(member)
            } else {
                let hint = Suggestion.closest(to: member.key, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
                errors.add(memberPath, "unknown field: not part of the triage case format and would be ignored\(hint)")
            }
        }
        return known
    }

    private mutating func number(_ value: JSONValue, _ path: String) -> Double? {
        switch value {
        case .null: return nil
        case .number(let number): return number
        default:
            errors.add(path, "expected a number, found \(value.typeName)")
            return nil
        }
    }

    private mutating func integer(_ value: JSONValue, _ path: String) -> Int? {
        guard let number = number(value, path) else { return nil }
        guard number == number.rounded(), abs(number) < 1e9 else {
            errors.add(path, "expected a whole number, found \(Format.decimal(number, places: 3))")
            return nil
        }
        return Int(number)
    }

    private mutating func bool(_ value: JSONValue, _ path: String) -> Bool? {
        switch value {
        case .null: return nil
        case .bool(let flag): return flag
        default:
            errors.add(path, "expected true or false, found \(value.typeName)")
            return nil
        }
    }

    private mutating func string(_ value: JSONValue, _ path: String) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        default:
            errors.add(path, "expected a string, found \(value.typeName)")
            return nil
        }
    }

    private mutating func enumeration<E>(_ value: JSONValue, _ path: String) -> E? where E: RawRepresentable & CaseIterable, E.RawValue == String {
        guard let text = string(value, path) else { return nil }
        if let match = E(rawValue: text) { return match }
        let allowed = E.allCases.map(\.rawValue)
        let hint = Suggestion.closest(to: text, in: allowed).map { "; did you mean '\($0)'?" } ?? ""
        errors.add(path, "unknown value '\(text)'; expected one of: \(allowed.joined(separator: ", "))\(hint)")
        return nil
    }
}

// MARK: - Helpers

extension JSONValue {
    var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// "Did you mean" hints for typos in keys, enumeration values and finding ids.
enum Suggestion {
    /// The candidate equal to `text` ignoring case and `_`, or within edit distance 2; `nil` if none.
    static func closest(to text: String, in candidates: [String]) -> String? {
        let folded = fold(text)
        if let exact = candidates.first(where: { fold($0) == folded }) { return exact }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(folded, fold(candidate))
            if distance <= 2, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    private static func fold(_ text: String) -> [Character] {
        Array(text.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    private static func editDistance(_ lhs: [Character], _ rhs: [Character]) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = previous
        for i in 1...lhs.count {
            current[0] = i
            for j in 1...rhs.count {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
