import Foundation
import SharedKernel
import Testing

@testable import Triage

/// The example of spec §9.
let specExample = """
    {
      "species": "dog",
      "ageWeeks": 16,
      "sex": "male_neutered",
      "onsetHoursAgo": 6,
      "vitals": {
        "temperature": {"value": 103.5, "unit": "F"},
        "heartRate": 150, "respiratoryRate": 30,
        "capillaryRefillSeconds": 1.8, "capillaryRefillAbsent": false,
        "mucousMembranes": "pink",
        "pulseQuality": "normal",
        "mentation": "alert",
        "extremities": "warm",
        "systolicBP": 130, "spo2": 97,
        "glucose": {"value": 5.1, "unit": "mmol/L"}, "ketosis": false,
        "dehydrationPercent": 10
      },
      "observations": {
        "respiratoryDistress": "none", "pain": "mild", "hemorrhage": "none",
        "seizuresLast24h": 0, "seizingNow": false,
        "vomiting": "persistent", "hoursSinceLastMeal": 20
      },
      "findings": ["toxin_ingestion"],
      "complaint": "ate chocolate, vomiting"
    }
    """

/// One bad input per row: the JSON, and the field the error must name.
let badInputs: [(String, String, String)] = [
    ("malformed JSON", #"{"species": "dog","#, "$"),
    ("trailing garbage", #"{"species": "dog"} x"#, "$"),
    ("not an object", #"["dog"]"#, "$"),
    ("duplicate key", #"{"species": "dog", "species": "cat"}"#, "$"),
    ("missing species", #"{"ageWeeks": 10}"#, "species"),
    ("null species", #"{"species": null}"#, "species"),
    ("unknown species", #"{"species": "dragon"}"#, "species"),
    ("species not a string", #"{"species": 3}"#, "species"),
    ("unknown top-level key", #"{"species": "dog", "colour": "red"}"#, "colour"),
    ("typo heartrate", #"{"species": "dog", "vitals": {"heartrate": 250}}"#, "vitals.heartrate"),
    (
        "typo in observations", #"{"species": "dog", "observations": {"vomitting": "persistent"}}"#,
        "observations.vomitting"
    ),
    ("ageWeeks as string", #"{"species": "dog", "ageWeeks": "16"}"#, "ageWeeks"),
    ("negative age", #"{"species": "dog", "ageWeeks": -1}"#, "ageWeeks"),
    ("unknown sex", #"{"species": "dog", "sex": "neutered"}"#, "sex"),
    ("negative onset", #"{"species": "dog", "onsetHoursAgo": -2}"#, "onsetHoursAgo"),
    ("vitals not an object", #"{"species": "dog", "vitals": [1]}"#, "vitals"),
    ("heart rate as string", #"{"species": "dog", "vitals": {"heartRate": "150"}}"#, "vitals.heartRate"),
    ("heart rate 0", #"{"species": "dog", "vitals": {"heartRate": 0}}"#, "vitals.heartRate"),
    ("heart rate negative", #"{"species": "dog", "vitals": {"heartRate": -60}}"#, "vitals.heartRate"),
    ("heart rate 500.1", #"{"species": "dog", "vitals": {"heartRate": 500.1}}"#, "vitals.heartRate"),
    ("temperature as bare number", #"{"species": "dog", "vitals": {"temperature": 39}}"#, "vitals.temperature"),
    (
        "temperature without unit", #"{"species": "dog", "vitals": {"temperature": {"value": 39}}}"#,
        "vitals.temperature.unit"
    ),
    (
        "temperature without value", #"{"species": "dog", "vitals": {"temperature": {"unit": "C"}}}"#,
        "vitals.temperature.value"
    ),
    (
        "temperature unit K", #"{"species": "dog", "vitals": {"temperature": {"value": 312, "unit": "K"}}}"#,
        "vitals.temperature.unit"
    ),
    (
        "temperature key typo", #"{"species": "dog", "vitals": {"temperature": {"valeu": 39, "unit": "C"}}}"#,
        "vitals.temperature.valeu"
    ),
    (
        "temperature 14.9 °C", #"{"species": "dog", "vitals": {"temperature": {"value": 14.9, "unit": "C"}}}"#,
        "vitals.temperature.value"
    ),
    (
        "temperature 47.1 °C", #"{"species": "dog", "vitals": {"temperature": {"value": 47.1, "unit": "C"}}}"#,
        "vitals.temperature.value"
    ),
    (
        "°C value entered as °F", #"{"species": "dog", "vitals": {"temperature": {"value": 39, "unit": "F"}}}"#,
        "vitals.temperature.value"
    ),
    (
        "temperature 120 °F", #"{"species": "dog", "vitals": {"temperature": {"value": 120, "unit": "F"}}}"#,
        "vitals.temperature.value"
    ),
    ("respiratory rate negative", #"{"species": "dog", "vitals": {"respiratoryRate": -1}}"#, "vitals.respiratoryRate"),
    (
        "CRT negative", #"{"species": "dog", "vitals": {"capillaryRefillSeconds": -0.1}}"#,
        "vitals.capillaryRefillSeconds"
    ),
    (
        "CRT absent as string", #"{"species": "dog", "vitals": {"capillaryRefillAbsent": "yes"}}"#,
        "vitals.capillaryRefillAbsent"
    ),
    (
        "unknown membrane colour", #"{"species": "dog", "vitals": {"mucousMembranes": "blue"}}"#,
        "vitals.mucousMembranes"
    ),
    ("unknown pulse quality", #"{"species": "dog", "vitals": {"pulseQuality": "thready"}}"#, "vitals.pulseQuality"),
    ("unknown mentation", #"{"species": "dog", "vitals": {"mentation": "sleepy"}}"#, "vitals.mentation"),
    ("unknown extremities", #"{"species": "dog", "vitals": {"extremities": "cold"}}"#, "vitals.extremities"),
    ("systolic BP impossible", #"{"species": "dog", "vitals": {"systolicBP": 450}}"#, "vitals.systolicBP"),
    ("SpO2 over 100", #"{"species": "dog", "vitals": {"spo2": 101}}"#, "vitals.spo2"),
    (
        "glucose unit mg", #"{"species": "dog", "vitals": {"glucose": {"value": 90, "unit": "mg"}}}"#,
        "vitals.glucose.unit"
    ),
    (
        "glucose negative", #"{"species": "dog", "vitals": {"glucose": {"value": -1, "unit": "mmol/L"}}}"#,
        "vitals.glucose.value"
    ),
    ("ketosis as number", #"{"species": "dog", "vitals": {"ketosis": 1}}"#, "vitals.ketosis"),
    ("dehydration 20.1 %", #"{"species": "dog", "vitals": {"dehydrationPercent": 20.1}}"#, "vitals.dehydrationPercent"),
    (
        "dehydration negative", #"{"species": "dog", "vitals": {"dehydrationPercent": -0.1}}"#,
        "vitals.dehydrationPercent"
    ),
    ("observations not an object", #"{"species": "dog", "observations": "fine"}"#, "observations"),
    (
        "unknown distress grade", #"{"species": "dog", "observations": {"respiratoryDistress": "extreme"}}"#,
        "observations.respiratoryDistress"
    ),
    ("unknown pain grade", #"{"species": "dog", "observations": {"pain": "agonising"}}"#, "observations.pain"),
    (
        "unknown hemorrhage grade", #"{"species": "dog", "observations": {"hemorrhage": "major"}}"#,
        "observations.hemorrhage"
    ),
    (
        "fractional seizure count", #"{"species": "dog", "observations": {"seizuresLast24h": 1.5}}"#,
        "observations.seizuresLast24h"
    ),
    (
        "negative seizure count", #"{"species": "dog", "observations": {"seizuresLast24h": -1}}"#,
        "observations.seizuresLast24h"
    ),
    ("seizingNow as string", #"{"species": "dog", "observations": {"seizingNow": "true"}}"#, "observations.seizingNow"),
    (
        "unknown vomiting value", #"{"species": "dog", "observations": {"vomiting": "sometimes"}}"#,
        "observations.vomiting"
    ),
    (
        "negative fasting", #"{"species": "dog", "observations": {"hoursSinceLastMeal": -3}}"#,
        "observations.hoursSinceLastMeal"
    ),
    ("findings not an array", #"{"species": "dog", "findings": "toxin_ingestion"}"#, "findings"),
    ("unknown finding id", #"{"species": "dog", "findings": ["melena", "toxin_ingestoin"]}"#, "findings[1]"),
    ("finding not a string", #"{"species": "dog", "findings": [7]}"#, "findings[0]"),
    ("complaint not a string", #"{"species": "dog", "complaint": 42}"#, "complaint"),
]

@Suite("Wire format parsing (§9)")
struct ParsingTests {
    @Test("the spec's example parses to the expected case")
    func specExampleParses() throws {
        let parsed = try TriageCase(json: specExample)
        #expect(parsed.species == .dog)
        #expect(parsed.ageWeeks == 16)
        #expect(parsed.sex == .maleNeutered)
        #expect(parsed.vitals.temperature == Temperature(103.5, .fahrenheit))
        #expect(parsed.vitals.glucose == Glucose(5.1, .mmolPerLitre))
        #expect(parsed.observations.respiratoryDistress == .absent)
        #expect(parsed.observations.vomiting == .persistent)
        #expect(parsed.findings == [.toxinIngestion])
        #expect(parsed.complaint == "ate chocolate, vomiting")
    }

    @Test("the spec's example triages orange: toxin ingestion, severe dehydration, 103.5 °F in band 39.0–39.9")
    func specExampleTriages() throws {
        let result = try triage(json: specExample)
        #expect(result.level == .orange)
        #expect(
            result.fired.map(\.id) == [
                .toxinIngestion, .dehydrationSevere, .vomitingPersistent, .mildPainRecent, .temp39_0To39_9,
            ])
        #expect(result.specialties.first?.specialty == .emergencyCriticalCare)
        #expect(result.validatedForSpecies)
    }

    @Test("each bad input is refused with a ValidationError naming the field", arguments: badInputs)
    func badInput(label: String, json: String, field: String) throws {
        let error = try #require(validationError(json), "\(label) was accepted")
        #expect(error.errors.map(\.field).contains(field), "\(label): got \(error.errors)")
        #expect(error.errors.allSatisfy { !$0.message.isEmpty })
    }

    @Test("every bad field is listed at once, in input order")
    func everyErrorListed() throws {
        let json = """
            {"species": "dragon", "vitals": {"heartRate": 0, "mucousMembranes": "blue", "heartrate": 80,
             "temperature": {"value": 60, "unit": "C"}}, "observations": {"pain": "lots"}, "findings": ["nope"], \
            "extra": 1}
            """
        let error = try #require(validationError(json))
        #expect(
            error.errors.map(\.field) == [
                "species", "vitals.heartRate", "vitals.mucousMembranes", "vitals.heartrate", "vitals.temperature.value",
                "observations.pain", "findings[0]", "extra",
            ])
    }

    @Test("typos get a suggestion")
    func suggestions() throws {
        let error = try #require(
            validationError(
                #"""
                {"species": "dog", "vitals": {"heartrate": 80, "mucousMembranes": "pael"}, "findings": \#
                ["toxin_ingestoin"]}
                """#
            ))
        #expect(error.errors[0].message.contains("did you mean 'heartRate'"))
        #expect(error.errors[1].message.contains("did you mean 'pale'"))
        #expect(error.errors[2].message.contains("did you mean 'toxin_ingestion'"))
    }

    @Test("impossible values name the value and the possible range")
    func impossibleValueMessage() throws {
        let error = try #require(
            validationError(#"{"species": "dog", "vitals": {"temperature": {"value": 39, "unit": "F"}}}"#))
        #expect(error.errors.count == 1)
        #expect(error.errors[0].message.contains("39 °F"))
        #expect(error.errors[0].message.contains("15–47 °C"))
    }

    @Test(
        "physical limits are inclusive at their published bounds",
        arguments: [
            #"{"species": "dog", "vitals": {"temperature": {"value": 15, "unit": "C"}}}"#,
            #"{"species": "dog", "vitals": {"temperature": {"value": 47, "unit": "C"}}}"#,
            #"{"species": "dog", "vitals": {"heartRate": 500}}"#,
            #"{"species": "dog", "vitals": {"capillaryRefillSeconds": 0}}"#,
            #"{"species": "dog", "vitals": {"dehydrationPercent": 0}}"#,
            #"{"species": "dog", "vitals": {"dehydrationPercent": 20}}"#,
            #"{"species": "dog", "vitals": {"respiratoryRate": 0}}"#,
        ])
    func limitsAccepted(json: String) {
        #expect(validationError(json) == nil)
    }

    @Test("null means not measured; minimal case parses; unicode and escapes in the complaint survive")
    func nullsAndStrings() throws {
        let parsed = try TriageCase(
            json:
                #"""
                {"species": "cat", "ageWeeks": null, "vitals": {"heartRate": null, "temperature": null}, "complaint": \#
                "Stra\u00dfe \"blocked\"\n\ud83d\udc31"}
                """#
        )
        #expect(parsed.ageWeeks == nil)
        #expect(parsed.vitals == Vitals())
        #expect(parsed.complaint == "Straße \"blocked\"\n🐱")
        #expect(try TriageCase(json: #"{"species":"reptile"}"#) == TriageCase(species: .reptile))
    }

    @Test("every enumeration value of the spec is accepted")
    func enumerationsAccepted() throws {
        for value in MucousMembranes.allCases {
            _ = try TriageCase(json: #"{"species":"dog","vitals":{"mucousMembranes":"\#(value.rawValue)"}}"#)
        }
        for value in Hemorrhage.allCases {
            _ = try TriageCase(json: #"{"species":"dog","observations":{"hemorrhage":"\#(value.rawValue)"}}"#)
        }
        for value in Species.allCases { _ = try TriageCase(json: #"{"species":"\#(value.rawValue)"}"#) }
        #expect(
            MucousMembranes.allCases.map(\.rawValue) == [
                "pink", "pale_pink", "pale", "white", "grey", "cyanotic", "brick_red", "icteric",
            ])
        #expect(
            Hemorrhage.allCases.map(\.rawValue) == [
                "none", "controlled", "uncontrollable_minor", "uncontrollable_major", "exsanguinating",
            ])
        #expect(Grade.allCases.map(\.rawValue) == ["none", "mild", "moderate", "severe"])
        #expect(Vomiting.allCases.map(\.rawValue) == ["none", "occasional", "persistent"])
        #expect(Mentation.allCases.map(\.rawValue) == ["alert", "depressed", "obtunded", "stuporous", "unresponsive"])
        #expect(PulseQuality.allCases.map(\.rawValue) == ["normal", "weak", "absent", "bounding"])
    }

    @Test("a case built in code is validated with validate()")
    func validateInCode() {
        #expect(throws: ValidationError.self) { try dog(Vitals(heartRate: 0)).validate() }
        #expect(throws: ValidationError.self) { try dog(Vitals(temperature: Temperature(.nan, .celsius))).validate() }
        #expect(throws: Never.self) { try dog(Vitals(heartRate: 80)).validate() }
    }
}
