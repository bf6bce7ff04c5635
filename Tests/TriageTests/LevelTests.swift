import Foundation
import SharedKernel
import Testing

@testable import Triage

@Suite("Level selection (§2)")
struct LevelTests {
    @Test(
        "nothing fired: recent onset green, old onset blue, unknown onset green",
        arguments: [
            (Double?.some(6), TriageLevel.green), (.some(24 * 7), .green), (.some(24 * 30), .blue), (.none, .green),
        ])
    func fallThrough(onset: Double?, expected: TriageLevel) throws {
        let result = triage(TriageCase(species: .dog, onsetHoursAgo: onset, complaint: "check up"))
        #expect(result.fired.isEmpty)
        #expect(result.level == expected)
        let reason = try #require(result.fallThrough)
        if onset == nil { #expect(reason.contains("unknown")) }
    }

    @Test(
        "the most urgent fired discriminator wins, whatever the order of the findings",
        arguments: [
            ([DiscriminatorID.swelling, .melena, .toxinIngestion], TriageLevel.orange),
            ([.toxinIngestion, .melena, .swelling], .orange),
            ([.swelling, .seizingNow, .melena], .red),
            ([.pruritusRecent, .headTilt], .yellow),
            ([.localInflammation], .green),
        ])
    func highestLevelWins(findings: [DiscriminatorID], expected: TriageLevel) {
        let result = triage(TriageCase(species: .cat, onsetHoursAgo: 1000, findings: findings))
        #expect(result.level == expected)
        #expect(Set(result.fired.map(\.id)) == Set(findings))
        // Returned most urgent first.
        #expect(result.fired.map(\.level) == result.fired.map(\.level).sorted())
    }

    @Test("a green finding with an old onset stays green: fired discriminators beat the blue fall-through")
    func greenFindingNotBlue() {
        #expect(triage(TriageCase(species: .dog, onsetHoursAgo: 5000, findings: [.swelling])).level == .green)
    }

    @Test(
        """
        missing data never lowers a level: removing vitals from a red case cannot make it less urgent than its findings
        """
    )
    func missingDataNeverLowers() {
        let full = triage(
            TriageCase(species: .dog, vitals: Vitals(temperature: Temperature(41.3, .celsius)), findings: [.melena]))
        let partial = triage(TriageCase(species: .dog, findings: [.melena]))
        #expect(full.level == .red)
        #expect(partial.level == .yellow)
    }

    @Test("target time = arrival + maximum wait", arguments: TriageLevel.allCases)
    func targetTime(level: TriageLevel) {
        // No discriminator is blue: blue is reached by the fall-through of an old problem.
        let findings =
            DiscriminatorCatalogue.all.first { $0.level == level && $0.derivation == .asserted }.map { [$0.id] } ?? []
        let arrival = testNow.addingTimeInterval(-600)
        let result = engine.evaluate(
            TriageCase(species: .dog, onsetHoursAgo: 2000, findings: findings), arrival: arrival)
        #expect(result.level == level)
        #expect(result.arrival == arrival)
        #expect(result.assessedAt == testNow)
        #expect(result.targetTime == arrival.addingTimeInterval(Double(level.maxWaitMinutes) * 60))
    }

    @Test("ABCDE: red of a letter is critical, other fired letters abnormal, others normal")
    func abcdeSummary() {
        let result = triage(
            TriageCase(
                species: .dog,
                observations: Observations(respiratoryDistress: .severe, hemorrhage: .uncontrollableMajor),
                findings: [.headTilt]))
        #expect(result.abcde[.breathing] == .critical)
        #expect(result.abcde[.circulation] == .abnormal)
        #expect(result.abcde[.catastrophicBleeding] == .abnormal)
        #expect(result.abcde[.disability] == .abnormal)
        #expect(result.abcde[.airway] == .normal)
        #expect(result.abcde[.exposure] == .normal)
        #expect(result.abcde.entries.map(\.letter.rawValue) == ["<C>", "A", "B", "C", "D", "E"])
    }

    @Test("exsanguinating haemorrhage makes catastrophic bleeding critical and is treated first")
    func catastrophicBleeding() {
        let result = triage(dog(observations: Observations(hemorrhage: .exsanguinating)))
        #expect(result.abcde[.catastrophicBleeding] == .critical)
        #expect(result.abcde[.circulation] == .critical)
        #expect(result.abcde.entries.first?.letter == .catastrophicBleeding)
    }

    @Test("the rules version is reported")
    func rulesVersion() {
        #expect(triage(dog()).rulesVersion == TriageEngine.rulesVersion)
        #expect(!TriageEngine.rulesVersion.isEmpty)
    }
}
