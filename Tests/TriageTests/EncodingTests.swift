import Foundation
import SharedKernel
import Testing

@testable import Triage

@Suite("Result encoding and explanation")
struct EncodingTests {
    private func object(_ result: TriageResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.encodedJSON()) as? [String: Any])
    }

    @Test("the result JSON carries every field the spec requires, in camelCase")
    func requiredKeys() throws {
        let json = try object(try triage(json: specExample))
        for key in [
            "level", "colour", "name", "maxWaitMinutes", "fired", "abcde", "abnormalVitals", "complexity",
            "specialties", "validatedForSpecies", "rulesVersion", "targetTime", "arrival", "assessedAt",
        ] {
            #expect(json[key] != nil, "missing \(key)")
        }
        #expect(json["level"] as? Int == 2)
        #expect(json["colour"] as? String == "orange")
        #expect(json["name"] as? String == "very urgent")
        #expect(json["maxWaitMinutes"] as? Int == 15)
        #expect(json["validatedForSpecies"] as? Bool == true)
        #expect(json["rulesVersion"] as? String == TriageEngine.rulesVersion)
    }

    @Test("fired entries carry id, level, subcategory, abcde and evidence")
    func firedEntries() throws {
        let json = try object(triage(cat(Vitals(temperature: Temperature(106, .fahrenheit)))))
        let fired = try #require(json["fired"] as? [[String: Any]])
        let first = try #require(fired.first)
        #expect(first["id"] as? String == "temp_ge_41")
        #expect(first["level"] as? Int == 1)
        #expect(first["subcategory"] as? String == "generalised")
        #expect(first["abcde"] as? String == "E")
        let evidence = try #require(first["evidence"] as? [[String: String]])
        #expect(evidence == [["field": "vitals.temperature", "value": "106 °F (41.11 °C)"]])
    }

    @Test("a discriminator without an ABCDE letter encodes abcde as null")
    func nullLetter() throws {
        let json = try object(triage(TriageCase(species: .dog, findings: [.toxinIngestion])))
        let fired = try #require(json["fired"] as? [[String: Any]])
        #expect(fired.first?["abcde"] is NSNull)
    }

    @Test("abcde is an object letter → status; complexity has score and contributions; specialties are ranked")
    func nestedShapes() throws {
        let json = try object(triage(dog(observations: Observations(respiratoryDistress: .severe))))
        let abcde = try #require(json["abcde"] as? [String: String])
        #expect(
            abcde == ["<C>": "normal", "A": "normal", "B": "critical", "C": "normal", "D": "normal", "E": "normal"])
        let complexity = try #require(json["complexity"] as? [String: Any])
        #expect(complexity["score"] is Double)
        #expect((complexity["contributions"] as? [[String: Any]])?.count == ComplexityFactor.allCases.count)
        let specialties = try #require(json["specialties"] as? [[String: Any]])
        #expect(specialties.first?["specialty"] as? String == "emergency_critical_care")
        #expect(specialties.first?["rank"] as? Int == 1)
        #expect((specialties.first?["reasons"] as? [String])?.isEmpty == false)
    }

    @Test("encoding is deterministic with sorted keys")
    func deterministic() throws {
        // Two evaluations of the same case, each building its own dictionaries, give the same bytes…
        let result = try triage(json: specExample)
        let again = try triage(json: specExample)
        #expect(result.encodedJSON() == again.encodedJSON())
        let compact = String(decoding: result.encodedJSON(prettyPrinted: false), as: UTF8.self)
        #expect(compact.hasPrefix(#"{"abcde":{"<C>":"normal","A":"normal""#))
        // …because every object's keys are written in sorted order, at every depth.
        var keysByObject: [[String]] = []
        var open: [Int] = []
        var inString = false
        var escaped = false
        var current = ""
        var lastString: String?
        for character in compact {
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    lastString = current
                    continue
                }
                current.append(character)
                continue
            }
            switch character {
            case "\"":
                inString = true
                current = ""
            case ":": if let key = lastString, let object = open.last { keysByObject[object].append(key) }
            case "{":
                keysByObject.append([])
                open.append(keysByObject.count - 1)
            case "}": open.removeLast()
            default: break
            }
            lastString = nil
        }
        #expect(keysByObject.count > 3)
        #expect(keysByObject.allSatisfy { $0 == $0.sorted() }, "\(keysByObject.first { $0 != $0.sorted() } ?? [])")
    }

    @Test("the explanation names the level, every fired discriminator and its evidence")
    func explanation() throws {
        let result = try triage(json: specExample)
        let text = result.explanationText
        #expect(text.hasPrefix("Level 2 ORANGE (very urgent)"))
        for firing in result.fired {
            #expect(text.contains(firing.id.rawValue))
            for evidence in firing.evidence { #expect(text.contains("\(evidence.field) = \(evidence.value)")) }
        }
        #expect(text.contains("ABCDE: <C> normal"))
        #expect(text.contains("Rules version: " + TriageEngine.rulesVersion))
    }

    @Test("fall-through explanation says why")
    func fallThroughExplanation() {
        let text = triage(TriageCase(species: .dog, onsetHoursAgo: 400)).explanationText
        #expect(text.contains("Why: no discriminator fired; onset 400 h ago is more than 7 days ago: blue"))
    }
}

@Suite("Specialty routing (§7)")
struct RoutingTests {
    @Test("red and orange cases go to emergency & critical care first", arguments: [TriageLevel.red, .orange])
    func urgentFirst(level: TriageLevel) throws {
        let finding = try #require(
            DiscriminatorCatalogue.all.first { $0.level == level && !$0.routing.contains(.emergencyCriticalCare) }?.id)
        let result = triage(TriageCase(species: .dog, findings: [finding], complaint: "itchy skin"))
        #expect(result.specialties.first?.specialty == .emergencyCriticalCare)
        #expect(result.specialties.first?.reasons.first?.contains("level \(level.colour)") == true)
    }

    @Test(
        "complaint keywords route to the §7 services",
        arguments: [
            ("lame on the left hind, suspected cruciate", Specialty.orthopedics),
            ("head tilt since yesterday", .neurology), ("had a fit this morning", .neurology),
            ("new heart murmur", .cardiology), ("squinting, corneal ulcer?", .ophthalmology),
            ("itchy ears, recurrent otitis", .dermatology), ("diarrhoea for 3 weeks", .internalMedicine),
            ("lump on the flank, cancer?", .oncology), ("broken tooth", .dentistry),
            ("aggression towards visitors", .behavior),
            ("due to whelp, straining", .theriogenology), ("vaccination", .generalPractice),
        ])
    func keywords(complaint: String, expected: Specialty) {
        let result = triage(TriageCase(species: .dog, onsetHoursAgo: 20, complaint: complaint))
        #expect(
            result.specialties.map(\.specialty).contains(expected),
            "\(complaint) → \(result.specialties.map(\.specialty))")
        #expect(
            result.specialties.first { $0.specialty == expected }?.reasons.contains {
                $0.hasPrefix("complaint mentions")
            } == true)
    }

    @Test("whole-word keywords do not match inside other words: 'early' is not an ear problem")
    func wholeWords() {
        let result = triage(TriageCase(species: .dog, onsetHoursAgo: 20, complaint: "woke early, fearless"))
        #expect(!result.specialties.map(\.specialty).contains(.dermatology))
        #expect(!result.specialties.map(\.specialty).contains(.behavior))
    }

    @Test("fired discriminators route by what they are: proptosis to ophthalmology, fracture to orthopedics")
    func discriminatorRouting() {
        #expect(
            triage(TriageCase(species: .dog, findings: [.openFractureDeformity])).specialties.first?.specialty
                == .orthopedics)
        let proptosis = triage(TriageCase(species: .dog, findings: [.proptosis]))
        #expect(proptosis.specialties.map(\.specialty).prefix(2) == [.emergencyCriticalCare, .ophthalmology])
    }

    @Test(
        "exotic species route to exotics, ahead of other services in a non-urgent case",
        arguments: [Species.rabbit, .ferret, .bird, .reptile])
    func exotics(species: Species) {
        let result = triage(
            TriageCase(species: species, onsetHoursAgo: 5, findings: [.swelling], complaint: "swelling on the leg"))
        #expect(result.specialties.first?.specialty == .exotics)
        #expect(result.specialties.first?.reasons.contains("\(species.rawValue) is an exotic species") == true)
    }

    @Test("nothing specific: general practice")
    func generalPractice() {
        let result = triage(TriageCase(species: .dog, onsetHoursAgo: 5))
        #expect(result.specialties.map(\.specialty) == [.generalPractice])
    }

    @Test("ranks are 1…n and every specialty appears at most once")
    func ranks() throws {
        let result = try triage(json: specExample)
        #expect(result.specialties.map(\.rank) == Array(1...result.specialties.count))
        #expect(Set(result.specialties.map(\.specialty)).count == result.specialties.count)
    }
}
