import Foundation
import SharedKernel
import Testing

@testable import Triage

/// Each derived discriminator, fired from structured input alone (no `findings`), with the
/// input field that made it fire named in its evidence.
let derivedCases: [(DiscriminatorID, TriageCase, String)] = [
    (
        .respDistressSevere, dog(observations: Observations(respiratoryDistress: .severe)),
        "observations.respiratoryDistress"
    ),
    (.shockDecompensated, dog(Vitals(capillaryRefillAbsent: true)), "vitals.capillaryRefillAbsent"),
    (
        .exsanguinatingHemorrhage, dog(observations: Observations(hemorrhage: .exsanguinating)),
        "observations.hemorrhage"
    ),
    (.seizingNow, dog(observations: Observations(seizingNow: true)), "observations.seizingNow"),
    (.unresponsive, dog(Vitals(mentation: .unresponsive)), "vitals.mentation"),
    (.hypoglycemia, dog(Vitals(glucose: Glucose(2.1, .mmolPerLitre))), "vitals.glucose"),
    (.tempGe41, dog(Vitals(temperature: Temperature(41.5, .celsius))), "vitals.temperature"),
    (.tempLe36_7, cat(Vitals(temperature: Temperature(35.0, .celsius))), "vitals.temperature"),
    (
        .respDistressModerate, cat(observations: Observations(respiratoryDistress: .moderate)),
        "observations.respiratoryDistress"
    ),
    (
        .uncontrollableMajorHemorrhage, dog(observations: Observations(hemorrhage: .uncontrollableMajor)),
        "observations.hemorrhage"
    ),
    (.paleMembranesNoShock, dog(Vitals(mucousMembranes: .white)), "vitals.mucousMembranes"),
    (.alteredConsciousness, dog(Vitals(mentation: .obtunded)), "vitals.mentation"),
    (.clusterSeizures, dog(observations: Observations(seizuresLast24h: 4)), "observations.seizuresLast24h"),
    (.hyperglycemiaKetosis, cat(Vitals(glucose: Glucose(25, .mmolPerLitre), ketosis: true)), "vitals.ketosis"),
    (.painSevere, dog(observations: Observations(pain: .severe)), "observations.pain"),
    (.dehydrationSevere, dog(Vitals(dehydrationPercent: 12)), "vitals.dehydrationPercent"),
    (.temp40_5To40_9, dog(Vitals(temperature: Temperature(40.7, .celsius))), "vitals.temperature"),
    (
        .foreignBodyWithSigns,
        TriageCase(
            species: .dog, onsetHoursAgo: 36, observations: Observations(vomiting: .occasional),
            findings: [.foreignBodyPossible]), "observations.vomiting"
    ),
    (
        .respDistressMild, dog(observations: Observations(respiratoryDistress: .mild)),
        "observations.respiratoryDistress"
    ),
    (
        .uncontrollableMinorHemorrhage, dog(observations: Observations(hemorrhage: .uncontrollableMinor)),
        "observations.hemorrhage"
    ),
    (.vomitingPersistent, dog(observations: Observations(vomiting: .persistent)), "observations.vomiting"),
    (.painModerate, dog(observations: Observations(pain: .moderate)), "observations.pain"),
    (.dehydrationModerate, dog(Vitals(dehydrationPercent: 6)), "vitals.dehydrationPercent"),
    (
        .anorexiaNeonate, dog(observations: Observations(hoursSinceLastMeal: 14), age: 6),
        "observations.hoursSinceLastMeal"
    ),
    (.temp40_0To40_4, cat(Vitals(temperature: Temperature(40.2, .celsius))), "vitals.temperature"),
    (.vomiting, dog(observations: Observations(vomiting: .occasional)), "observations.vomiting"),
    (.mildPainRecent, dog(observations: Observations(pain: .mild), onset: 30), "observations.pain"),
    (
        .seizureRecentIsolated, dog(observations: Observations(seizuresLast24h: 1, seizingNow: false)),
        "observations.seizuresLast24h"
    ),
    (.temp39_0To39_9, dog(Vitals(temperature: Temperature(39.4, .celsius))), "vitals.temperature"),
    // §4.4 safety net
    (.cyanosis, dog(Vitals(mucousMembranes: .cyanotic)), "vitals.mucousMembranes"),
    (.spo2VeryLow, cat(Vitals(spo2: 85)), "vitals.spo2"),
    (.spo2Low, dog(Vitals(spo2: 92)), "vitals.spo2"),
    (.abnormalPulse, dog(Vitals(heartRate: 200)), "vitals.heartRate"),
    (.hypotension, cat(Vitals(systolicBP: 75)), "vitals.systolicBP"),
    (
        .rabbitHypothermiaSevere,
        TriageCase(species: .rabbit, vitals: Vitals(temperature: Temperature(36.8, .celsius))), "vitals.temperature"
    ),
    (
        .rabbitHypothermia, TriageCase(species: .rabbit, vitals: Vitals(temperature: Temperature(99.5, .fahrenheit))),
        "vitals.temperature"
    ),
]

@Suite("Derived discriminators (§4)")
struct DerivedRuleTests {
    @Test("every derived catalogue entry has a derivation case here")
    func everyDerivedEntryCovered() {
        let derived = Set(DiscriminatorCatalogue.all.filter { $0.derivation == .derived }.map(\.id))
        #expect(derived == Set(derivedCases.map(\.0)))
    }

    @Test("derived from inputs, not asserted: fires, sets the level, names the input", arguments: derivedCases)
    func derivedFires(id: DiscriminatorID, triageCase: TriageCase, field: String) throws {
        #expect(!triageCase.findings.contains(id))
        try triageCase.validate()
        let result = triage(triageCase)
        let firing = try #require(result.firing(id), "expected \(id.rawValue) to fire")
        #expect(firing.evidence.contains { $0.field == field })
        #expect(result.level == result.fired.map(\.level).min())
        #expect(result.level <= id.discriminator.level)
    }

    @Test("normal inputs fire nothing: a healthy dog with a recent problem is green by fall-through")
    func healthyDogFiresNothing() {
        let result = triage(
            dog(
                Vitals(
                    temperature: Temperature(38.6, .celsius), heartRate: 100, respiratoryRate: 20,
                    capillaryRefillSeconds: 1.5,
                    capillaryRefillAbsent: false, mucousMembranes: .pink, pulseQuality: .normal, mentation: .alert,
                    extremities: .warm,
                    systolicBP: 130, spo2: 98, glucose: Glucose(5.5, .mmolPerLitre), ketosis: false,
                    dehydrationPercent: 0
                ),
                observations: Observations(
                    respiratoryDistress: .absent, pain: .absent, hemorrhage: .controlled, seizuresLast24h: 0,
                    seizingNow: false, vomiting: .absent, hoursSinceLastMeal: 4)))
        #expect(result.fired.isEmpty)
        #expect(result.level == .green)
        #expect(result.abnormalVitals.isEmpty)
        #expect(result.abcde.involvedLetters.isEmpty)
    }

    // MARK: Seizures

    @Test(
        "seizures: seizing now is red; > 2 in 24 h is a cluster; 1 is an isolated recent seizure",
        arguments: [
            (0, false, [DiscriminatorID]()), (1, false, [.seizureRecentIsolated]), (1, true, [.seizingNow]),
            (2, false, [.seizureRecentIsolated]), (3, false, [.clusterSeizures]),
            (3, true, [.seizingNow, .clusterSeizures]),
            (10, false, [.clusterSeizures]),
        ])
    func seizures(count: Int, seizingNow: Bool, expected: [DiscriminatorID]) {
        let result = triage(dog(observations: Observations(seizuresLast24h: count, seizingNow: seizingNow)))
        #expect(result.fired.map(\.id) == expected)
    }

    // MARK: Pain

    @Test(
        "mild pain fires only when onset is within 7 days (or unknown, the safer reading)",
        arguments: [(Double?.none, true), (1, true), (167.9, true), (168, true), (168.1, false), (2000, false)])
    func mildPain(onset: Double?, fires: Bool) {
        let result = triage(dog(observations: Observations(pain: .mild), onset: onset))
        #expect(result.didFire(.mildPainRecent) == fires)
    }

    @Test(
        "pain grades map to their discriminators",
        arguments: [
            (Grade.absent, DiscriminatorID?.none), (.mild, .mildPainRecent), (.moderate, .painModerate),
            (.severe, .painSevere),
        ])
    func painGrades(grade: Grade, expected: DiscriminatorID?) {
        #expect(triage(dog(observations: Observations(pain: grade))).fired.map(\.id) == (expected.map { [$0] } ?? []))
    }

    // MARK: Membranes and consciousness

    @Test("pale membranes fire pale_membranes_no_shock only while shock does not fire")
    func paleMembranesYieldToShock() {
        let pale = triage(dog(Vitals(mucousMembranes: .pale)))
        #expect(pale.fired.map(\.id) == [.paleMembranesNoShock])
        let shocked = triage(dog(Vitals(capillaryRefillSeconds: 3, mucousMembranes: .pale, mentation: .depressed)))
        #expect(shocked.didFire(.shockDecompensated))
        #expect(!shocked.didFire(.paleMembranesNoShock))
    }

    @Test(
        "membrane colours that are not pale, white or grey do not fire pale_membranes_no_shock",
        arguments: [MucousMembranes.pink, .palePink, .cyanotic, .brickRed, .icteric])
    func otherMembranes(colour: MucousMembranes) {
        #expect(!triage(dog(Vitals(mucousMembranes: colour))).didFire(.paleMembranesNoShock))
    }

    @Test(
        "mentation: unresponsive is red, depressed/obtunded/stuporous orange, alert nothing",
        arguments: [
            (Mentation.alert, DiscriminatorID?.none), (.depressed, .alteredConsciousness),
            (.obtunded, .alteredConsciousness),
            (.stuporous, .alteredConsciousness), (.unresponsive, .unresponsive),
        ])
    func mentation(mentation: Mentation, expected: DiscriminatorID?) {
        #expect(triage(dog(Vitals(mentation: mentation))).fired.map(\.id) == (expected.map { [$0] } ?? []))
    }

    @Test(
        "haemorrhage grades",
        arguments: [
            (Hemorrhage.absent, DiscriminatorID?.none), (.controlled, nil),
            (.uncontrollableMinor, .uncontrollableMinorHemorrhage),
            (.uncontrollableMajor, .uncontrollableMajorHemorrhage), (.exsanguinating, .exsanguinatingHemorrhage),
        ])
    func hemorrhage(grade: Hemorrhage, expected: DiscriminatorID?) {
        #expect(
            triage(dog(observations: Observations(hemorrhage: grade))).fired.map(\.id) == (expected.map { [$0] } ?? []))
    }

    @Test("hyperglycaemia without ketosis is not the orange discriminator, but is an abnormal vital")
    func hyperglycaemiaNeedsKetosis() {
        let result = triage(cat(Vitals(glucose: Glucose(28, .mmolPerLitre), ketosis: false)))
        #expect(!result.didFire(.hyperglycemiaKetosis))
        #expect(
            result.abnormalVitals.contains { $0.field == "vitals.glucose" && $0.interpretation == "hyperglycaemia" })
    }

    @Test(
        "a possible foreign body is upgraded only with > 24 h and vomiting or anorexia",
        arguments: [
            (24.0, Vomiting.persistent, 0.0, false), (24.1, .persistent, 0, true), (48, .absent, 10, false),
            (48, .absent, 24, true),
        ])
    func foreignBody(onset: Double, vomiting: Vomiting, fasting: Double, upgraded: Bool) {
        let result = triage(
            TriageCase(
                species: .dog, onsetHoursAgo: onset,
                observations: Observations(vomiting: vomiting, hoursSinceLastMeal: fasting),
                findings: [.foreignBodyPossible]))
        #expect(result.didFire(.foreignBodyWithSigns) == upgraded)
        #expect(result.didFire(.foreignBodyPossible))
    }

    @Test("a derived id that is also asserted fires once, with both pieces of evidence")
    func assertedAndDerivedMerge() throws {
        let result = try triage(
            json: #"{"species":"dog","vitals":{"mentation":"unresponsive"},"findings":["unresponsive"]}"#)
        let firing = try #require(result.firing(.unresponsive))
        #expect(result.fired.filter { $0.id == .unresponsive }.count == 1)
        #expect(Set(firing.evidence.map(\.field)) == ["findings", "vitals.mentation"])
    }
}
