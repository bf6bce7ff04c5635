import Foundation
import SharedKernel
import Testing

@testable import Triage

@Suite("Decompensated shock, the project rule of §4.2")
struct ShockRuleTests {
    @Test(
        "fires with ≥ 3 signs including reduced consciousness or CRT > 2 s",
        arguments: [
            (
                "mentation + pale + weak pulse",
                Vitals(mucousMembranes: .pale, pulseQuality: .weak, mentation: .depressed), true
            ),
            (
                "CRT + cyanotic + cool extremities",
                Vitals(capillaryRefillSeconds: 2.5, mucousMembranes: .cyanotic, extremities: .cool), true
            ),
            (
                "CRT + mentation + low temperature",
                Vitals(temperature: Temperature(37.0, .celsius), capillaryRefillSeconds: 3, mentation: .stuporous), true
            ),
            (
                "all 6 non-species signs",
                Vitals(
                    temperature: Temperature(36.9, .celsius), capillaryRefillSeconds: 4, mucousMembranes: .white,
                    pulseQuality: .absent, mentation: .obtunded, extremities: .cool), true
            ),
            (
                "3 signs but neither key sign", Vitals(mucousMembranes: .pale, pulseQuality: .weak, extremities: .cool),
                false
            ),
            ("2 signs with both key signs", Vitals(capillaryRefillSeconds: 3, mentation: .depressed), false),
            (
                "cool + low temperature count as one sign",
                Vitals(temperature: Temperature(37.0, .celsius), mentation: .depressed, extremities: .cool), false
            ),
            (
                "pale pink is not a shock sign",
                Vitals(capillaryRefillSeconds: 3, mucousMembranes: .palePink, pulseQuality: .weak), false
            ),
            ("CRT absent alone", Vitals(capillaryRefillAbsent: true), true),
            ("CRT present and normal", Vitals(capillaryRefillSeconds: 1.5, capillaryRefillAbsent: false), false),
        ])
    func projectRule(label: String, vitals: Vitals, fires: Bool) {
        #expect(triage(dog(vitals)).didFire(.shockDecompensated) == fires, "\(label)")
    }

    @Test("pale pink plus two signs does not reach three")
    func palePinkDoesNotCount() {
        #expect(
            !triage(dog(Vitals(capillaryRefillSeconds: 3, mucousMembranes: .palePink))).didFire(.shockDecompensated))
    }

    @Test("cat bradycardia counts as a sign for cats only; dog tachycardia for dogs only")
    func speciesHeartRateSigns() {
        let slow = Vitals(heartRate: 100, mucousMembranes: .pale, mentation: .depressed)
        #expect(triage(cat(slow)).didFire(.shockDecompensated))
        #expect(!triage(dog(slow)).didFire(.shockDecompensated))
        let fast = Vitals(heartRate: 190, mucousMembranes: .pale, mentation: .depressed)
        #expect(triage(dog(fast)).didFire(.shockDecompensated))
        #expect(!triage(cat(fast)).didFire(.shockDecompensated))
        #expect(!triage(TriageCase(species: .rabbit, vitals: fast)).didFire(.shockDecompensated))
    }

    @Test("evidence lists every sign present and the rule names the count")
    func evidenceListsSigns() throws {
        let result = triage(
            cat(Vitals(heartRate: 90, capillaryRefillSeconds: 3, mucousMembranes: .grey, pulseQuality: .weak)))
        let firing = try #require(result.firing(.shockDecompensated))
        #expect(
            Set(firing.evidence.map(\.field)) == [
                "vitals.heartRate", "vitals.capillaryRefillSeconds", "vitals.mucousMembranes", "vitals.pulseQuality",
            ])
        #expect(firing.rule?.hasPrefix("4 of 7 shock signs") == true)
        #expect(result.level == .red)
        #expect(result.abcde[.circulation] == .critical)
    }
}

@Suite("Species rules and reference ranges (§3, §5)")
struct SpeciesTests {
    @Test("validatedForSpecies is true for dogs and cats only", arguments: Species.allCases)
    func validated(species: Species) {
        #expect(triage(TriageCase(species: species)).validatedForSpecies == (species == .dog || species == .cat))
    }

    @Test(
        "temperature bands are not applied to other species; out-of-range temperature is an abnormal vital",
        arguments: [Species.rabbit, .ferret, .horse])
    func noBandsForOtherSpecies(species: Species) throws {
        let result = triage(
            TriageCase(species: species, onsetHoursAgo: 2, vitals: Vitals(temperature: Temperature(41.5, .celsius))))
        #expect(!result.didFire(.tempGe41))
        #expect(result.fired.isEmpty)
        #expect(result.validatedForSpecies == false)
        let flag = try #require(result.abnormalVitals.first { $0.field == "vitals.temperature" })
        #expect(flag.interpretation.hasPrefix("hyperthermia"))
        #expect(result.abcde[.exposure] == .abnormal)
        #expect(result.notes.contains { $0.contains("dogs and cats only") })
        #expect(result.complexity.contributions.first { $0.factor == .abnormalVitals }!.points > 0)
    }

    @Test("a rabbit at 39.5 °C is normal for a rabbit but would be a green band in a dog")
    func rabbitNormalTemperature() {
        let rabbit = triage(
            TriageCase(species: .rabbit, onsetHoursAgo: 2, vitals: Vitals(temperature: Temperature(39.5, .celsius))))
        #expect(rabbit.abnormalVitals.isEmpty)
        #expect(rabbit.fired.isEmpty)
        #expect(triage(dog(Vitals(temperature: Temperature(39.5, .celsius)))).didFire(.temp39_0To39_9))
    }

    @Test(
        "heart rate against species reference range",
        arguments: [
            (Species.dog, 50.0, "bradycardia"), (.dog, 130, "above reference range"),
            (.dog, 190, "tachycardia (> 180 /min)"),
            (.cat, 110, "bradycardia"), (.cat, 210, "above reference range"), (.cat, 230, "tachycardia (> 220 /min)"),
            (.rabbit, 120, "bradycardia"), (.ferret, 420, "above reference range"),
            (.horse, 60, "above reference range"),
        ])
    func heartRateFlags(species: Species, heartRate: Double, interpretation: String) throws {
        let flag = try #require(
            triage(TriageCase(species: species, vitals: Vitals(heartRate: heartRate))).abnormalVitals.first)
        #expect(flag.field == "vitals.heartRate")
        #expect(flag.interpretation.hasPrefix(interpretation))
        #expect(flag.reference?.contains(species.rawValue) == true)
    }

    @Test(
        "vitals inside the species range are not flagged",
        arguments: [
            (Species.dog, 100.0, 20.0, 38.5), (.cat, 160, 25, 38.6), (.rabbit, 200, 45, 39.0), (.ferret, 300, 34, 38.8),
            (.horse, 36, 16, 37.8),
        ])
    func normalVitals(species: Species, heartRate: Double, respiratoryRate: Double, celsius: Double) {
        let result = triage(
            TriageCase(
                species: species,
                vitals: Vitals(
                    temperature: Temperature(celsius, .celsius), heartRate: heartRate, respiratoryRate: respiratoryRate)
            ))
        #expect(result.abnormalVitals.isEmpty)
    }

    @Test(
        "species-independent flags (§5)",
        arguments: [
            (Vitals(systolicBP: 85), "vitals.systolicBP", "hypotension"),
            (Vitals(systolicBP: 180), "vitals.systolicBP", "severe hypertension"),
            (Vitals(spo2: 94), "vitals.spo2", "hypoxaemia"), (Vitals(spo2: 89), "vitals.spo2", "severe hypoxaemia"),
            (Vitals(capillaryRefillSeconds: 0.8), "vitals.capillaryRefillSeconds", "rapid: hyperdynamic"),
            (Vitals(capillaryRefillSeconds: 2.5), "vitals.capillaryRefillSeconds", "prolonged: poor perfusion"),
            (Vitals(mucousMembranes: .cyanotic), "vitals.mucousMembranes", "hypoxaemia"),
            (Vitals(mucousMembranes: .icteric), "vitals.mucousMembranes", "icterus"),
            (Vitals(pulseQuality: .bounding), "vitals.pulseQuality", "bounding: hyperdynamic"),
        ])
    func universalFlags(vitals: Vitals, field: String, interpretation: String) {
        let result = triage(TriageCase(species: .reptile, vitals: vitals))
        #expect(result.abnormalVitals.map(\.field) == [field])
        #expect(result.abnormalVitals.first?.interpretation == interpretation)
    }

    @Test(
        "normal BP and SpO2 boundaries are not flagged",
        arguments: [Vitals(systolicBP: 90), Vitals(systolicBP: 179.9), Vitals(spo2: 95)])
    func boundariesNotFlagged(vitals: Vitals) {
        #expect(triage(dog(vitals)).abnormalVitals.isEmpty)
    }

    @Test("cyanosis shows under B, pallor under C")
    func membraneLetters() {
        // §4.4: cyanotic membranes fire the red `cyanosis` discriminator (letter B) in every
        // species, so B is critical, not just abnormal as the flag alone would make it.
        #expect(
            triage(TriageCase(species: .bird, vitals: Vitals(mucousMembranes: .cyanotic))).abcde[.breathing]
                == .critical)
        #expect(
            triage(TriageCase(species: .bird, vitals: Vitals(mucousMembranes: .pale))).abcde[.circulation] == .abnormal)
    }
}
