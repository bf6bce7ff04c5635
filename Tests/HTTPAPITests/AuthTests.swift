import Foundation
import HTTPTypes
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("Sign-in and sessions")
struct AuthTests {
    @Test("health answers without a session; the API does not")
    func health() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            try await client.call("/health", token: nil) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"ok\""))
                #expect(response.headers[HTTPField.Name("X-Request-Id")!] != nil)
            }
            try await client.call("/ready", token: nil) { #expect($0.status == .ok) }
            try await client.call("/api/v1/me", token: nil) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/problem+json")
            }
            try await client.call("/api/v1/me", token: "not-a-token") { #expect($0.status == .unauthorized) }
            try await client.call("/openapi.yaml", token: nil) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).hasPrefix("openapi: 3.1.0"))
            }
        }
    }

    @Test("a signed-in user sees their account, practice and permissions")
    func me() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/me", token: token) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                #expect(body.contains("Alpha Vets"))
                #expect(body.contains("\"book\""))
                #expect(!body.contains("manageStaff"))
                #expect(!body.contains("password"))
            }
        }
    }

    @Test("a wrong password is 401 and does not reveal whether the email exists")
    func wrongPassword() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            var details: [String] = []
            for email in ["administrator@alpha.example", "nobody@alpha.example"] {
                details.append(
                    try await client.call(
                        "/api/v1/auth/login", .post, token: nil,
                        json: #"{"email":"\#(email)","password":"wrong-password-1"}"#
                    ) { response in
                        #expect(response.status == .unauthorized)
                        return try Problem(response).detail ?? ""
                    })
            }
            #expect(details[0] == details[1])
        }
        let failures = try await fixture.store.auditEntries(
            scope: .system(fixture.practiceA.id), limit: 200, before: nil
        )
        .items.filter { $0.action == "auth.login" && $0.outcome == .failure }
        #expect(failures.count == 1) // the unknown email has no practice to file it under
    }

    @Test("the 11th rapid failure for an account is 429 with Retry-After, even with the right password")
    func throttled() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            for _ in 0..<10 {
                try await client.call(
                    "/api/v1/auth/login", .post, token: nil,
                    json: #"{"email":"technician@alpha.example","password":"guess-guess-1"}"#
                ) { #expect($0.status == .unauthorized) }
            }
            try await client.call(
                "/api/v1/auth/login", .post, token: nil,
                json: #"{"email":"technician@alpha.example","password":"\#(AppFixture.password)"}"#
            ) { response in
                #expect(response.status == .tooManyRequests)
                let retryAfter = Int(response.headers[HTTPField.Name("Retry-After")!] ?? "") ?? 0
                #expect(retryAfter > 0 && retryAfter <= 900)
            }
            // Another account is unaffected.
            _ = try await client.login("veterinarian@alpha.example")
        }
    }

    @Test("logout revokes the token at once")
    func logout() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            try await client.call("/api/v1/auth/logout", .post, token: token) { #expect($0.status == .noContent) }
            try await client.call("/api/v1/me", token: token) { #expect($0.status == .unauthorized) }
        }
    }

    @Test("disabling a user revokes their session at once and they cannot sign in")
    func disable() async throws {
        let fixture = try await AppFixture.make()
        let tech = fixture.accountsA[.technician]!
        try await fixture.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let techToken = try await client.login("technician@alpha.example")
            try await client.call("/api/v1/users/\(tech.id)", .patch, token: admin, json: #"{"disabled":true}"#) {
                #expect($0.status == .ok)
            }
            try await client.call("/api/v1/me", token: techToken) { #expect($0.status == .unauthorized) }
            try await client.call(
                "/api/v1/auth/login", .post, token: nil,
                json: #"{"email":"technician@alpha.example","password":"\#(AppFixture.password)"}"#
            ) { #expect($0.status == .unauthorized) }
        }
    }

    @Test("tokens are stored only as hashes")
    func tokenHashed() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let stored = try await fixture.store.writer.read { db in
                try String.fetchAll(db, sql: "SELECT token_hash FROM session")
            }
            #expect(stored.count == 1)
            #expect(stored[0] != token)
            #expect(stored[0] == SessionToken.hash(token))
            #expect(
                Data(
                    base64Encoded: token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
                        of: "_", with: "/") + "=")?.count == 32)
        }
    }
}
