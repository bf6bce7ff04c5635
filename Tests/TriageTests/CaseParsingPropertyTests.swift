import Foundation
import PropertyBased
import SharedKernel
import Testing

@testable import Triage

// MARK: - Outcome of parsing outside input

/// What `TriageCase(jsonData:)` did with one input: a case, or the fields it refused.
private enum ParseOutcome {
    case accepted(TriageCase)
    case refused(ValidationError)

    init(_ text: String) { self.init(Data(text.utf8)) }

    init(_ data: Data) {
        do {
            self = .accepted(try TriageCase(jsonData: data))
        } catch {
            self = .refused(error)
        }
    }
}

/// Records an issue unless `outcome` is a case that triages to a level 1–5, or a refusal that
/// names at least one field, each with a reason: the only two answers a client may get.
private func expectCaseOrNamedRefusal(
    _ outcome: ParseOutcome, input: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    switch outcome {
    case .accepted(let parsed):
        #expect(throws: Never.self, "an accepted case passes its own validation", sourceLocation: sourceLocation) {
            try parsed.validate()
        }
        let level = triage(parsed).level.rawValue
        #expect((1...5).contains(level), "level \(level) for \(input())", sourceLocation: sourceLocation)
    case .refused(let error):
        #expect(!error.errors.isEmpty, sourceLocation: sourceLocation)
        for fieldError in error.errors {
            #expect(!fieldError.field.isEmpty, "unnamed field for \(input())", sourceLocation: sourceLocation)
            #expect(
                !fieldError.message.isEmpty, "no reason for \(fieldError.field) in \(input())",
                sourceLocation: sourceLocation)
        }
    }
}

// MARK: - JSON text building

/// `text` as a JSON string literal, escaping what RFC 8259 requires.
private func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// An object literal from members in order (keys are escaped, values are JSON text already).
private func jsonObject(_ members: [(String, String)]) -> String {
    "{" + members.map { jsonString($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
}

/// Number spellings at and beyond the edges of what JSON and `Double` can hold, and
/// spellings that are not JSON numbers at all.
private let edgeNumberTexts = [
    "0", "-0", "-0.0", "0e0", "1e308", "-1e308", "1.7976931348623157e308", "1e309", "1e400", "-1e400", "1e-400",
    "5e-324", "4.9e-324", "9007199254740993", "123456789012345678901234567890", "1E+2", "0.1e1", "2.5", "1e9",
    "999999999", "-999999999.5", "NaN", "Infinity", "-Infinity", "01", "1.", ".5", "+1", "1e", "--1", "0x10", "1e+",
]

/// Strings a client could send: empty, long, control characters, bidi overrides, emoji, escapes.
private let edgeStringTexts: [String] = [
    jsonString(""), jsonString("dog"), jsonString("cat"), jsonString("C"), jsonString("F"), jsonString("mmol/L"),
    jsonString("none"), jsonString(String(repeating: "a", count: 2_001)), jsonString("🐕‍🦺\u{202E}x"),
    jsonString("\u{0}\u{1F}"), #""\ud800""#, #""\udc00\ud800""#, #""\u00e9\ud83d\udc31""#, #""\x""#, #""unterminated"#,
    jsonString("toxin_ingestion"), jsonString("seizing_now"), jsonString("vomit vomit seiz =eye"),
]

/// Keys: every wire key, near misses, and keys no schema has.
private let fuzzKeys: [String] =
    TriageCase.WireKeys.root + TriageCase.WireKeys.vitals + TriageCase.WireKeys.observations
    + TriageCase.WireKeys.measurement
    + [
        "heartrate", "", "species ", "\u{0}", "\"", "vitals.heartRate", "🐕", "__proto__",
        String(repeating: "k", count: 300),
    ]

/// A random JSON value of at most `depth` levels, biased towards the shapes of the wire format.
private func randomJSON(depth: Int, using rng: inout some RandomNumberGenerator) -> String {
    let choice = depth <= 0 ? Int.random(in: 0...4, using: &rng) : Int.random(in: 0...7, using: &rng)
    switch choice {
    case 0: return ["null", "true", "false"].randomElement(using: &rng)!
    case 1: return edgeNumberTexts.randomElement(using: &rng)!
    case 2: return "\(Double.random(in: -1_000...1_000, using: &rng))"
    case 3: return edgeStringTexts.randomElement(using: &rng)!
    case 4: return "\(Int.random(in: -10...600, using: &rng))"
    case 5:
        let count = Int.random(in: 0...4, using: &rng)
        return "[" + (0..<count).map { _ in randomJSON(depth: depth - 1, using: &rng) }.joined(separator: ",") + "]"
    default:
        let count = Int.random(in: 0...6, using: &rng)
        var members: [(String, String)] = []
        if Bool.random(using: &rng) {
            members.append(("species", jsonString(Species.allCases.randomElement(using: &rng)!.rawValue)))
        }
        for _ in 0..<count {
            // Keys repeat now and then: duplicate keys must be refused, never resolved silently.
            members.append((fuzzKeys.randomElement(using: &rng)!, randomJSON(depth: depth - 1, using: &rng)))
        }
        return jsonObject(members)
    }
}

// MARK: - Generated cases with known validity

/// A wire-format case and the fields that are physically impossible in it.
private struct GeneratedCase: Sendable, CustomStringConvertible {
    var json: String
    var impossibleFields: Set<String>
    var description: String { json }
}

/// Builds a case field by field: each optional field is left out, `null`, a possible value or
/// an impossible one, remembering which fields were made impossible.
private struct CaseBuilder<R: RandomNumberGenerator> {
    var rng: R
    var impossible: Set<String> = []

    /// 0 leave out, 1 null, 2 possible, 3 impossible.
    mutating func pick() -> Int { Int.random(in: 0...3, using: &rng) }

    /// A value inside `possible` (with a margin so unit conversion cannot push it out) or
    /// outside it by a random amount, up to the largest finite doubles.
    mutating func number(
        _ path: String, possible: ClosedRange<Double>, into members: inout [(String, String)], key: String
    ) {
        switch pick() {
        case 0: return
        case 1: members.append((key, "null"))
        case 2: members.append((key, "\(Double.random(in: possible, using: &rng))"))
        default:
            impossible.insert(path)
            let distance = [0.5, 10, 1e6, 1e300].randomElement(using: &rng)!
            let value = Bool.random(using: &rng) ? possible.upperBound + distance : possible.lowerBound - distance
            members.append((key, "\(value)"))
        }
    }

    mutating func enumeration<E: RawRepresentable & CaseIterable>(
        _: E.Type, into members: inout [(String, String)], key: String
    )
    where E.RawValue == String {
        switch Int.random(in: 0...2, using: &rng) {
        case 0: return
        case 1: members.append((key, "null"))
        default: members.append((key, jsonString(E.allCases.randomElement(using: &rng)!.rawValue)))
        }
    }

    mutating func flag(into members: inout [(String, String)], key: String) {
        switch Int.random(in: 0...2, using: &rng) {
        case 0: return
        case 1: members.append((key, "null"))
        default: members.append((key, Bool.random(using: &rng) ? "true" : "false"))
        }
    }

    mutating func build() -> GeneratedCase {
        var root: [(String, String)] = [("species", jsonString(Species.allCases.randomElement(using: &rng)!.rawValue))]
        number("ageWeeks", possible: 0...5_200, into: &root, key: "ageWeeks")
        enumeration(Sex.self, into: &root, key: "sex")
        number("onsetHoursAgo", possible: 0...876_000, into: &root, key: "onsetHoursAgo")

        var vitals: [(String, String)] = []
        switch pick() {
        case 0: break
        case 1: vitals.append(("temperature", "null"))
        case let kind:
            let celsius =
                kind == 2
                ? Double.random(in: 15.5...46.5, using: &rng)
                : (Bool.random(using: &rng)
                    ? Double.random(in: 47.5...1e6, using: &rng) : Double.random(in: -1e6...14.5, using: &rng))
            if kind == 3 { impossible.insert("vitals.temperature.value") }
            let fahrenheit = Bool.random(using: &rng)
            let value = fahrenheit ? celsius * 9 / 5 + 32 : celsius
            vitals.append(
                ("temperature", jsonObject([("value", "\(value)"), ("unit", jsonString(fahrenheit ? "F" : "C"))])))
        }
        switch pick() {
        case 0: break
        case 1: vitals.append(("heartRate", "null"))
        case 2: vitals.append(("heartRate", "\(Double.random(in: 1...500, using: &rng))"))
        default:
            impossible.insert("vitals.heartRate")
            vitals.append(("heartRate", "\([0, -0.0, -60, 500.5, 1e308, -1e308].randomElement(using: &rng)!)"))
        }
        number("vitals.respiratoryRate", possible: 0...300, into: &vitals, key: "respiratoryRate")
        number("vitals.capillaryRefillSeconds", possible: 0...30, into: &vitals, key: "capillaryRefillSeconds")
        flag(into: &vitals, key: "capillaryRefillAbsent")
        enumeration(MucousMembranes.self, into: &vitals, key: "mucousMembranes")
        enumeration(PulseQuality.self, into: &vitals, key: "pulseQuality")
        enumeration(Mentation.self, into: &vitals, key: "mentation")
        enumeration(Extremities.self, into: &vitals, key: "extremities")
        number("vitals.systolicBP", possible: 0...400, into: &vitals, key: "systolicBP")
        number("vitals.spo2", possible: 0...100, into: &vitals, key: "spo2")
        switch pick() {
        case 0: break
        case 1: vitals.append(("glucose", "null"))
        case let kind:
            let mmol =
                kind == 2
                ? Double.random(in: 0.5...199.5, using: &rng)
                : (Bool.random(using: &rng)
                    ? Double.random(in: 200.5...1e200, using: &rng) : -Double.random(in: 0.5...1e200, using: &rng))
            if kind == 3 { impossible.insert("vitals.glucose.value") }
            let mgPerDecilitre = Bool.random(using: &rng)
            let value = mgPerDecilitre ? mmol * Units.glucoseMgPerMmol : mmol
            vitals.append(
                (
                    "glucose",
                    jsonObject([("value", "\(value)"), ("unit", jsonString(mgPerDecilitre ? "mg/dL" : "mmol/L"))])
                ))
        }
        flag(into: &vitals, key: "ketosis")
        number("vitals.dehydrationPercent", possible: 0...20, into: &vitals, key: "dehydrationPercent")
        if !vitals.isEmpty || Bool.random(using: &rng) {
            root.append(("vitals", jsonObject(vitals.shuffled(using: &rng))))
        }

        var observations: [(String, String)] = []
        enumeration(Grade.self, into: &observations, key: "respiratoryDistress")
        enumeration(Grade.self, into: &observations, key: "pain")
        enumeration(Hemorrhage.self, into: &observations, key: "hemorrhage")
        switch pick() {
        case 0: break
        case 1: observations.append(("seizuresLast24h", "null"))
        case 2: observations.append(("seizuresLast24h", "\(Int.random(in: 0...200, using: &rng))"))
        default:
            impossible.insert("observations.seizuresLast24h")
            observations.append(
                (
                    "seizuresLast24h",
                    ["201", "-1", "1.5", "1e9", "1e300", "-1e300", "999999999"].randomElement(using: &rng)!
                ))
        }
        flag(into: &observations, key: "seizingNow")
        enumeration(Vomiting.self, into: &observations, key: "vomiting")
        number("observations.hoursSinceLastMeal", possible: 0...8_760, into: &observations, key: "hoursSinceLastMeal")
        if !observations.isEmpty || Bool.random(using: &rng) {
            root.append(("observations", jsonObject(observations.shuffled(using: &rng))))
        }

        if Bool.random(using: &rng) {
            let findings = DiscriminatorID.allCases.shuffled(using: &rng).prefix(Int.random(in: 0...8, using: &rng))
            root.append(("findings", "[" + findings.map { jsonString($0.rawValue) }.joined(separator: ",") + "]"))
        }
        switch pick() {
        case 0: break
        case 1: root.append(("complaint", "null"))
        case 2:
            let words = ["vomiting", "seizure", "lame", "Straße", "🐈", "eye", "\n", "bloat", "HEART", "itch", "x"]
            let text = (0..<Int.random(in: 0...40, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(
                separator: " ")
            root.append(("complaint", jsonString(text)))
        default:
            impossible.insert("complaint")
            root.append(
                ("complaint", jsonString(String(repeating: "é", count: Int.random(in: 2_001...3_000, using: &rng)))))
        }
        return GeneratedCase(json: jsonObject(root.shuffled(using: &rng)), impossibleFields: impossible)
    }
}

/// A generated case, drawing from `rng` (and advancing it).
private func buildCase(using rng: inout some RandomNumberGenerator) -> GeneratedCase {
    var builder = CaseBuilder(rng: rng)
    let built = builder.build()
    rng = builder.rng
    return built
}

private let generatedCases = Generator<GeneratedCase, Shrink.None<GeneratedCase>> { rng in buildCase(using: &rng) }

// MARK: - Mutations of valid cases

/// One edit a hand-typed or corrupted request could carry.
private func mutate(_ text: String, using rng: inout some RandomNumberGenerator) -> String {
    var bytes = Array(text.utf8)
    let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &rng)
    switch Int.random(in: 0...6, using: &rng) {
    case 0:
        // Delete a run of bytes (possibly in the middle of a multi-byte character).
        let end = min(bytes.count, position + Int.random(in: 1...12, using: &rng))
        if position < end { bytes.removeSubrange(position..<end) }
    case 1:
        // Insert an edge-case number, string or structural character.
        let token = (edgeNumberTexts + edgeStringTexts + ["{", "}", "[", "]", ",", ":", "null", " ", "\u{FEFF}"])
            .randomElement(using: &rng)!
        bytes.insert(contentsOf: Array(token.utf8), at: position)
    case 2:
        // Replace a number with an edge-case spelling.
        if let digit = bytes.indices.filter({ (48...57).contains(bytes[$0]) }).randomElement(using: &rng) {
            var end = digit
            while end < bytes.count, "0123456789.eE+-".utf8.contains(bytes[end]) { end += 1 }
            bytes.replaceSubrange(digit..<end, with: Array(edgeNumberTexts.randomElement(using: &rng)!.utf8))
        }
    case 3:
        // Duplicate a key right after the object opens.
        if let brace = bytes.indices.filter({ bytes[$0] == UInt8(ascii: "{") }).randomElement(using: &rng) {
            let key = fuzzKeys.randomElement(using: &rng)!
            bytes.insert(
                contentsOf: Array((jsonString(key) + ":" + edgeNumberTexts.randomElement(using: &rng)! + ",").utf8),
                at: brace + 1)
        }
    case 4:
        // Flip a byte to anything, including invalid UTF-8.
        if !bytes.isEmpty { bytes[min(position, bytes.count - 1)] = UInt8.random(in: 0...255, using: &rng) }
    case 5:
        // Wrap in deep nesting.
        let depth = Int.random(in: 1...80, using: &rng)
        bytes =
            Array(String(repeating: "[", count: depth).utf8) + bytes + Array(String(repeating: "]", count: depth).utf8)
    default:
        // Replace a value with a random JSON value.
        if let colon = bytes.indices.filter({ bytes[$0] == UInt8(ascii: ":") }).randomElement(using: &rng) {
            bytes.insert(contentsOf: Array((randomJSON(depth: 3, using: &rng) + ",\"x\":").utf8), at: colon + 1)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

// MARK: - Properties

@Suite("Case parsing properties: outside input gets a case or named errors, never a crash")
struct CaseParsingPropertyTests {
    @Test("random bytes are refused with named fields, never a crash")
    func randomBytes() async {
        await propertyCheck(count: 400, input: Gen<UInt8>.value(in: 0...255).array(of: 0...200)) { bytes in
            expectCaseOrNamedRefusal(ParseOutcome(Data(bytes)), input: "\(bytes)")
        }
    }

    @Test("random JSON of the wire format's shape gets a case that triages to 1–5, or named errors")
    func randomJSONTrees() async {
        let documents = Generator<String, Shrink.None<String>> { rng in randomJSON(depth: 5, using: &rng) }
        await propertyCheck(count: 500, input: documents) { text in
            expectCaseOrNamedRefusal(ParseOutcome(text), input: text)
        }
    }

    @Test("a refused non-object document names the whole document ($)")
    func nonObjects() async {
        let documents = Generator<String, Shrink.None<String>> { rng in
            var text: String
            repeat { text = randomJSON(depth: 2, using: &rng) } while text.hasPrefix("{")
            return text
        }
        await propertyCheck(count: 200, input: documents) { text in
            guard case .refused(let error) = ParseOutcome(text) else {
                Issue.record("\(text) was accepted as a case")
                return
            }
            #expect(error.errors.map(\.field) == ["$"], "\(text): \(error)")
        }
    }

    @Test(
        """
        generated cases are accepted exactly when every value is possible, and refusals name exactly the impossible \
        fields
        """
    )
    func generatedCasesWithKnownValidity() async {
        await propertyCheck(count: 500, input: generatedCases) { generated in
            switch ParseOutcome(generated.json) {
            case .accepted(let parsed):
                #expect(
                    generated.impossibleFields.isEmpty,
                    "accepted despite \(generated.impossibleFields): \(generated.json)")
                let result = triage(parsed)
                #expect((1...5).contains(result.level.rawValue))
                #expect(result.species == parsed.species)
            case .refused(let error):
                #expect(Set(error.errors.map(\.field)) == generated.impossibleFields, "\(error) for \(generated.json)")
            }
        }
    }

    @Test("mutations of valid cases (edge numbers, duplicate keys, cut or flipped bytes, deep nesting) never crash")
    func mutatedCases() async {
        let mutated = Generator<String, Shrink.None<String>> { rng in
            var text = buildCase(using: &rng).json
            for _ in 0..<Int.random(in: 1...4, using: &rng) { text = mutate(text, using: &rng) }
            return text
        }
        await propertyCheck(count: 500, input: mutated) { text in
            expectCaseOrNamedRefusal(ParseOutcome(text), input: text)
        }
    }

    @Test("nesting deeper than the reader's limit is refused as malformed, at any depth")
    func deepNesting() async {
        await propertyCheck(count: 100, input: Gen.int(in: 1...5_000), Gen.bool) { depth, objects in
            let open = objects ? #"{"species":"dog","vitals":"# : "["
            let close = objects ? "}" : "]"
            let text = String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
            guard case .refused(let error) = ParseOutcome(text) else {
                Issue.record("depth \(depth) accepted")
                return
            }
            #expect(!error.errors.isEmpty)
            if depth > 64 { #expect(error.errors.map(\.field) == ["$"]) }
        }
    }
}

// MARK: - Regression

@Suite("Case parsing regressions")
struct CaseParsingRegressionTests {
    @Test(
        "an empty key is refused under a non-empty name",
        arguments: [
            (#"{"":472,"findings":{"species":"bird","hoursSinceLastMeal":0.1e1},"value":130}"#, #"$[""]"#),
            (#"{"species":"dog","vitals":{"":1}}"#, #"vitals[""]"#),
            (
                #"{"species":"dog","vitals":{"temperature":{"value":39,"unit":"C","":null}}}"#,
                #"vitals.temperature[""]"#
            ),
        ])
    func emptyKey(text: String, field: String) {
        guard case .refused(let error) = ParseOutcome(text) else {
            Issue.record("\(text) was accepted")
            return
        }
        #expect(error.errors.map(\.field).contains(field), "\(error)")
        #expect(error.errors.allSatisfy { !$0.field.isEmpty })
    }

    @Test("a case without a usable species is refused naming species, whatever else is wrong")
    func speciesAlwaysNamed() {
        for text in [
            #"{}"#, #"{"species": null}"#, #"{"species": 1e400}"#, #"{"species": "dragon", "ageWeeks": 1e308}"#,
            #"{"species": ["dog"], "vitals": {"heartRate": 0}}"#,
        ] {
            guard case .refused(let error) = ParseOutcome(text) else {
                Issue.record("\(text) was accepted")
                continue
            }
            #expect(error.errors.contains { $0.field == "species" || $0.field == "$" }, "\(text): \(error)")
        }
    }
}
