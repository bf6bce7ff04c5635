import Foundation
import SharedKernel
import Testing

@testable import Triage

/// Spec 1.2 §4.5: hypothermia at admission in rabbits (rules `vetnet-1.2.0`).
@Suite("Rabbits: hypothermia at admission (§4.5)")
struct RabbitHypothermiaTests {
    static func rabbit(_ temperature: Temperature, pain: Grade? = nil) -> TriageResult {
        triage(
            TriageCase(
                species: .rabbit, ageWeeks: 100, onsetHoursAgo: 2, vitals: Vitals(temperature: temperature),
                observations: Observations(pain: pain)))
    }

    @Test(
        "each boundary of the table lands on its side, in °C and in °F",
        arguments: [
            (
                36.5, TemperatureUnit.celsius, DiscriminatorID?.some(.rabbitHypothermiaSevere),
                TriageLevel?.some(.orange)
            ),
            (36.99, .celsius, .rabbitHypothermiaSevere, .orange),
            (37.0, .celsius, .rabbitHypothermia, .yellow),
            (37.9, .celsius, .rabbitHypothermia, .yellow),
            (38.0, .celsius, nil, nil),
            // 98.6 °F is 37.0 °C exactly; 98.58 °F is 36.99 °C; 100.22 °F is 37.9 °C; 100.4 °F is 38.0 °C.
            (98.58, .fahrenheit, .rabbitHypothermiaSevere, .orange),
            (98.6, .fahrenheit, .rabbitHypothermia, .yellow),
            (100.22, .fahrenheit, .rabbitHypothermia, .yellow),
            (100.4, .fahrenheit, nil, nil),
        ])
    func boundaries(value: Double, unit: TemperatureUnit, fired: DiscriminatorID?, level: TriageLevel?) {
        let result = Self.rabbit(Temperature(value, unit))
        let rabbitRules: Set<DiscriminatorID> = [.rabbitHypothermia, .rabbitHypothermiaSevere]
        #expect(
            result.fired.map(\.id).filter(rabbitRules.contains) == (fired.map { [$0] } ?? []),
            "\(value) \(unit.rawValue)")
        // Without a firing the level is the one the rabbit would have with no temperature at all.
        let expected = level ?? triage(TriageCase(species: .rabbit, ageWeeks: 100, onsetHoursAgo: 2)).level
        #expect(result.level == expected, "\(value) \(unit.rawValue)")
        #expect(!result.validatedForSpecies)
    }

    @Test("a rabbit at 36.5 °C with moderate pain is orange, one at 36.9 °C alone no longer green")
    func issueCases() {
        #expect(Self.rabbit(Temperature(36.5, .celsius), pain: .moderate).level == .orange)
        #expect(Self.rabbit(Temperature(36.9, .celsius)).level == .orange)
    }

    @Test(
        "the rules are the rabbit's only: a dog or a ferret at 36.9 °C fires neither",
        arguments: [Species.dog, .cat, .ferret, .other])
    func otherSpecies(species: Species) {
        let result = triage(TriageCase(species: species, vitals: Vitals(temperature: Temperature(36.9, .celsius))))
        #expect(!result.fired.contains { $0.id == .rabbitHypothermia || $0.id == .rabbitHypothermiaSevere })
    }

    @Test("every result carries rules version vtl-ruys2012+vetnet-1.2.0, and the firing cites §4.5")
    func rulesVersion() throws {
        let result = Self.rabbit(Temperature(36.0, .celsius))
        #expect(result.rulesVersion == "vtl-ruys2012+vetnet-1.2.0")
        let entry = DiscriminatorCatalogue.entry(.rabbitHypothermiaSevere)
        #expect(entry.definition.contains("§4.5"))
    }
}
