import Foundation
import HTTPTypes
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StoragePorts
import Testing

@testable import HTTPAPI

/// A record that can be corrected without deleting anything: medicines stopped and re-dosed,
/// problems resolved and reopened, entries marked as entered in error.
@Suite("Correcting the medical record")
struct RecordCorrectionAPITests {
    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func ids(_ record: [String: Any], _ list: String) -> [String] {
        ((record[list] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test(
        """
        a stopped medicine is not dosed; a changed dose is a new version that is; a weight in error leaves the dose \
        and the chart but stays in the record
        """
    )
    func medicinesAndWeights() async throws {
        let fixture = try await AppFixture.make()
        let rex = try await MedicalRecordAPITests.patient(fixture)
        let base = "/api/v1/patients/\(rex.id)"
        let today = RecordCalendar.isoDay(Date())
        try await fixture.test { client in
            let vet = try await client.login("veterinarian@alpha.example")
            let post = { (path: String, json: String) async throws -> (HTTPResponse.Status, Data) in
                try await client.call(base + path, .post, token: vet, json: json) { ($0.status, Data(buffer: $0.body)) }
            }
            _ = try await post("/weights", #"{"value":20,"unit":"kg"}"#)
            let (_, withWrong) = try await post("/weights", #"{"value":2,"unit":"kg"}"#)
            let wrongWeight = try #require(Self.ids(try Self.object(withWrong), "weights").last)
            let (_, prescribed) = try await post(
                "/medications",
                #"""
                {"drug":"Meloxicam","concentrationMgPerML":1.5,"doseMgPerKg":0.1,"route":"oral","frequency":"once \#
                daily","startDate":"2026-01-01"}
                """#
            )
            let meloxicam = try #require(Self.ids(try Self.object(prescribed), "medications").first)

            // The mistyped weight (2 kg instead of 20) is marked: the dose goes back to 20 kg.
            var (status, body) = try await post(
                "/corrections",
                #"""
                {"entryType":"weight","entryId":"\#(wrongWeight)","action":"enteredInError","reason":"typed 2 for 20"}
                """#
            )
            #expect(status == .created, "\(String(decoding: body, as: UTF8.self))")
            var record = try Self.object(body)
            #expect(!Self.ids(record, "weights").contains(wrongWeight))
            #expect((record["latestWeight"] as? [String: Any])?["grams"] as? Int == 20_000)
            let retracted = try #require((record["retracted"] as? [[String: Any]])?.first)
            #expect(
                retracted["entryId"] as? String == wrongWeight && retracted["kind"] as? String == "entered_in_error")
            #expect(retracted["reason"] as? String == "typed 2 for 20")
            let dose = try await client.call(base + "/medications/\(meloxicam)/dose", token: vet) {
                Data(buffer: $0.body)
            }
            #expect(abs((try Self.object(dose)["doseMg"] as? Double ?? 0) - 2.0) < 0.001)
            // Marked twice: the entry no longer counts, so there is nothing to mark.
            (status, _) = try await post(
                "/corrections",
                #"{"entryType":"weight","entryId":"\#(wrongWeight)","action":"enteredInError","reason":"again"}"#)
            #expect(status == .notFound)

            // A new dose from today: the course so far ends, a new version starts and is the one dosed.
            (status, body) = try await post(
                "/corrections",
                #"""
                {"entryType":"medication","entryId":"\#(meloxicam)","action":"change","date":"\#(today)",\#
                "doseMgPerKg":0.05}
                """#
            )
            #expect(status == .created, "\(String(decoding: body, as: UTF8.self))")
            record = try Self.object(body)
            let medications = try #require(record["medications"] as? [[String: Any]])
            #expect(medications.count == 2)
            #expect(medications.first { $0["id"] as? String == meloxicam }?["endDate"] as? String == today)
            let newVersion = try #require(medications.first { $0["id"] as? String != meloxicam }?["id"] as? String)
            try await client.call(base + "/medications/\(meloxicam)/dose", token: vet) {
                #expect($0.status == .conflict)
            }
            let newDose = try await client.call(base + "/medications/\(newVersion)/dose", token: vet) {
                Data(buffer: $0.body)
            }
            #expect(abs((try Self.object(newDose)["doseMg"] as? Double ?? 0) - 1.0) < 0.001)
            // Stopped today with a reason: no longer dosed; stopping it again is a conflict with its state.
            (status, body) = try await post(
                "/corrections",
                #"""
                {"entryType":"medication","entryId":"\#(newVersion)","action":"stop","date":"\#(today)","reason":"GI \#
                upset"}
                """#
            )
            #expect(status == .created, "\(String(decoding: body, as: UTF8.self))")
            try await client.call(base + "/medications/\(newVersion)/dose", token: vet) {
                #expect($0.status == .conflict)
            }
            (status, _) = try await post(
                "/corrections",
                #"""
                {"entryType":"medication","entryId":"\#(newVersion)","action":"stop","date":"\#(today)","reason":"x"}
                """#
            )
            #expect(status == .conflict)
            // A stop without a reason is refused naming it, and changes nothing.
            (status, body) = try await post(
                "/corrections",
                #"""
                {"entryType":"weight","entryId":"\#(Self.ids(record, "weights")[0])","action":"enteredInError",\#
                "reason":"  "}
                """#
            )
            #expect(status == .unprocessableContent)
            #expect(String(decoding: body, as: UTF8.self).contains(#""field":"reason""#))
            (status, _) = try await post(
                "/corrections",
                #"{"entryType":"weight","entryId":"\#(Self.ids(record, "weights")[0])","action":"resolve"}"#)
            #expect(status == .unprocessableContent)
            record = try Self.object(try await client.call(base + "/record", token: vet) { Data(buffer: $0.body) })
            #expect(
                (record["corrections"] as? [[String: Any]])?.map { $0["action"] as? String } == [
                    "entered_in_error", "change", "stop",
                ])
        }
        // Audited and published; nothing was deleted from the store.
        let scope = AccessScope.system(fixture.practiceA.id)
        let audit = try await fixture.store.auditEntries(scope: scope, limit: 200, before: nil).items
        #expect(audit.filter { $0.action == AuditAction.recordCorrect.name }.count == 3)
        let events = try await fixture.store.events(practiceID: fixture.practiceA.id, after: 0, limit: 200).events
        #expect(events.filter { $0.kind == RecordEventKind.entryCorrected }.count == 3)
    }

    @Test(
        """
        problems resolve and reopen; a refuted allergy is kept but no longer listed; a vaccination in error leaves \
        the due list
        """
    )
    func problemsAllergiesVaccinations() async throws {
        let fixture = try await AppFixture.make()
        let rex = try await MedicalRecordAPITests.patient(fixture)
        let base = "/api/v1/patients/\(rex.id)"
        let today = RecordCalendar.isoDay(Date())
        try await fixture.test { client in
            let vet = try await client.login("veterinarian@alpha.example")
            let post = { (path: String, json: String) async throws -> (HTTPResponse.Status, Data) in
                try await client.call(base + path, .post, token: vet, json: json) { ($0.status, Data(buffer: $0.body)) }
            }
            let problem = try #require(
                Self.ids(
                    try Self.object(
                        try await post("/problems", #"{"name":"Otitis externa","onsetDate":"2026-01-03"}"#).1),
                    "problems"
                ).first)
            var (status, body) = try await post(
                "/corrections",
                #"""
                {"entryType":"problem","entryId":"\#(problem)","action":"resolve","date":"\#(today)","note":"ears \#
                clean"}
                """#
            )
            #expect(status == .created)
            #expect((try Self.object(body)["problems"] as? [[String: Any]])?.first?["status"] as? String == "resolved")
            (status, _) = try await post(
                "/corrections",
                #"{"entryType":"problem","entryId":"\#(problem)","action":"resolve","date":"\#(today)"}"#)
            #expect(status == .conflict)
            (status, body) = try await post(
                "/corrections",
                #"{"entryType":"problem","entryId":"\#(problem)","action":"reopen","note":"itching again"}"#)
            #expect((try Self.object(body)["problems"] as? [[String: Any]])?.first?["status"] as? String == "active")

            let allergy = try #require(
                Self.ids(
                    try Self.object(try await post("/allergies", #"{"substance":"Penicillin","severity":"severe"}"#).1),
                    "allergies"
                ).first)
            (status, body) = try await post(
                "/corrections",
                #"""
                {"entryType":"allergy","entryId":"\#(allergy)","action":"refute","reason":"tolerated amoxicillin \#
                course"}
                """#
            )
            var record = try Self.object(body)
            #expect(Self.ids(record, "allergies").isEmpty)
            #expect((record["retracted"] as? [[String: Any]])?.first?["kind"] as? String == "refuted")

            let technician = try await client.login("technician@alpha.example")
            let overdue = try await client.call(
                base + "/vaccinations", .post, token: technician,
                json: #"{"vaccine":"Rabies","administeredDate":"2023-01-10","nextDueDate":"2024-01-10"}"#
            ) { Data(buffer: $0.body) }
            let rabies = try #require(Self.ids(try Self.object(overdue), "vaccinations").first)
            var due = try await client.call("/api/v1/vaccinations/due", token: technician) { Data(buffer: $0.body) }
            #expect(try JSONDecoder().decode(DueBody.self, from: due).overdue.map(\.vaccine) == ["Rabies"])
            // Reception corrects reception's entries but not clinical ones.
            let reception = try await client.login("receptionist@alpha.example")
            try await client.call(
                base + "/corrections", .post, token: reception,
                json: #"{"entryType":"problem","entryId":"\#(problem)","action":"resolve","date":"\#(today)"}"#
            ) { #expect($0.status == .forbidden) }
            try await client.call(
                base + "/corrections", .post, token: reception,
                json:
                    #"""
                    {"entryType":"vaccination","entryId":"\#(rabies)","action":"enteredInError","reason":"another \#
                    dog's card"}
                    """#
            ) {
                #expect($0.status == .created)
            }
            due = try await client.call("/api/v1/vaccinations/due", token: technician) { Data(buffer: $0.body) }
            #expect(try JSONDecoder().decode(DueBody.self, from: due).overdue.isEmpty)
            record = try Self.object(try await client.call(base + "/record", token: vet) { Data(buffer: $0.body) })
            #expect((record["retracted"] as? [[String: Any]])?.count == 2)
        }
    }
}
