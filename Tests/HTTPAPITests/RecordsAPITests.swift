import Foundation
import HTTPTypes
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI

@Suite("Owners and patients over HTTP")
struct RecordsAPITests {
    static let ownerJSON =
        #"""
        {"firstName":"Zoë","lastName":"Ångström","email":"zoe@example.com","phones":[{"label":"mobile",\#
        "number":"07700 900123"}]}
        """#

    static func createOwner(_ client: any TestClientProtocol, token: String, json: String = ownerJSON) async throws
        -> String
    {
        try await client.call("/api/v1/owners", .post, token: token, json: json) { response in
            #expect(response.status == .created)
            return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
        }
    }

    @Test("create, read and search: prefix, case- and accent-insensitive, by owner, phone, record number and microchip")
    func search() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let owner = try await Self.createOwner(client, token: token)
            let patientID = try await client.call(
                "/api/v1/patients", .post, token: token,
                json:
                    #"""
                    {"name":"Bélla","species":"dog","breed":"Whippet","microchip":"826012345678901",\#
                    "ownerId":"\#(owner)","birthDate":"2019-05-04","alerts":["bites"]}
                    """#
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[.eTag] == "\"1\"")
                let body = try JSONDecoder().decode(PatientBody.self, from: Data(buffer: response.body))
                #expect(body.medicalRecordNumber == "P-000001")
                return body.id
            }
            _ = try await client.call(
                "/api/v1/patients", .post, token: token, json: #"{"name":"Tom","species":"cat","ownerId":"\#(owner)"}"#
            ) { $0.status }
            for query in [
                "bel", "BELLA", "zoe", "angs", "07700", "900123", "P-000001", "000001", "826012345678901", "zoe bel",
            ] {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
                try await client.call("/api/v1/patients?q=\(encoded)&species=dog", token: token) { response in
                    #expect(response.status == .ok)
                    let page = try JSONDecoder().decode(SearchBody.self, from: Data(buffer: response.body))
                    #expect(page.items.map(\.patient.id) == [patientID], "query \(query)")
                }
            }
            try await client.call("/api/v1/patients?q=zzz", token: token) { response in
                let page = try JSONDecoder().decode(SearchBody.self, from: Data(buffer: response.body))
                #expect(page.items.isEmpty)
            }
            try await client.call("/api/v1/patients?q=zoe&limit=1", token: token) { response in
                let page = try JSONDecoder().decode(SearchBody.self, from: Data(buffer: response.body))
                #expect(page.items.map(\.patient.name) == ["Bélla"])
                #expect(page.nextCursor != nil)
            }
            try await client.call("/api/v1/patients/\(patientID)", token: token) { #expect($0.status == .ok) }
        }
        let audit = try await fixture.store.auditEntries(scope: .system(fixture.practiceA.id), limit: 200, before: nil)
            .items
        #expect(audit.contains { $0.action == "patient.read" })
        #expect(audit.contains { $0.action == "patient.search" })
        #expect(!audit.contains { ($0.detail ?? "").contains("zoe") })
    }

    @Test("replaying a create with the same Idempotency-Key 1,000 times creates one patient")
    func idempotency() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let owner = try await Self.createOwner(client, token: token)
            let json = #"{"name":"Rex","species":"dog","ownerId":"\#(owner)"}"#
            var ids = Set<String>()
            for _ in 0..<1000 {
                ids.insert(
                    try await client.call(
                        "/api/v1/patients", .post, token: token, json: json,
                        headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
                    ) { response in
                        #expect(response.status == .created)
                        return try JSONDecoder().decode(IDBody.self, from: Data(buffer: response.body)).id
                    })
            }
            #expect(ids.count == 1)
            try await client.call(
                "/api/v1/patients", .post, token: token,
                json: #"{"name":"Other","species":"dog","ownerId":"\#(owner)"}"#,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            ) { #expect($0.status == .conflict) }
        }
        #expect(try await fixture.store.patientCount(scope: .system(fixture.practiceA.id)) == 1)
    }

    @Test("a stale If-Match is 412; a current one updates; archiving keeps the record")
    func concurrency() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            let owner = try await Self.createOwner(client, token: token)
            let id = try await client.call(
                "/api/v1/patients", .post, token: token, json: #"{"name":"Rex","species":"dog","ownerId":"\#(owner)"}"#
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            try await client.call(
                "/api/v1/patients/\(id)", .put, token: token,
                json: #"{"name":"Rexy","species":"dog","ownerId":"\#(owner)"}"#,
                headers: [.ifMatch: "\"1\""]
            ) { #expect($0.status == .ok) }
            try await client.call(
                "/api/v1/patients/\(id)", .put, token: token,
                json: #"{"name":"Stale","species":"dog","ownerId":"\#(owner)"}"#,
                headers: [.ifMatch: "\"1\""]
            ) { #expect($0.status == .preconditionFailed) }
            try await client.call(
                "/api/v1/patients/\(id)", .put, token: token,
                json: #"{"name":"Rexy","species":"dog","status":"archived","ownerId":"\#(owner)"}"#,
                headers: [.ifMatch: "\"2\""]
            ) {
                #expect($0.status == .ok)
            }
            try await client.call("/api/v1/patients?status=archived", token: token) { response in
                let page = try JSONDecoder().decode(SearchBody.self, from: Data(buffer: response.body))
                #expect(page.items.map(\.patient.name) == ["Rexy"])
            }
        }
    }

    @Test(
        "impossible input is refused naming the field and stores nothing",
        arguments: [
            (#""birthDate":"2999-01-01""#, "birthDate", 422),
            (#""birthDate":"2021-02-30""#, "birthDate", 422),
            (#""microchip":"12345""#, "microchip", 422),
            (#""species":"dragon""#, "species", 400),
            (#""name":"""#, "name", 422),
        ])
    func badPatient(fragment: String, field: String, status: Int) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("technician@alpha.example")
            let owner = try await Self.createOwner(client, token: token)
            var fields = ["\"name\":\"Rex\"", "\"species\":\"dog\"", "\"ownerId\":\"\(owner)\""]
            let key = String(fragment.split(separator: ":")[0])
            fields.removeAll { $0.hasPrefix(key) }
            fields.append(fragment)
            try await client.call(
                "/api/v1/patients", .post, token: token, json: "{" + fields.joined(separator: ",") + "}"
            ) { response in
                #expect(response.status.code == status)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field).contains(field) == true)
            }
        }
        #expect(try await fixture.store.patientCount(scope: .system(fixture.practiceA.id)) == 0)
    }

    @Test("practice B's owners and patients are 404 and never appear in practice A's search")
    func tenancy() async throws {
        let fixture = try await AppFixture.make()
        let ownerB = try await fixture.store.createOwner(
            Owner(firstName: "Bert", lastName: "Beta"), scope: .system(fixture.practiceB.id))
        let patientB = try await fixture.store.createPatient(
            Patient(name: "Betty", species: .cat, ownerID: ownerB.id), scope: .system(fixture.practiceB.id))
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call("/api/v1/owners/\(ownerB.id)", token: token) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/patients/\(patientB.id)", token: token) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/patients?q=betty", token: token) { response in
                let page = try JSONDecoder().decode(SearchBody.self, from: Data(buffer: response.body))
                #expect(page.items.isEmpty)
            }
            try await client.call(
                "/api/v1/patients", .post, token: token,
                json: #"{"name":"Sneaky","species":"dog","ownerId":"\#(ownerB.id)"}"#
            ) {
                #expect($0.status == .notFound)
            }
        }
    }
}

struct IDBody: Decodable { let id: String }
struct PatientBody: Decodable {
    let id: String
    let name: String
    let medicalRecordNumber: String
}
struct SearchBody: Decodable {
    struct Item: Decodable {
        let patient: PatientBody
        let ownerName: String
    }
    let items: [Item]
    let nextCursor: String?
}
