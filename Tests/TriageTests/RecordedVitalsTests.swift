import Foundation
import SharedKernel
import Testing
import Triage

@Suite("Vitals recorded with a visit")
struct RecordedVitalsTests {
    @Test("read with the triage case's keys, units and physical limits, every bad field named")
    func limits() {
        let body =
            #"{"chiefComplaint":"x","vitals":{"heartRate":0,"temperature":{"value":104,"unit":"C"},"pulse":"weak"}}"#
        do {
            _ = try RecordedVitals(jsonData: Data(body.utf8), member: "vitals")
            Issue.record("impossible vitals were accepted")
        } catch {
            #expect(Set(error.errors.map(\.field)) == ["vitals.heartRate", "vitals.temperature.value", "vitals.pulse"])
        }
    }

    @Test("kept in their wire form and read back the same; absent or null is no vitals")
    func roundTrip() throws {
        let body =
            #"{"vitals":{"heartRate":96,"temperature":{"value":38.6,"unit":"C"},"mucousMembranes":"pink","spo2":97.5}}"#
        let recorded = try #require(try RecordedVitals(jsonData: Data(body.utf8), member: "vitals"))
        #expect(recorded.vitals.heartRate == 96)
        #expect(recorded.vitals.temperature?.celsius == 38.6)
        #expect(
            recorded.json
                == #"{"heartRate":96,"temperature":{"value":38.6,"unit":"C"},"mucousMembranes":"pink","spo2":97.5}"#)
        #expect(try RecordedVitals(json: recorded.json) == recorded)
        #expect(try RecordedVitals(jsonData: Data(#"{"vitals":null}"#.utf8), member: "vitals") == nil)
        #expect(try RecordedVitals(jsonData: Data(#"{"chiefComplaint":"x"}"#.utf8), member: "vitals") == nil)
    }
}
