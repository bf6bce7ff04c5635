import Foundation
import SharedKernel
import Testing

@testable import Triage

/// The catalogue restated from spec §3, row by row, with the five §4.4 safety-net rows at the
/// end of their level's block: the oracle the data must match.
/// (id, level, subcategory, ABCDE letter or "-")
let specTable: [(String, Int, String, String)] = [
    ("resp_distress_severe", 1, "respiratory", "B"), ("shock_decompensated", 1, "circulatory", "C"),
    ("exsanguinating_hemorrhage", 1, "circulatory", "C"), ("seizing_now", 1, "neurological", "D"),
    ("unresponsive", 1, "neurological", "D"), ("rapid_abdominal_distension", 1, "gastrointestinal", "C"),
    ("hypoglycemia", 1, "generalised", "E"), ("temp_ge_41", 1, "generalised", "E"),
    ("temp_le_36_7", 1, "generalised", "E"),
    ("cyanosis", 1, "respiratory", "B"), // §4.4
    ("resp_distress_moderate", 2, "respiratory", "B"), ("acute_stridor", 2, "respiratory", "A"),
    ("subcutaneous_emphysema", 2, "respiratory", "A"), ("uncontrollable_major_hemorrhage", 2, "circulatory", "C"),
    ("arterial_thromboembolism", 2, "circulatory", "C"), ("pale_membranes_no_shock", 2, "circulatory", "C"),
    ("abdominal_fluid_thrill", 2, "circulatory", "C"), ("altered_consciousness", 2, "neurological", "D"),
    ("acute_abnormal_behaviour", 2, "neurological", "D"), ("acute_continuous_vocalisation", 2, "neurological", "D"),
    ("cluster_seizures", 2, "neurological", "D"), ("acute_blindness", 2, "neurological", "D"),
    ("evisceration", 2, "trauma", "E"), ("envenomation_high", 2, "trauma", "E"), ("proptosis", 2, "trauma", "E"),
    ("ocular_injury_penetrating", 2, "trauma", "E"), ("toxin_ingestion", 2, "gastrointestinal", "-"),
    ("foreign_body_with_signs", 2, "gastrointestinal", "-"), ("testicular_swelling_acute", 2, "urogenital", "-"),
    ("urethral_obstruction", 2, "urogenital", "-"), ("petechiae_ecchymoses", 2, "generalised", "C"),
    ("hyperglycemia_ketosis", 2, "generalised", "E"), ("pain_severe", 2, "generalised", "-"),
    ("generalised_weakness", 2, "generalised", "D"), ("dehydration_severe", 2, "generalised", "C"),
    ("temp_40_5_to_40_9", 2, "generalised", "E"), ("dystocia", 2, "obstetric", "-"),
    ("spo2_very_low", 2, "respiratory", "B"), ("abnormal_pulse", 2, "circulatory", "C"),
    ("hypotension", 2, "circulatory", "C"), // §4.4
    ("rabbit_hypothermia_severe", 2, "generalised", "E"), // §4.5
    ("resp_distress_mild", 3, "respiratory", "B"), ("uncontrollable_minor_hemorrhage", 3, "circulatory", "C"),
    ("acute_neuro_deficit", 3, "neurological", "D"), ("head_tilt", 3, "neurological", "D"),
    ("history_unconsciousness", 3, "neurological", "D"), ("envenomation_moderate", 3, "trauma", "E"),
    ("oral_stick_injury", 3, "trauma", "A"), ("open_fracture_deformity", 3, "trauma", "E"),
    ("skin_wound_large", 3, "trauma", "E"), ("foreign_body_possible", 3, "gastrointestinal", "-"),
    ("vomiting_persistent", 3, "gastrointestinal", "-"), ("melena", 3, "gastrointestinal", "-"),
    ("hematuria_no_stranguria", 3, "urogenital", "-"), ("ventroflexion_neck", 3, "generalised", "D"),
    ("facial_edema", 3, "generalised", "A"), ("pain_moderate", 3, "generalised", "-"),
    ("dehydration_moderate", 3, "generalised", "C"), ("pruritus_severe", 3, "generalised", "E"),
    ("anorexia_neonate", 3, "generalised", "-"), ("temp_40_0_to_40_4", 3, "generalised", "E"),
    ("spo2_low", 3, "respiratory", "B"), // §4.4
    ("rabbit_hypothermia", 3, "generalised", "E"), // §4.5
    ("local_inflammation", 4, "generalised", "E"), ("stranguria_tenesmus", 4, "generalised", "-"),
    ("vomiting", 4, "generalised", "-"), ("mild_pain_recent", 4, "generalised", "-"),
    ("pruritus_recent", 4, "generalised", "E"), ("seizure_recent_isolated", 4, "generalised", "D"),
    ("swelling", 4, "generalised", "E"), ("temp_39_0_to_39_9", 4, "generalised", "E"),
]

/// Ids the spec marks "derived" (§3), the §4.4 safety net and the §4.5 rabbit rules, derived from measured vitals.
let specDerived: Set<String> = [
    "shock_decompensated", "hypoglycemia", "temp_ge_41", "temp_le_36_7", "pale_membranes_no_shock",
    "altered_consciousness",
    "cluster_seizures", "hyperglycemia_ketosis", "dehydration_severe", "temp_40_5_to_40_9", "vomiting_persistent",
    "dehydration_moderate", "anorexia_neonate", "temp_40_0_to_40_4", "vomiting", "mild_pain_recent",
    "seizure_recent_isolated", "temp_39_0_to_39_9",
    "cyanosis", "spo2_very_low", "spo2_low", "abnormal_pulse", "hypotension",
    "rabbit_hypothermia_severe", "rabbit_hypothermia",
]

@Suite("Discriminator catalogue")
struct CatalogueTests {
    @Test("the catalogue holds exactly the spec's 71 ids (64 of §3, 5 of §4.4, 2 of §4.5), each once, in table order")
    func catalogueMatchesSpecIds() {
        #expect(DiscriminatorCatalogue.all.map(\.id.rawValue) == specTable.map(\.0))
        #expect(Set(DiscriminatorCatalogue.all.map(\.id)).count == DiscriminatorID.allCases.count)
        #expect(DiscriminatorID.allCases.map(\.rawValue) == specTable.map(\.0))
    }

    @Test("each entry has the spec's level, subcategory and ABCDE letter", arguments: specTable)
    func entryMatchesSpec(row: (String, Int, String, String)) throws {
        let entry = try #require(DiscriminatorCatalogue.entry(wireID: row.0))
        #expect(entry.level.rawValue == row.1)
        #expect(entry.subcategory.rawValue == row.2)
        #expect((entry.abcde?.rawValue ?? "-") == row.3)
        #expect(!entry.definition.isEmpty)
        #expect(!entry.routing.isEmpty)
        if specDerived.contains(row.0) { #expect(entry.derivation == .derived) }
    }

    @Test(
        "asserting an id alone fires it, sets its level and reports it with the assertion as evidence",
        arguments: DiscriminatorID.allCases)
    func assertedFindingFires(id: DiscriminatorID) throws {
        let result = try triage(json: #"{"species": "dog", "onsetHoursAgo": 1000, "findings": ["\#(id.rawValue)"]}"#)
        let firing = try #require(result.firing(id))
        #expect(result.level == id.discriminator.level)
        #expect(firing.evidence.contains(Evidence(field: "findings", value: id.rawValue + " (asserted)")))
        // An asserted discriminator is never lost to the blue fall-through of an old problem.
        #expect(result.fallThrough == nil)
    }

    @Test("project choices are labelled as such")
    func projectChoicesLabelled() {
        #expect(DiscriminatorID.dystocia.discriminator.source == .projectChoice)
        #expect(DiscriminatorID.urethralObstruction.discriminator.source == .projectChoice)
        #expect(DiscriminatorID.shockDecompensated.discriminator.source == .projectChoice)
        // The §4.4 safety net is the project's rule set (vetnet-1.1.0), compiled from the VTL, MTS and ATT.
        for id in [DiscriminatorID.cyanosis, .spo2VeryLow, .spo2Low, .abnormalPulse, .hypotension] {
            #expect(id.discriminator.source == .projectChoice)
        }
        #expect(DiscriminatorID.toxinIngestion.discriminator.source == .vtl)
    }

    @Test("level metadata: colours, names and maximum waits of spec §1")
    func levelTable() {
        let table = TriageLevel.allCases.map { "\($0.rawValue) \($0.colour) \($0.name) \($0.maxWaitMinutes)" }
        #expect(
            table == [
                "1 red immediate 0", "2 orange very urgent 15", "3 yellow urgent 60", "4 green standard 120",
                "5 blue non-urgent 240",
            ])
    }
}
