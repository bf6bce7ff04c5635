import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StoragePorts
import Testing

@testable import HTTPAPI
@testable import PracticeServices

struct TypedProblem: Decodable {
    let type: String
    let status: Int
    let errors: [FieldError]?
}

@Suite("Two factors for administrators")
struct SecondFactorAPITests {
    /// Sets up a second factor for the session of `token` through the API and returns the
    /// secret and the recovery codes.
    @discardableResult
    static func enrol(_ client: any TestClientProtocol, token: String, password: String, at date: Date? = nil)
        async throws -> (secret: [UInt8], recoveryCodes: [String])
    {
        let secret = try await client.call(
            "/api/v1/me/second-factor/enrolment", .post, token: token, json: #"{"password":"\#(password)"}"#
        ) { response in
            #expect(response.status == .created, "\(String(buffer: response.body))")
            let body = try JSONDecoder().decode([String: String].self, from: Data(buffer: response.body))
            #expect(body["uri"]?.hasPrefix("otpauth://totp/VetNet:") == true)
            #expect(body["uri"]?.contains("secret=\(body["secret"] ?? "-")") == true)
            return try #require(Base32.decode(body["secret"] ?? ""))
        }
        #expect(secret.count == OneTimeCode.secretBytes)
        // The time of the store's clock when given, else now (after the password check, which
        // takes a while under load).
        let code = OneTimeCode.code(secret: secret, step: OneTimeCode.step(at: date ?? Date()))
        let codes = try await client.call(
            "/api/v1/me/second-factor", .post, token: token, json: #"{"code":"\#(code)"}"#
        ) { response in
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            return try JSONDecoder().decode([String: [String]].self, from: Data(buffer: response.body))[
                "recoveryCodes"] ?? []
        }
        #expect(codes.count == RecoveryCodes.count && Set(codes).count == codes.count)
        return (secret, codes)
    }

    /// Signs in with the password and, when given, a `code` or a `passkey` answer (its JSON).
    static func signIn(_ client: any TestClientProtocol, _ email: String, code: String?, passkey: String? = nil)
        async throws -> (status: HTTPResponse.Status, token: String?, problem: TypedProblem?)
    {
        let codeField = (code.map { #","code":"\#($0)""# } ?? "") + (passkey.map { #","passkey":\#($0)"# } ?? "")
        return try await client.execute(
            uri: "/api/v1/auth/login", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"email":"\#(email)","password":"\#(AppFixture.password)"\#(codeField)}"#)
        ) { response in
            let data = Data(buffer: response.body)
            if response.status == .ok {
                return (response.status, try JSONDecoder().decode(LoginBody.self, from: data).token, nil)
            }
            return (response.status, nil, try? JSONDecoder().decode(TypedProblem.self, from: data))
        }
    }

    @Test(
        """
        an administrator without a second factor reaches nothing until they set one up; then codes, a recovery code \
        and a replayed code
        """
    )
    func administratorDay() async throws {
        let clock = SteppedClock(Date())
        let fixture = try await AppFixture.make(clock: clock.clock)
        let practice = fixture.practiceA.id
        try await fixture.requireSecondFactor(of: [.administrator])
        let admin = fixture.accountsA[.administrator]!
        try await fixture.test { client in
            let earlier = try await client.login(admin.email)
            let token = try await client.login(admin.email)
            // Administration, and everything else, is refused with the reason, and audited.
            for uri in ["/api/v1/users", "/api/v1/audit", "/api/v1/patients?q=a", "/api/v1/practice"] {
                try await client.call(uri, token: token) { response in
                    #expect(response.status == .forbidden, "\(uri)")
                    let problem = try JSONDecoder().decode(TypedProblem.self, from: Data(buffer: response.body))
                    #expect(problem.type == "https://vetnet.dev/problems/second-factor-setup-required")
                }
            }
            try await client.call("/api/v1/me", token: token) { response in
                let me = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(me?["mustEnrolSecondFactor"] as? Bool == true)
                #expect((me?["permissions"] as? [String])?.isEmpty == true)
            }
            // Setting up asks the password again; a wrong one changes nothing.
            try await client.call(
                "/api/v1/me/second-factor/enrolment", .post, token: token, json: #"{"password":"not-the-password"}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field)
                #expect(fields == ["password"])
            }
            // A code that is not the app's is refused on `code`.
            try await client.call(
                "/api/v1/me/second-factor/enrolment", .post, token: token,
                json: #"{"password":"\#(AppFixture.password)"}"#
            ) { #expect($0.status == .created) }
            try await client.call("/api/v1/me/second-factor", .post, token: token, json: #"{"code":"000000"}"#) {
                response in
                // One in a million that 000000 is the right code; then it is a 200 and the test reports it.
                #expect(response.status == .unprocessableContent)
            }
            let (secret, recovery) = try await Self.enrol(
                client, token: token, password: AppFixture.password, at: clock.now)
            // The session that set it up may work now; the one opened before it has ended.
            try await client.call("/api/v1/users", token: token) { #expect($0.status == .ok) }
            try await client.call("/api/v1/me", token: earlier) { #expect($0.status == .unauthorized) }
            try await client.call("/api/v1/me/second-factor", token: token) { response in
                let status = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(status?["enrolled"] as? Bool == true)
                #expect(status?["recoveryCodesLeft"] as? Int == 10)
            }

            // Signing in now needs a code: without one, 401 naming `code`.
            let missing = try await Self.signIn(client, admin.email, code: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.problem?.type == "https://vetnet.dev/problems/second-factor-required")
            #expect(missing.problem?.errors?.map(\.field) == ["code"])
            // The code that confirmed the set-up is spent: replayed, it is refused.
            let confirmed = OneTimeCode.code(secret: secret, step: OneTimeCode.step(at: clock.now))
            #expect(try await Self.signIn(client, admin.email, code: confirmed).status == .unauthorized)
            // The next step's code opens one session, once.
            clock.advance(30)
            let next = OneTimeCode.code(secret: secret, step: OneTimeCode.step(at: clock.now))
            let opened = try await Self.signIn(client, admin.email, code: next)
            #expect(opened.status == .ok)
            let codeToken = try #require(opened.token)
            try await client.call("/api/v1/audit", token: codeToken) { #expect($0.status == .ok) }
            #expect(try await Self.signIn(client, admin.email, code: next).status == .unauthorized)
            // A recovery code (typed in capitals, without its hyphen) works once.
            let typed = recovery[3].uppercased().replacingOccurrences(of: "-", with: "")
            #expect(try await Self.signIn(client, admin.email, code: typed).status == .ok)
            #expect(try await Self.signIn(client, admin.email, code: recovery[3]).status == .unauthorized)
            try await client.call("/api/v1/me/second-factor", token: codeToken) { response in
                let status = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(status?["recoveryCodesLeft"] as? Int == 9)
            }
            // A colleague whose role is not asked for one signs in as before.
            #expect(try await Self.signIn(client, fixture.accountsA[.veterinarian]!.email, code: nil).status == .ok)
        }
        let entries = try await fixture.store.auditEntries(
            scope: .system(practice), limit: 200, before: nil, resourceType: nil, resourceID: nil
        ).items
        #expect(entries.contains { $0.outcome == .denied && $0.detail == "second factor required, not yet set up" })
        #expect(entries.contains { $0.action == AuditAction.authSecondFactorEnrol.name && $0.outcome == .success })
        #expect(entries.contains { $0.detail == "second factor code already used" && $0.outcome == .failure })
        #expect(entries.contains { $0.detail?.hasPrefix("second factor: recovery code") == true })
    }

    @Test("an administrator resets a colleague's lost second factor: their sessions end and they set up a new one")
    func reset() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.requireSecondFactor(of: [.administrator, .veterinarian])
        let vet = fixture.accountsA[.veterinarian]!
        let admin = fixture.accountsA[.administrator]!
        try await fixture.test { client in
            let vetToken = try await client.login(vet.email)
            try await Self.enrol(client, token: vetToken, password: AppFixture.password)
            let adminToken = try await client.login(admin.email)
            try await Self.enrol(client, token: adminToken, password: AppFixture.password)
            // Another practice's administrator cannot touch the account.
            let beta = try await client.login(fixture.adminB.email)
            try await client.call("/api/v1/users/\(vet.id)/second-factor", .delete, token: beta) {
                #expect($0.status == .notFound, "\(String(buffer: $0.body))")
            }
            // A colleague without manageStaff cannot either.
            let tech = try await client.login(fixture.accountsA[.technician]!.email)
            try await client.call("/api/v1/users/\(vet.id)/second-factor", .delete, token: tech) {
                #expect($0.status == .forbidden)
            }
            try await client.call("/api/v1/me", token: vetToken) { #expect($0.status == .ok) }
            try await client.call("/api/v1/users/\(vet.id)/second-factor", .delete, token: adminToken) {
                #expect($0.status == .noContent)
            }
            try await client.call("/api/v1/me", token: vetToken) { #expect($0.status == .unauthorized) }
            // The password alone signs in again, to a session that must set one up first.
            let again = try await Self.signIn(client, vet.email, code: nil)
            #expect(again.status == .ok)
            try await client.call("/api/v1/patients?q=a", token: try #require(again.token)) {
                #expect($0.status == .forbidden, "\(String(buffer: $0.body))")
            }
        }
    }
}
