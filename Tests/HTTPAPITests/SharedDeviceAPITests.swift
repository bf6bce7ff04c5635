import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StoragePorts
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("Shared devices: PIN unlock on registered devices")
struct SharedDeviceAPITests {
    static func call(
        _ client: any TestClientProtocol, _ uri: String, _ method: HTTPRequest.Method = .get, token: String? = nil,
        cookie: String? = nil, json: String? = nil
    ) async throws -> (status: HTTPResponse.Status, body: [String: Any], cookies: [String]) {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let cookie { headers[.cookie] = cookie }
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any]
            return (response.status, object ?? [:], response.headers[values: .setCookie])
        }
    }

    static func unlock(_ client: any TestClientProtocol, _ email: String, pin: String, cookie: String?) async throws
        -> (status: HTTPResponse.Status, body: [String: Any], cookies: [String])
    {
        try await call(
            client, "/api/v1/auth/unlock", .post, cookie: cookie, json: #"{"email":"\#(email)","pin":"\#(pin)"}"#)
    }

    @Test(
        """
        a registered device unlocks with each person's PIN for 12 hours after their full sign-in there; nowhere else, \
        and not once revoked
        """
    )
    func wardDay() async throws {
        let clock = SteppedClock(Date())
        let fixture = try await AppFixture.make(clock: clock.clock)
        let vet = fixture.accountsA[.veterinarian]!
        let nurse = fixture.accountsA[.technician]!
        try await fixture.test { client in
            let admin = try await client.login(fixture.accountsA[.administrator]!.email)
            // Registering: the answer sets the device's cookie, HttpOnly, for the sign-in paths only.
            let registered = try await Self.call(
                client, "/api/v1/shared-devices", .post, token: admin,
                json: #"{"name":"Ward iPad","idleLockSeconds":60}"#)
            #expect(registered.status == .created)
            let setCookie = try #require(registered.cookies.first { $0.hasPrefix("vetnet_workstation=") })
            #expect(setCookie.contains("Path=/api/v1/auth") && setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict"))
            let cookie = String(setCookie.split(separator: ";")[0])
            let device = try await Self.call(client, "/api/v1/auth/workstation", cookie: cookie)
            #expect(device.body["registered"] as? Bool == true && device.body["name"] as? String == "Ward iPad")
            #expect(device.body["idleLockSeconds"] as? Int == 60)
            #expect(try await Self.call(client, "/api/v1/auth/workstation").body["registered"] as? Bool == false)
            // A forged cookie of the right shape is no device.
            let forged = "vetnet_workstation=\(fixture.practiceA.id).\(String(repeating: "A", count: 43))"
            #expect(
                try await Self.call(client, "/api/v1/auth/workstation", cookie: forged).body["registered"] as? Bool
                    == false)

            // PINs: the form is checked, and the password asked again.
            let vetToken = try await client.login(vet.email)
            #expect(
                try await Self.call(
                    client, "/api/v1/me/pin", .put, token: vetToken,
                    json: #"{"pin":"123456","password":"\#(AppFixture.password)"}"#
                ).status == .unprocessableContent)
            #expect(
                try await Self.call(
                    client, "/api/v1/me/pin", .put, token: vetToken, json: #"{"pin":"482915","password":"wrong-one"}"#
                ).status == .unprocessableContent)
            #expect(
                try await Self.call(
                    client, "/api/v1/me/pin", .put, token: vetToken,
                    json: #"{"pin":"482915","password":"\#(AppFixture.password)"}"#
                ).status == .noContent)

            // Before a full sign-in on this device the PIN does not open it.
            let early = try await Self.unlock(client, vet.email, pin: "482915", cookie: cookie)
            #expect(early.status == .unauthorized)
            #expect(early.body["type"] as? String == "https://vetnet.dev/problems/full-sign-in-required")
            // A full sign-in from the device, then the PIN works there.
            _ = try await Self.call(
                client, "/api/v1/auth/login", .post, cookie: cookie,
                json: #"{"email":"\#(vet.email)","password":"\#(AppFixture.password)"}"#)
            let unlocked = try await Self.unlock(client, vet.email, pin: "482915", cookie: cookie)
            #expect(unlocked.status == .ok)
            let pinToken = try #require(unlocked.body["token"] as? String)
            let me = try await Self.call(client, "/api/v1/me", token: pinToken)
            #expect((me.body["user"] as? [String: Any])?["id"] as? String == vet.id.description)
            // Elsewhere, the right PIN is refused before it is checked; a wrong one is refused.
            let elsewhere = try await Self.unlock(client, vet.email, pin: "482915", cookie: nil)
            #expect(elsewhere.status == .unauthorized)
            #expect(try await Self.unlock(client, vet.email, pin: "482916", cookie: cookie).status == .unauthorized)
            // A colleague without a PIN, or unknown, gets the same answer.
            #expect(try await Self.unlock(client, nurse.email, pin: "482915", cookie: cookie).status == .unauthorized)
            #expect(
                try await Self.unlock(client, "nobody@alpha.example", pin: "482915", cookie: cookie).status
                    == .unauthorized)
            // Another practice's administrator cannot see or revoke the device.
            let beta = try await client.login(fixture.adminB.email)
            let betaList = try await Self.call(client, "/api/v1/shared-devices", token: beta)
            #expect((betaList.body["items"] as? [Any])?.isEmpty == true)
            let listed = try await Self.call(client, "/api/v1/shared-devices", token: admin)
            let id = try #require(((listed.body["items"] as? [[String: Any]])?.first)?["id"] as? String)
            #expect(
                try await Self.call(client, "/api/v1/shared-devices/\(id)", .delete, token: beta).status == .notFound)

            // Twelve hours after the full sign-in the PIN stops working.
            clock.advance(SharedDevicePolicy.fullSignInValidity + 1)
            let late = try await Self.unlock(client, vet.email, pin: "482915", cookie: cookie)
            #expect(late.body["type"] as? String == "https://vetnet.dev/problems/full-sign-in-required")
            let admin2 = try await client.login(fixture.accountsA[.administrator]!.email)
            _ = try await Self.call(
                client, "/api/v1/auth/login", .post, cookie: cookie,
                json: #"{"email":"\#(vet.email)","password":"\#(AppFixture.password)"}"#)
            #expect(try await Self.unlock(client, vet.email, pin: "482915", cookie: cookie).status == .ok)
            // Revoked, the device opens for nobody.
            #expect(
                try await Self.call(client, "/api/v1/shared-devices/\(id)", .delete, token: admin2).status == .noContent
            )
            #expect(try await Self.unlock(client, vet.email, pin: "482915", cookie: cookie).status == .unauthorized)
        }
        let entries = try await fixture.store.auditEntries(
            scope: .system(fixture.practiceA.id), limit: 300, before: nil, resourceType: nil, resourceID: nil
        ).items
        let unlocks = entries.filter {
            $0.action == AuditAction.authLogin.name && $0.detail?.hasPrefix("PIN on shared device 'Ward iPad'") == true
        }
        #expect(unlocks.count == 2 && unlocks.allSatisfy { $0.actorID == vet.id.description })
        #expect(entries.contains { $0.action == AuditAction.authUnlock.name && $0.outcome == .failure })
        #expect(entries.contains { $0.action == AuditAction.sharedDeviceRevoke.name })
    }

    @Test(
        "PIN rules: 6 to 12 digits, not one digit repeated, not a run",
        arguments: [
            ("48291", false), ("482915", true), ("000000", false), ("123456", false), ("987654", false),
            ("890123", false),
            ("4829150371", true), ("1234567890123", false), ("48291a", false), ("١٢٣٤٥٦", false),
        ])
    func pinRules(pin: String, valid: Bool) {
        #expect(((try? SharedDevicePolicy.validatePin(pin)) != nil) == valid)
    }
}
