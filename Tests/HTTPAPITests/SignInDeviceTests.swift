import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// A clinic behind one address: someone on its network using up the address's allowance of
/// failed sign-ins must not shut out staff on the devices they use, and a device cookie must
/// be no help to someone guessing.
@Suite("Sign-in from known devices behind a shared address")
struct SignInDeviceTests {
    /// Signs in with `password`, sending `device` as the device cookie; the status and the
    /// device cookie the server gave back, if any.
    static func signIn(
        _ client: some TestClientProtocol, _ email: String, password: String = AppFixture.password,
        device: String? = nil
    ) async throws -> (HTTPResponse.Status, String?) {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let device { headers[.cookie] = "\(SignInDevices.cookieName)=\(device)" }
        return try await client.execute(
            uri: "/api/v1/auth/login", method: .post, headers: headers,
            body: ByteBuffer(string: #"{"email":"\#(email)","password":"\#(password)"}"#)
        ) { response in
            let cookie = response.headers[values: .setCookie].first { $0.hasPrefix(SignInDevices.cookieName + "=") }
            let value = cookie?.split(separator: ";").first?.split(separator: "=", maxSplits: 1).last.map(String.init)
            return (response.status, value)
        }
    }

    @Test(
        """
        a colleague's device that signed in before gets in while the shared address waits; a new device, another \
        account or a forged mark do not
        """
    )
    func knownDeviceBehindLockedAddress() async throws {
        let fixture = try await AppFixture.make().withThrottle(accountLimit: 10, addressLimit: 5)
        try await fixture.test { client in
            // Monday: the vet signs in on the ward iPad; the browser is given a device cookie.
            let (first, device) = try await Self.signIn(client, "veterinarian@alpha.example")
            #expect(first == .ok)
            let cookie = try #require(device, "no device cookie after a sign-in")
            // Someone on the clinic's network sprays made-up accounts: the address is over its limit.
            let spray = try await SecurityRegressionTests.concurrentLogins(client, count: 5) {
                "spray-\($0)@alpha.example"
            }
            #expect(spray.allSatisfy { $0 == .unauthorized })
            #expect(try await Self.signIn(client, "receptionist@alpha.example").0 == .tooManyRequests)
            // The vet's iPad still signs the vet in…
            let (again, renewed) = try await Self.signIn(client, "veterinarian@alpha.example", device: cookie)
            #expect(again == .ok)
            #expect(
                renewed?.split(separator: ".").dropFirst().first == cookie.split(separator: ".").dropFirst().first,
                "the same device")
            // …but its cookie is the vet's: for the receptionist it is an unknown device.
            #expect(try await Self.signIn(client, "receptionist@alpha.example", device: cookie).0 == .tooManyRequests)
            // A mark altered by one character is no mark.
            var forged = Array(cookie)
            forged[forged.count - 1] = forged.last == "A" ? "B" : "A"
            #expect(
                try await Self.signIn(client, "veterinarian@alpha.example", device: String(forged)).0
                    == .tooManyRequests)
            // Garbage in the cookie is an unknown device, never an error.
            for junk in [
                "", "v1", "v2.abc", String(repeating: "x", count: 5000), "v1.\(String(repeating: ".", count: 40))",
            ] {
                #expect(
                    try await Self.signIn(client, "veterinarian@alpha.example", device: junk).0 == .tooManyRequests,
                    "\(junk.prefix(20))")
            }
        }
    }

    @Test("the account's own limit holds on a known device: 10 wrong passwords from it, then even the right one waits")
    func accountLimitHoldsOnKnownDevice() async throws {
        let fixture = try await AppFixture.make().withThrottle(accountLimit: 10, addressLimit: 50)
        try await fixture.test { client in
            let (_, device) = try await Self.signIn(client, "technician@alpha.example")
            let cookie = try #require(device)
            for index in 0..<10 {
                #expect(
                    try await Self.signIn(
                        client, "technician@alpha.example", password: "wrong-\(index)", device: cookie
                    ).0 == .unauthorized)
            }
            #expect(try await Self.signIn(client, "technician@alpha.example", device: cookie).0 == .tooManyRequests)
            #expect(try await Self.signIn(client, "technician@alpha.example").0 == .tooManyRequests)
        }
    }

    @Test("a shared iPad remembers each account signed in on it, one cookie for the device")
    func sharedDeviceRemembersEachAccount() async throws {
        let fixture = try await AppFixture.make().withThrottle(accountLimit: 10, addressLimit: 3)
        try await fixture.test { client in
            var cookie: String?
            for role in ["veterinarian", "technician", "receptionist"] {
                let (status, next) = try await Self.signIn(client, "\(role)@alpha.example", device: cookie)
                #expect(status == .ok)
                cookie = next
            }
            let shared = try #require(cookie)
            #expect(shared.split(separator: ".").count == 5, "v1, the device and three marks")
            _ = try await SecurityRegressionTests.concurrentLogins(client, count: 3) { "spray-\($0)@alpha.example" }
            #expect(try await Self.signIn(client, "administrator@alpha.example").0 == .tooManyRequests)
            for role in ["veterinarian", "technician", "receptionist"] {
                #expect(try await Self.signIn(client, "\(role)@alpha.example", device: shared).0 == .ok, "\(role)")
            }
        }
    }

    @Test("device cookies are HttpOnly, SameSite=Strict, scoped to sign-in and signed with the installation's key")
    func cookieShape() async throws {
        let devices = SignInDevices(key: Array(repeating: 3, count: 32))
        let cookie = devices.remember("Vet@Alpha.example", on: nil)
        #expect(devices.trustedDevice(devices.parse(cookie.value), email: "vet@alpha.example") == cookie.deviceID)
        // Another installation's key does not know it.
        #expect(
            SignInDevices(key: Array(repeating: 4, count: 32)).trustedDevice(
                devices.parse(cookie.value), email: "vet@alpha.example") == nil)
        let field = SignInDevices.setCookieField(cookie, secure: true)
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/api/v1/auth", "Secure", "Max-Age=7776000"] {
            #expect(field.contains(attribute), "\(attribute)")
        }
        // The oldest accounts go once the device remembers 20.
        var many = cookie
        for index in 0..<25 { many = devices.remember("staff\(index)@alpha.example", on: many) }
        #expect(many.marks.count == SignInDevices.maximumAccounts)
        #expect(devices.trustedDevice(many, email: "vet@alpha.example") == nil)
        #expect(devices.trustedDevice(many, email: "staff24@alpha.example") == many.deviceID)
    }
}
