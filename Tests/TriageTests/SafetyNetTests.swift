import Foundation
import SharedKernel
import Testing

@testable import Triage

// MARK: - Tables of §4.4

/// The five safety-net discriminators.
private let safetyNet: Set<DiscriminatorID> = [.cyanosis, .spo2VeryLow, .spo2Low, .abnormalPulse, .hypotension]

/// The §4.4 table restated: (id, ABCDE letter, level).
let safetyNetTable: [(DiscriminatorID, ABCDELetter, TriageLevel)] = [
    (.cyanosis, .breathing, .red),
    (.spo2VeryLow, .breathing, .orange),
    (.spo2Low, .breathing, .yellow),
    (.abnormalPulse, .circulation, .orange),
    (.hypotension, .circulation, .orange),
]

/// A discriminator asserted alongside the vital sign, one of each level (or none): the
/// highest level must win either way, and the safety-net id must still be reported.
let companions: [DiscriminatorID?] = [nil, .swelling, .melena, .petechiaeEcchymoses, .rapidAbdominalDistension]

/// SpO₂ at, just inside and just outside 90 % and 95 %, in dogs, cats and an exotic species
/// (every species with a reading): (species, SpO₂, the band that must fire).
let spo2Boundaries: [(Species, Double, DiscriminatorID?)] = [Species.dog, .cat, .rabbit].flatMap { species in
    [
        (50.0, DiscriminatorID?.some(.spo2VeryLow)), (89.9, .spo2VeryLow), (90.0, .spo2Low), (90.1, .spo2Low),
        (94.9, .spo2Low), (95.0, nil), (95.1, nil), (100.0, nil),
    ].map { (species, $0.0, $0.1) }
}

/// Heart rate at and ±0.1 around every §4.4 grade: dog < 60 or > 180, cat ≤ 120 or > 260;
/// other species are never graded by heart rate.
let heartRateBoundaries: [(Species, Double, DiscriminatorID?)] = [
    (.dog, 30, .abnormalPulse), (.dog, 59.9, .abnormalPulse), (.dog, 60, nil), (.dog, 60.1, nil),
    (.dog, 120, nil), (.dog, 179.9, nil), (.dog, 180, nil), (.dog, 180.1, .abnormalPulse), (.dog, 280, .abnormalPulse),
    (.cat, 80, .abnormalPulse), (.cat, 119.9, .abnormalPulse), (.cat, 120, .abnormalPulse), (.cat, 120.1, nil),
    (.cat, 180, nil), (.cat, 259.9, nil), (.cat, 260, nil), (.cat, 260.1, .abnormalPulse), (.cat, 320, .abnormalPulse),
    (.rabbit, 50, nil), (.rabbit, 450, nil), (.ferret, 30, nil), (.horse, 20, nil), (.horse, 200, nil),
    (.bird, 30, nil), (.reptile, 10, nil), (.other, 300, nil),
]

/// Pulse quality, every species: weak and absent fire, normal and bounding do not.
let pulseQualityCases: [(Species, PulseQuality, DiscriminatorID?)] = Species.allCases.flatMap { species in
    PulseQuality.allCases.map { (species, $0, $0 == .weak || $0 == .absent ? DiscriminatorID.abnormalPulse : nil) }
}

/// Systolic BP at and ±0.1 around 90 mmHg in dogs and cats; other species are not graded.
let systolicBoundaries: [(Species, Double, DiscriminatorID?)] =
    [Species.dog, .cat].flatMap { species in
        [(40.0, DiscriminatorID?.some(.hypotension)), (89.9, .hypotension), (90.0, nil), (90.1, nil), (130.0, nil)]
            .map { (species, $0.0, $0.1) }
    } + [
        (.rabbit, 70, nil), (.ferret, 89.9, nil), (.horse, 60, nil), (.bird, 50, nil), (.reptile, 40, nil),
        (.other, 70, nil),
    ]

/// Membrane colour, every species: only cyanotic fires `cyanosis`.
let membraneCases: [(Species, MucousMembranes, DiscriminatorID?)] = Species.allCases.flatMap { species in
    MucousMembranes.allCases.map { (species, $0, $0 == .cyanotic ? DiscriminatorID.cyanosis : nil) }
}

// MARK: - Helpers

/// A patient of `species` with a recent problem (so nothing fired is green), `vitals` and
/// an optional asserted companion discriminator.
private func patient(_ species: Species, _ vitals: Vitals, companion: DiscriminatorID? = nil) -> TriageCase {
    TriageCase(
        species: species, ageWeeks: 200, onsetHoursAgo: 2, vitals: vitals, findings: companion.map { [$0] } ?? [])
}

/// Triages `vitals` in `species` with `companion` and checks that exactly `expected` of the
/// safety net fired (with evidence from `field`) and that the most urgent level won.
private func expectSafetyNet(
    _ species: Species, _ vitals: Vitals, companion: DiscriminatorID?, expected: DiscriminatorID?,
    field: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let triageCase = patient(species, vitals, companion: companion)
    try triageCase.validate()
    let result = triage(triageCase)
    #expect(
        result.fired.map(\.id).filter { safetyNet.contains($0) } == (expected.map { [$0] } ?? []),
        sourceLocation: sourceLocation)
    if let expected {
        let firing = try #require(result.firing(expected), sourceLocation: sourceLocation)
        #expect(firing.evidence.contains { $0.field == field }, sourceLocation: sourceLocation)
    }
    if let companion { #expect(result.didFire(companion), sourceLocation: sourceLocation) }
    let levels = [expected, companion].compactMap { $0?.discriminator.level }
    #expect(result.level == (levels.min() ?? .green), "highest level wins", sourceLocation: sourceLocation)
}

// MARK: - Tests

@Suite("Objective vital-sign safety net (§4.4)")
struct SafetyNetTests {
    @Test(
        "the catalogue has the five §4.4 entries with their letter and level, derived from vitals",
        arguments: safetyNetTable)
    func catalogueEntries(id: DiscriminatorID, letter: ABCDELetter, level: TriageLevel) throws {
        let entry = try #require(DiscriminatorCatalogue.entry(wireID: id.rawValue))
        #expect(entry.id == id)
        #expect(entry.abcde == letter)
        #expect(entry.level == level)
        #expect(entry.derivation == .derived)
        #expect(entry.subcategory == (letter == .breathing ? .respiratory : .circulatory))
        #expect(entry.definition.contains("§4.4"))
        #expect(!entry.routing.isEmpty)
        #expect(DiscriminatorCatalogue.all.filter { safetyNet.contains($0.id) }.count == 5)
    }

    @Test("the rules version is vetnet-1.2.0 and every result carries it")
    func rulesVersion() throws {
        #expect(TriageEngine.rulesVersion == "vtl-ruys2012+vetnet-1.2.0")
        #expect(
            try triage(json: #"{"species":"dog","vitals":{"spo2":85}}"#).rulesVersion == "vtl-ruys2012+vetnet-1.2.0")
    }

    @Test(
        "one measured vital alone raises the level (wire format)",
        arguments: [
            (
                #"{"species":"dog","vitals":{"mucousMembranes":"cyanotic"}}"#, TriageLevel.red,
                DiscriminatorID.cyanosis, "vitals.mucousMembranes", "cyanotic"
            ),
            (#"{"species":"dog","vitals":{"spo2":85}}"#, .orange, .spo2VeryLow, "vitals.spo2", "85 %"),
            (
                #"{"species":"dog","vitals":{"heartRate":280}}"#, .orange, .abnormalPulse, "vitals.heartRate",
                "280 /min (dog)"
            ),
            (
                #"{"species":"dog","vitals":{"heartRate":30}}"#, .orange, .abnormalPulse, "vitals.heartRate",
                "30 /min (dog)"
            ),
            (#"{"species":"dog","vitals":{"systolicBP":70}}"#, .orange, .hypotension, "vitals.systolicBP", "70 mmHg"),
        ])
    func formerlyGreenCases(json: String, level: TriageLevel, id: DiscriminatorID, field: String, value: String) throws
    {
        let result = try triage(json: json)
        #expect(result.level == level)
        #expect(result.fired.map(\.id) == [id])
        let firing = try #require(result.firing(id))
        #expect(firing.evidence == [Evidence(field: field, value: value)])
        #expect(firing.rule != nil)
        #expect(result.fallThrough == nil)
        #expect(result.rulesVersion == "vtl-ruys2012+vetnet-1.2.0")
    }

    @Test(
        "the borderlines the spec names: SpO2 90.0 is spo2_low, dog HR 60 fires nothing, cat HR 120 is abnormal_pulse")
    func namedBorderlines() {
        #expect(triage(dog(Vitals(spo2: 90.0))).fired.map(\.id) == [.spo2Low])
        #expect(triage(dog(Vitals(heartRate: 60))).fired.isEmpty)
        #expect(triage(cat(Vitals(heartRate: 120))).fired.map(\.id) == [.abnormalPulse])
    }

    // MARK: Thresholds, alone and with a companion of each level

    @Test("SpO2: < 90 % very low (orange), 90–95 % low (yellow), any species", arguments: spo2Boundaries, companions)
    func spo2(row: (Species, Double, DiscriminatorID?), companion: DiscriminatorID?) throws {
        try expectSafetyNet(row.0, Vitals(spo2: row.1), companion: companion, expected: row.2, field: "vitals.spo2")
    }

    @Test(
        "heart rate: dog < 60 or > 180, cat <= 120 or > 260; no grade for other species",
        arguments: heartRateBoundaries, companions)
    func heartRate(row: (Species, Double, DiscriminatorID?), companion: DiscriminatorID?) throws {
        try expectSafetyNet(
            row.0, Vitals(heartRate: row.1), companion: companion, expected: row.2, field: "vitals.heartRate")
    }

    @Test("pulse quality weak or absent is abnormal_pulse in every species", arguments: pulseQualityCases, companions)
    func pulseQuality(row: (Species, PulseQuality, DiscriminatorID?), companion: DiscriminatorID?) throws {
        try expectSafetyNet(
            row.0, Vitals(pulseQuality: row.1), companion: companion, expected: row.2, field: "vitals.pulseQuality")
    }

    @Test("systolic BP < 90 mmHg is hypotension in dogs and cats", arguments: systolicBoundaries, companions)
    func systolic(row: (Species, Double, DiscriminatorID?), companion: DiscriminatorID?) throws {
        try expectSafetyNet(
            row.0, Vitals(systolicBP: row.1), companion: companion, expected: row.2, field: "vitals.systolicBP")
    }

    @Test(
        "cyanotic membranes are red in every species; no other colour fires cyanosis", arguments: membraneCases,
        companions)
    func membranes(row: (Species, MucousMembranes, DiscriminatorID?), companion: DiscriminatorID?) throws {
        let triageCase = patient(row.0, Vitals(mucousMembranes: row.1), companion: companion)
        let result = triage(triageCase)
        #expect(result.didFire(.cyanosis) == (row.2 != nil))
        #expect(result.fired.map(\.id).filter { safetyNet.contains($0) } == (row.2.map { [$0] } ?? []))
        if row.2 != nil {
            #expect(result.level == .red)
            #expect(result.abcde[.breathing] == .critical)
            #expect(!result.didFire(.paleMembranesNoShock))
        }
    }

    @Test(
        "species not graded by heart rate or pressure still flag the value as an abnormal vital",
        arguments: [
            (Species.rabbit, Vitals(heartRate: 50), "vitals.heartRate"),
            (.horse, Vitals(heartRate: 80), "vitals.heartRate"),
            (.rabbit, Vitals(systolicBP: 70), "vitals.systolicBP"),
            (.reptile, Vitals(systolicBP: 40), "vitals.systolicBP"),
        ])
    func ungradedSpeciesFlagged(species: Species, vitals: Vitals, field: String) {
        let result = triage(patient(species, vitals))
        #expect(result.fired.isEmpty)
        #expect(result.abnormalVitals.map(\.field) == [field])
    }

    @Test(
        "respiratory rate alone is not a discriminator, only a flagged abnormal vital",
        arguments: [
            (Species.dog, 4.0), (.dog, 80), (.dog, 200), (.cat, 5), (.cat, 90), (.rabbit, 150),
        ])
    func respiratoryRateAlone(species: Species, rate: Double) {
        let result = triage(patient(species, Vitals(respiratoryRate: rate)))
        #expect(result.fired.isEmpty)
        #expect(result.level == .green)
        #expect(result.abnormalVitals.map(\.field) == ["vitals.respiratoryRate"])
    }

    // MARK: Combinations

    @Test(
        """
        combined with each other, with observations and with the shock rule: highest level wins, shock still decides red
        """,
        arguments: [
            (
                "yellow SpO2 and orange heart rate", dog(Vitals(heartRate: 200, spo2: 92)), TriageLevel.orange,
                [DiscriminatorID.abnormalPulse, .spo2Low]
            ),
            (
                "very low SpO2 and cyanosis", dog(Vitals(mucousMembranes: .cyanotic, spo2: 85)), .red,
                [.cyanosis, .spo2VeryLow]
            ),
            (
                "every safety-net sign in a cat",
                cat(
                    Vitals(
                        heartRate: 300, mucousMembranes: .cyanotic, pulseQuality: .absent, systolicBP: 60, spo2: 80)),
                .red, [.cyanosis, .spo2VeryLow, .abnormalPulse, .hypotension]
            ),
            (
                "hypotension and hyperthermia", dog(Vitals(temperature: Temperature(41.5, .celsius), systolicBP: 70)),
                .red, [.tempGe41, .hypotension]
            ),
            (
                "low SpO2 with severe respiratory distress observed",
                dog(Vitals(spo2: 93), observations: Observations(respiratoryDistress: .severe)),
                .red, [.respDistressSevere, .spo2Low]
            ),
            (
                "cyanosis with severe respiratory distress observed: both reported",
                cat(Vitals(mucousMembranes: .cyanotic), observations: Observations(respiratoryDistress: .severe)), .red,
                [.respDistressSevere, .cyanosis]
            ),
            (
                "low SpO2 with moderate pain", dog(Vitals(spo2: 94), observations: Observations(pain: .moderate)),
                .yellow, [.painModerate, .spo2Low]
            ),
            (
                "cat HR 120 with moderate pain",
                cat(Vitals(heartRate: 120), observations: Observations(pain: .moderate)), .orange,
                [.abnormalPulse, .painModerate]
            ),
            // §4.2: a cat's HR < 120 is a shock sign; with pale membranes and depression that is 3 signs including a
            // key sign.
            (
                "cat HR 100, pale, depressed: shock",
                cat(Vitals(heartRate: 100, mucousMembranes: .pale, mentation: .depressed)), .red,
                [.shockDecompensated, .alteredConsciousness, .abnormalPulse]
            ),
            (
                "cat HR 119.9, pale, depressed: shock",
                cat(Vitals(heartRate: 119.9, mucousMembranes: .pale, mentation: .depressed)), .red,
                [.shockDecompensated, .alteredConsciousness, .abnormalPulse]
            ),
            // HR 120 is abnormal_pulse (<= 120) but not a shock sign (< 120): two signs only, orange.
            (
                "cat HR 120, pale, depressed: no shock",
                cat(Vitals(heartRate: 120, mucousMembranes: .pale, mentation: .depressed)), .orange,
                [.paleMembranesNoShock, .alteredConsciousness, .abnormalPulse]
            ),
            (
                "cat HR 120.1, pale, depressed: neither",
                cat(Vitals(heartRate: 120.1, mucousMembranes: .pale, mentation: .depressed)), .orange,
                [.paleMembranesNoShock, .alteredConsciousness]
            ),
            // A dog's HR > 160 is a shock sign well before it is an abnormal pulse (> 180).
            (
                "dog HR 170, pale, depressed: shock without abnormal pulse",
                dog(Vitals(heartRate: 170, mucousMembranes: .pale, mentation: .depressed)),
                .red, [.shockDecompensated, .alteredConsciousness]
            ),
            (
                "dog HR 190, pale, depressed: shock and abnormal pulse",
                dog(Vitals(heartRate: 190, mucousMembranes: .pale, mentation: .depressed)),
                .red, [.shockDecompensated, .alteredConsciousness, .abnormalPulse]
            ),
            (
                "dog HR 50, pale, depressed: abnormal pulse, no shock (bradycardia is a cat sign)",
                dog(Vitals(heartRate: 50, mucousMembranes: .pale, mentation: .depressed)), .orange,
                [.paleMembranesNoShock, .alteredConsciousness, .abnormalPulse]
            ),
            (
                "weak pulse, pale, CRT 3 s: shock",
                dog(Vitals(capillaryRefillSeconds: 3, mucousMembranes: .pale, pulseQuality: .weak)), .red,
                [.shockDecompensated, .abnormalPulse]
            ),
            (
                "weak pulse, pale, cool: no key sign, orange",
                dog(Vitals(mucousMembranes: .pale, pulseQuality: .weak, extremities: .cool)), .orange,
                [.paleMembranesNoShock, .abnormalPulse]
            ),
            (
                "cyanotic, CRT 3 s, weak pulse: shock and cyanosis",
                dog(Vitals(capillaryRefillSeconds: 3, mucousMembranes: .cyanotic, pulseQuality: .weak)),
                .red, [.shockDecompensated, .cyanosis, .abnormalPulse]
            ),
            (
                "CRT absent and hypotension", cat(Vitals(capillaryRefillAbsent: true, systolicBP: 55)), .red,
                [.shockDecompensated, .hypotension]
            ),
            (
                "hypotension with a yellow finding",
                TriageCase(species: .dog, onsetHoursAgo: 2000, vitals: Vitals(systolicBP: 85), findings: [.melena]),
                .orange, [.hypotension, .melena]
            ),
        ])
    func combinations(label: String, triageCase: TriageCase, level: TriageLevel, fired: [DiscriminatorID]) throws {
        try triageCase.validate()
        let result = triage(triageCase)
        #expect(result.level == level, "\(label)")
        #expect(result.fired.map(\.id) == fired, "\(label)")
    }

    // MARK: Evidence, ABCDE and assertion

    @Test("a fast heart and a weak pulse make one abnormal_pulse entry carrying both")
    func abnormalPulseEvidence() throws {
        let result = triage(dog(Vitals(heartRate: 30, pulseQuality: .weak)))
        #expect(result.fired.map(\.id) == [.abnormalPulse])
        let firing = try #require(result.firing(.abnormalPulse))
        #expect(
            firing.evidence == [
                Evidence(field: "vitals.heartRate", value: "30 /min (dog)"),
                Evidence(field: "vitals.pulseQuality", value: "weak"),
            ])
        #expect(firing.rule == "dog HR < 60 or > 180 /min; pulse weak")
    }

    @Test(
        "the safety net counts toward the ABCDE survey by its letters",
        arguments: [
            (Vitals(mucousMembranes: .cyanotic), ABCDELetter.breathing, ABCDEStatus.critical),
            (Vitals(spo2: 85), .breathing, .abnormal), (Vitals(spo2: 93), .breathing, .abnormal),
            (Vitals(heartRate: 30), .circulation, .abnormal), (Vitals(systolicBP: 70), .circulation, .abnormal),
        ])
    func abcde(vitals: Vitals, letter: ABCDELetter, status: ABCDEStatus) {
        #expect(triage(dog(vitals)).abcde[letter] == status)
    }

    @Test(
        "asserted and measured: one entry with both pieces of evidence",
        arguments: [
            (
                #"{"species":"cat","vitals":{"heartRate":100},"findings":["abnormal_pulse"]}"#,
                DiscriminatorID.abnormalPulse, "vitals.heartRate"
            ),
            (#"{"species":"dog","vitals":{"spo2":88},"findings":["spo2_very_low"]}"#, .spo2VeryLow, "vitals.spo2"),
            (
                #"{"species":"dog","vitals":{"mucousMembranes":"cyanotic"},"findings":["cyanosis"]}"#, .cyanosis,
                "vitals.mucousMembranes"
            ),
        ])
    func assertedAndMeasured(json: String, id: DiscriminatorID, field: String) throws {
        let result = try triage(json: json)
        #expect(result.fired.filter { $0.id == id }.count == 1)
        let firing = try #require(result.firing(id))
        #expect(Set(firing.evidence.map(\.field)) == ["findings", field])
        #expect(firing.rule != nil)
    }

    @Test("a safety-net level counts in the explanation text with its rule and evidence")
    func explanation() throws {
        let text = try triage(json: #"{"species":"dog","vitals":{"systolicBP":70}}"#).explanationText
        #expect(text.hasPrefix("Level 2 ORANGE (very urgent)"))
        #expect(text.contains("hypotension: circulatory, ABCDE C"))
        #expect(text.contains("rule: systolic BP < 90 mmHg"))
        #expect(text.contains("vitals.systolicBP = 70 mmHg"))
        #expect(text.contains("Rules version: vtl-ruys2012+vetnet-1.2.0"))
    }
}
