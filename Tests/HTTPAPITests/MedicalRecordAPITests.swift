import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI

@Suite("The medical record over HTTP")
struct MedicalRecordAPITests {
    static func patient(_ fixture: AppFixture, birth: String = "2020-01-15") async throws -> Patient {
        let scope = AccessScope.system(fixture.practiceA.id)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        return try await fixture.store.createPatient(
            Patient(name: "Rex", species: .dog, birthDate: RecordCalendar.date(fromISODay: birth), ownerID: owner.id),
            scope: scope)
    }

    @Test("weights convert exactly, doses follow the latest weight, and a missing weight refuses the dose")
    func weightsAndDoses() async throws {
        let fixture = try await AppFixture.make()
        let rex = try await Self.patient(fixture)
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let medicationID = try await client.call(
                "/api/v1/patients/\(rex.id)/medications", .post, token: token,
                json:
                    #"""
                    {"drug":"Meloxicam","concentrationMgPerML":1.5,"doseMgPerKg":0.1,"route":"oral","frequency":"once \#
                    daily","startDate":"2026-01-01"}
                    """#
            ) { response in
                #expect(response.status == .created)
                return try JSONDecoder().decode(RecordBody.self, from: Data(buffer: response.body)).medications[0].id
            }
            try await client.call("/api/v1/patients/\(rex.id)/medications/\(medicationID)/dose", token: token) {
                response in
                // The request is sound; the record has no weight yet: a conflict with its state.
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(problem.detail?.contains("No weight recorded") == true)
            }
            try await client.call(
                "/api/v1/patients/\(rex.id)/weights", .post, token: token, json: #"{"value":33,"unit":"lb"}"#
            ) { response in
                #expect(response.status == .created)
                let record = try JSONDecoder().decode(RecordBody.self, from: Data(buffer: response.body))
                #expect(record.latestWeight?.grams == 14969) // 33 lb = 14 968.548 g
            }
            try await client.call("/api/v1/patients/\(rex.id)/medications/\(medicationID)/dose", token: token) {
                response in
                #expect(response.status == .ok)
                let dose = try JSONDecoder().decode(DoseBody.self, from: Data(buffer: response.body))
                #expect(abs(dose.doseMg - 1.497) < 0.0005)
                #expect(abs(dose.volumeML - 0.998) < 0.0005)
            }
            try await client.call(
                "/api/v1/patients/\(rex.id)/weights", .post, token: token, json: #"{"value":400,"unit":"kg"}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field == "value")
            }
        }
    }

    @Test("notes are stored encrypted, never edited, and corrected by addenda shown in order")
    func notes() async throws {
        let fixture = try await AppFixture.make()
        let rex = try await Self.patient(fixture)
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let noteID = try await client.call(
                "/api/v1/patients/\(rex.id)/notes", .post, token: token,
                json:
                    #"""
                    {"subjective":"Limping left hind","objective":"Drawer sign positive","assessment":"Cruciate \#
                    rupture","plan":"TPLO referral"}
                    """#
            ) { response in
                #expect(response.status == .created)
                return try JSONDecoder().decode(RecordBody.self, from: Data(buffer: response.body)).notes[0].id
            }
            try await client.call(
                "/api/v1/patients/\(rex.id)/notes/\(noteID)/addenda", .post, token: token,
                json: #"{"text":"Correction: right hind, not left."}"#
            ) { response in
                #expect(response.status == .created)
                let record = try JSONDecoder().decode(RecordBody.self, from: Data(buffer: response.body))
                #expect(record.notes[0].subjective == "Limping left hind")
                #expect(record.notes[0].addenda.map(\.text) == ["Correction: right hind, not left."])
            }
            let receptionist = try await client.login("receptionist@alpha.example")
            try await client.call(
                "/api/v1/patients/\(rex.id)/notes", .post, token: receptionist, json: #"{"plan":"x"}"#
            ) { #expect($0.status == .forbidden) }
        }
        let raw = try await fixture.store.writer.read { db in
            try Data.fetchAll(db, sql: "SELECT sealed_text FROM clinical_note")
        }
        #expect(raw.count == 1)
        #expect(!String(decoding: raw[0], as: UTF8.self).contains("Cruciate"))
        await #expect(throws: DatabaseError.self) {
            try await fixture.store.writer.write { db in
                try db.execute(sql: "UPDATE clinical_note SET author_name = 'x'")
            }
        }
        await #expect(throws: DatabaseError.self) {
            try await fixture.store.writer.write { db in try db.execute(sql: "DELETE FROM clinical_note") }
        }
    }

    @Test(
        "impossible dates are refused naming the field",
        arguments: [
            ("vaccinations", #"{"vaccine":"DHPPi","administeredDate":"2019-06-01"}"#, "administeredDate"),
            (
                "vaccinations", #"{"vaccine":"DHPPi","administeredDate":"2025-06-01","nextDueDate":"2025-05-01"}"#,
                "nextDueDate"
            ),
            ("vaccinations", #"{"vaccine":"DHPPi","administeredDate":"2025-13-01"}"#, "administeredDate"),
            (
                "problems",
                #"{"name":"Otitis","status":"resolved","onsetDate":"2025-06-01","resolvedDate":"2025-05-01"}"#,
                "resolvedDate"
            ),
        ])
    func impossibleDates(resource: String, json: String, field: String) async throws {
        let fixture = try await AppFixture.make()
        let rex = try await Self.patient(fixture)
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call("/api/v1/patients/\(rex.id)/\(resource)", .post, token: token, json: json) {
                response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field).contains(field) == true)
            }
            try await client.call("/api/v1/patients/\(rex.id)/record", token: token) { response in
                let record = try JSONDecoder().decode(RecordBody.self, from: Data(buffer: response.body))
                #expect(record.vaccinations.isEmpty)
            }
        }
    }

    @Test(
        """
        the practice-wide list shows due and overdue vaccinations; reading a record is audited; other practices get 404
        """
    )
    func dueListAndAudit() async throws {
        let fixture = try await AppFixture.make()
        let rex = try await Self.patient(fixture)
        let today = RecordCalendar.isoDay(Date())
        let inTenDays = RecordCalendar.isoDay(Date().addingTimeInterval(10 * 86_400))
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            try await client.call(
                "/api/v1/patients/\(rex.id)/vaccinations", .post, token: token,
                json: #"{"vaccine":"Rabies","administeredDate":"2023-01-10","nextDueDate":"2024-01-10"}"#
            ) { #expect($0.status == .created) }
            try await client.call(
                "/api/v1/patients/\(rex.id)/vaccinations", .post, token: token,
                json: #"{"vaccine":"Leptospirosis","administeredDate":"\#(today)","nextDueDate":"\#(inTenDays)"}"#
            ) { #expect($0.status == .created) }
            try await client.call("/api/v1/vaccinations/due?withinDays=30", token: token) { response in
                let due = try JSONDecoder().decode(DueBody.self, from: Data(buffer: response.body))
                #expect(due.overdue.map(\.vaccine) == ["Rabies"])
                #expect(due.dueSoon.map(\.vaccine) == ["Leptospirosis"])
                #expect(due.overdue.first?.patientName == "Rex")
            }
            let admin = try await client.login("admin@beta.example")
            try await client.call("/api/v1/patients/\(rex.id)/record", token: admin) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/vaccinations/due", token: admin) { response in
                let due = try JSONDecoder().decode(DueBody.self, from: Data(buffer: response.body))
                #expect(due.overdue.isEmpty && due.dueSoon.isEmpty)
            }
            try await client.call("/api/v1/patients/\(rex.id)/record", token: token) { #expect($0.status == .ok) }
        }
        let audit = try await fixture.store.auditEntries(scope: .system(fixture.practiceA.id), limit: 200, before: nil)
            .items
        #expect(audit.contains { $0.action == "record.read" && $0.resourceID == rex.id.description })
        #expect(audit.contains { $0.action == "record.vaccination.add" })
    }
}

struct RecordBody: Decodable {
    struct Item: Decodable { let id: String }
    struct Weight: Decodable { let grams: Int }
    struct Note: Decodable {
        struct Addendum: Decodable { let text: String }
        let id: String
        let subjective: String
        let addenda: [Addendum]
    }
    struct Vaccine: Decodable { let vaccine: String }
    let latestWeight: Weight?
    let medications: [Item]
    let notes: [Note]
    let vaccinations: [Vaccine]
}
struct DoseBody: Decodable {
    let doseMg: Double
    let volumeML: Double
}
struct DueBody: Decodable {
    struct Item: Decodable {
        let vaccine: String
        let patientName: String?
    }
    let dueSoon: [Item]
    let overdue: [Item]
}

@Suite("Retried record writes")
struct RecordRetryTests {
    @Test("a weight posted again with the same Idempotency-Key is recorded once")
    func idempotentWeight() async throws {
        let fixture = try await AppFixture.make()
        let rex = try await MedicalRecordAPITests.patient(fixture)
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            for _ in 0..<5 {
                try await client.call(
                    "/api/v1/patients/\(rex.id)/weights", .post, token: token, json: #"{"value":12.5,"unit":"kg"}"#,
                    headers: [HTTPField.Name("Idempotency-Key")!: "scale-reading-1"]
                ) { #expect($0.status == .created) }
            }
            try await client.call("/api/v1/patients/\(rex.id)/record", token: token) { response in
                let body = String(buffer: response.body)
                #expect(body.components(separatedBy: "\"grams\"").count - 1 == 2) // the weight and latestWeight
            }
        }
    }
}
