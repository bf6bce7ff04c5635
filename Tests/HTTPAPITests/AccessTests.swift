import Foundation
import HTTPTypes
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("Roles, tenancy and bad input")
struct AccessTests {
    @Test(
        "a receptionist calling an administrator-only endpoint gets 403, and the refusal is audited",
        arguments: ["/api/v1/users", "/api/v1/audit", "/api/v1/audit/verify"])
    func forbidden(uri: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call(uri, token: token) { response in
                #expect(response.status == .forbidden)
                let problem = try Problem(response)
                #expect(problem.status == 403)
            }
        }
        let denied = try await fixture.store.auditEntries(scope: .system(fixture.practiceA.id), limit: 200, before: nil)
            .items.filter { $0.outcome == .denied }
        #expect(denied.count == 1)
        #expect(denied.first?.actorID == fixture.accountsA[.receptionist]!.id.description)
    }

    @Test("a user of practice A asking for practice B's user gets 404, the same as for a missing id")
    func crossTenant() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/users/\(fixture.adminB.id)", token: token) {
                #expect($0.status == .notFound)
            }
            try await client.call("/api/v1/users/\(UUID())", token: token) { #expect($0.status == .notFound) }
            try await client.call(
                "/api/v1/users/\(fixture.adminB.id)", .patch, token: token, json: #"{"role":"receptionist"}"#
            ) {
                #expect($0.status == .notFound)
            }
            try await client.call("/api/v1/users?limit=200", token: token) { response in
                #expect(!String(buffer: response.body).contains("beta.example"))
            }
        }
        let stillAdmin = try await fixture.store.user(scope: .system(fixture.practiceB.id), id: fixture.adminB.id)
        #expect(stillAdmin.role == .administrator)
    }

    @Test("an administrator creates a user; bad fields are 422 naming each field and change nothing")
    func createUser() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/users", .post, token: token,
                json: #"{"email":"not-an-email","displayName":"  ","role":"technician","password":"password123"}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field) ?? []
                // What the document states (the address's form, a visible name) is refused
                // first; the domain's own rules (a common password) on the next attempt.
                #expect(fields == ["displayName", "email"])
            }
            try await client.call(
                "/api/v1/users", .post, token: token,
                json:
                    #"""
                    {"email":"someone@alpha.example","displayName":"Someone","role":"technician",\#
                    "password":"password123"}
                    """#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field) ?? []
                #expect(fields == ["password"])
            }
            try await client.call(
                "/api/v1/users", .post, token: token,
                json:
                    #"""
                    {"email":"new.vet@alpha.example","displayName":"New \#
                    Vet","role":"veterinarian","password":"kestrel-meadow-copper-9"}
                    """#
            ) { response in
                #expect(response.status == .created)
                #expect(response.headers[.eTag] == "\"1\"")
            }
            _ = try await client.login("new.vet@alpha.example", password: "kestrel-meadow-copper-9")
        }
        let page = try await fixture.store.users(scope: .system(fixture.practiceA.id), limit: 200, after: nil)
        #expect(page.items.count == 5)
    }

    @Test(
        "malformed JSON, wrong types, missing fields and unknown roles are 400 naming the field",
        arguments: [
            (#"{"email": "a@b.co", "password": }"#, "body"),
            (#"{"email": 42, "password": "x"}"#, "email"),
            (#"{"password": "x"}"#, "email"),
        ])
    func malformedLogin(json: String, field: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            try await client.call("/api/v1/auth/login", .post, token: nil, json: json) { response in
                #expect(response.status == .badRequest)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field == field)
            }
        }
    }

    @Test("an unknown role value is refused naming the field")
    func unknownRole() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/users/\(fixture.accountsA[.technician]!.id)", .patch, token: token,
                json: #"{"role":"janitor"}"#
            ) { response in
                #expect(response.status == .badRequest)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field == "role")
            }
        }
        #expect(
            try await fixture.store.user(scope: .system(fixture.practiceA.id), id: fixture.accountsA[.technician]!.id)
                .role == .technician)
    }

    @Test("an oversized body is 413 and changes nothing")
    func oversized() async throws {
        let fixture = try await AppFixture.make(maxBodyBytes: 1024)
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            let name = String(repeating: "x", count: 4096)
            try await client.call(
                "/api/v1/users", .post, token: token,
                json:
                    #"""
                    {"email":"big@alpha.example","displayName":"\#(name)","role":"technician",\#
                    "password":"kestrel-meadow-copper-9"}
                    """#
            ) {
                #expect($0.status == .contentTooLarge)
            }
        }
        #expect(try await fixture.store.user(scope: .system(fixture.practiceA.id), email: "big@alpha.example") == nil)
    }

    @Test("a stale If-Match is 412 and changes nothing")
    func staleETag() async throws {
        let fixture = try await AppFixture.make()
        let tech = fixture.accountsA[.technician]!
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/users/\(tech.id)", .patch, token: token, json: #"{"role":"veterinarian"}"#,
                headers: [.ifMatch: "\"1\""]
            ) {
                #expect($0.status == .ok)
                #expect($0.headers[.eTag] == "\"2\"")
            }
            try await client.call(
                "/api/v1/users/\(tech.id)", .patch, token: token, json: #"{"role":"receptionist"}"#,
                headers: [.ifMatch: "\"1\""]
            ) {
                #expect($0.status == .preconditionFailed)
            }
        }
        #expect(try await fixture.store.user(scope: .system(fixture.practiceA.id), id: tech.id).role == .veterinarian)
    }

    @Test("administrators read the audit trail of their own practice and can verify it")
    func auditEndpoints() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/audit?limit=5", token: token) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("auth.login"))
                #expect(!body.contains(fixture.practiceB.id.description))
            }
            try await client.call("/api/v1/audit/verify", token: token) { response in
                #expect(response.status == .ok)
                #expect(
                    String(buffer: response.body).contains("\"intact\":true")
                        || String(buffer: response.body).contains("\"intact\" : true"))
            }
        }
    }

    @Test("an administrator may not disable or demote their own account: 403, audited, nothing changes")
    func noSelfLockout() async throws {
        let fixture = try await AppFixture.make()
        let admin = try #require(fixture.accountsA[.administrator])
        try await fixture.test { client in
            let token = try await client.login(admin.email)
            for json in [#"{"disabled":true}"#, #"{"role":"receptionist"}"#] {
                try await client.call("/api/v1/users/\(admin.id)", .patch, token: token, json: json) {
                    #expect($0.status == .forbidden)
                }
            }
            try await client.call("/api/v1/me", token: token) { #expect($0.status == .ok) }
        }
        let entries = try await fixture.store.auditEntries(
            scope: .system(fixture.practiceA.id), limit: 100, before: nil
        ).items
        #expect(entries.filter { $0.action == "user.update" && $0.outcome == .denied }.count == 2)
    }
}
