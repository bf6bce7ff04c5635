import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StoragePorts
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("Passkeys: a second factor and a shared device's unlock")
struct PasskeyAPITests {
    struct Options: Decodable {
        let challenge: String
        let userHandle: String
        let userName: String
        let excludeCredentials: [String]
        let algorithms: [Int]
    }

    static func options(_ client: any TestClientProtocol, token: String) async throws -> Options {
        try await client.call("/api/v1/me/passkeys/options", .post, token: token) { response in
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            return try JSONDecoder().decode(Options.self, from: Data(buffer: response.body))
        }
    }

    struct Listed: Decodable {
        let id: String
        let name: String
        let site: String
        let lastUsedAt: Date?
    }

    static func passkeys(_ client: any TestClientProtocol, token: String) async throws -> [Listed] {
        struct Items: Decodable { let items: [Listed] }
        return try await client.call("/api/v1/me/passkeys", token: token) { response in
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(Items.self, from: Data(buffer: response.body)).items
        }
    }

    static func challenge(_ client: any TestClientProtocol) async throws -> String {
        struct Challenge: Decodable {
            let challenge: String
            let timeoutSeconds: Int
        }
        return try await client.execute(uri: "/api/v1/auth/passkey-challenge", method: .post) { response in
            #expect(response.status == .ok)
            return try JSONDecoder().decode(Challenge.self, from: Data(buffer: response.body)).challenge
        }
    }

    /// Adds `authenticator`'s passkey for the session of `token`; the answer's status and body.
    static func add(
        _ client: any TestClientProtocol, token: String,
        _ registration: (clientDataJSON: String, attestationObject: String),
        password: String = AppFixture.password, name: String = "Ward iPad"
    ) async throws -> (HTTPResponse.Status, String) {
        try await client.call(
            "/api/v1/me/passkeys", .post, token: token,
            json: #"""
                {"name":"\#(name)","password":"\#(password)","clientDataJSON":"\#(registration.clientDataJSON)",\#
                "attestationObject":"\#(registration.attestationObject)"}
                """#
        ) { ($0.status, String(buffer: $0.body)) }
    }

    static func signIn(_ client: any TestClientProtocol, _ email: String, passkey: String?) async throws
        -> (status: HTTPResponse.Status, token: String?, problem: TypedProblem?)
    {
        try await SecondFactorAPITests.signIn(client, email, code: nil, passkey: passkey)
    }

    @Test(
        """
        a veterinarian asked for a second factor makes a passkey (password asked again, every part checked); it then \
        signs them in once per challenge and no copy or forgery does
        """
    )
    func passkeyAsSecondFactor() async throws {
        let fixture = try await AppFixture.make()
        let practice = fixture.practiceA.id
        try await fixture.requireSecondFactor(of: [.administrator, .veterinarian])
        let vet = fixture.accountsA[.veterinarian]!
        try await fixture.test { client in
            let earlier = try await client.login(vet.email)
            let token = try await client.login(vet.email)
            // Until a second factor is set up the session reaches nothing else, but may make one.
            try await client.call("/api/v1/patients?q=a", token: token) { #expect($0.status == .forbidden) }
            let options = try await Self.options(client, token: token)
            #expect(options.userName == vet.email && options.excludeCredentials.isEmpty && options.algorithms == [-7])
            // An iPad's passkey, synced, keeps no counter: its answers are told apart by their challenges.
            var phone = SoftwareAuthenticator()
            phone.counting = false

            // Refusals, each naming its field and changing nothing.
            let wrongPassword = try await Self.add(
                client, token: token, phone.registration(challenge: options.challenge), password: "not-it-at-all")
            #expect(wrongPassword.0 == .unprocessableContent && wrongPassword.1.contains(#""field":"password""#))
            let unverified = try await Self.add(
                client, token: token, phone.registration(challenge: options.challenge, userVerified: false))
            #expect(unverified.0 == .unprocessableContent && unverified.1.contains("attestationObject"))
            let otherSite = try await Self.add(
                client, token: token, phone.registration(challenge: options.challenge, site: "evil.example"))
            #expect(otherSite.0 == .unprocessableContent && otherSite.1.contains("another site"))
            let signInChallenge = try await Self.challenge(client)
            let wrongPurpose = try await Self.add(
                client, token: token, phone.registration(challenge: signInChallenge))
            #expect(wrongPurpose.0 == .unprocessableContent && wrongPurpose.1.contains("clientDataJSON"))
            var plain = SoftwareAuthenticator()
            plain.origin = "http://vet.example"
            let notHTTPS = try await Self.add(client, token: token, plain.registration(challenge: options.challenge))
            #expect(notHTTPS.0 == .unprocessableContent && notHTTPS.1.contains("HTTPS"))
            #expect(try await Self.passkeys(client, token: token).isEmpty)

            let added = try await Self.add(client, token: token, phone.registration(challenge: options.challenge))
            #expect(added.0 == .created, "\(added.1)")
            #expect(try await Self.passkeys(client, token: token).map(\.site) == ["vet.example"])
            // The account's first second factor: this session may act now, the earlier one ended.
            try await client.call("/api/v1/patients?q=a", token: token) { #expect($0.status == .ok) }
            try await client.call("/api/v1/me", token: earlier) { #expect($0.status == .unauthorized) }
            // The same device again is refused.
            let again = try await Self.add(
                client, token: token,
                phone.registration(challenge: try await Self.options(client, token: token).challenge))
            #expect(again.0 == .conflict)

            // Sign-in now asks for the passkey (or a code).
            let bare = try await Self.signIn(client, vet.email, passkey: nil)
            #expect(bare.status == .unauthorized && bare.problem?.type.hasSuffix("second-factor-required") == true)
            let answer = phone.assertion(challenge: try await Self.challenge(client))
            let signedIn = try await Self.signIn(client, vet.email, passkey: answer)
            #expect(signedIn.status == .ok)
            let session = try #require(signedIn.token)
            try await client.call("/api/v1/me", token: session) { response in
                let me = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
                #expect(me?["secondFactor"] as? Bool == true)
            }
            // The same answer again, a forged signature, a lower counter, another origin: refused.
            let replayed = try await Self.signIn(client, vet.email, passkey: answer)
            #expect(replayed.status == .unauthorized)
            let forged = phone.assertion(challenge: try await Self.challenge(client), signer: P256.Signing.PrivateKey())
            #expect(try await Self.signIn(client, vet.email, passkey: forged).status == .unauthorized)
            // A security key keeps a counter: a copy of it, behind the original, is refused.
            var key = SoftwareAuthenticator()
            let keyOptions = try await Self.options(client, token: session)
            #expect(keyOptions.excludeCredentials.count == 1)
            #expect(
                try await Self.add(
                    client, token: session, key.registration(challenge: keyOptions.challenge), name: "Key"
                ).0 == .created)
            let copy = key
            let original = key.assertion(challenge: try await Self.challenge(client))
            #expect(try await Self.signIn(client, vet.email, passkey: original).status == .ok)
            var behind = copy
            let copied = behind.assertion(challenge: try await Self.challenge(client))
            #expect(try await Self.signIn(client, vet.email, passkey: copied).status == .unauthorized)
            let elsewhere = phone.assertion(challenge: try await Self.challenge(client), origin: "https://evil.example")
            #expect(try await Self.signIn(client, vet.email, passkey: elsewhere).status == .unauthorized)
            let made = phone.assertion(challenge: "AQ" + String(repeating: "A", count: 53))
            #expect(try await Self.signIn(client, vet.email, passkey: made).status == .unauthorized)
            // Still good after all that.
            let next = phone.assertion(challenge: try await Self.challenge(client))
            #expect(try await Self.signIn(client, vet.email, passkey: next).status == .ok)

            // Its owner lists them; the last one cannot go while it is the only second factor the role needs.
            let listed = try await Self.passkeys(client, token: session)
            #expect(listed.map(\.name) == ["Ward iPad", "Key"] && listed.allSatisfy { $0.lastUsedAt != nil })
            let id = listed[0].id
            try await client.call("/api/v1/me/passkeys/\(listed[1].id)", .delete, token: session) {
                #expect($0.status == .noContent)
            }
            try await client.call("/api/v1/me/passkeys/\(id)", .delete, token: session) {
                #expect($0.status == .conflict)
            }
            let receptionist = try await client.login(fixture.accountsA[.receptionist]!.email)
            try await client.call("/api/v1/me/passkeys/\(id)", .delete, token: receptionist) {
                #expect($0.status == .notFound)
            }
        }
        let audit = try await fixture.store.auditEntries(
            scope: .system(practice), limit: 200, before: nil, resourceType: nil, resourceID: nil
        ).items
        #expect(audit.contains { $0.action == "auth.passkey.add" && $0.outcome == .success })
        #expect(audit.contains { $0.action == "auth.passkey.add" && $0.outcome == .failure })
        #expect(audit.contains { $0.action == "auth.login" && ($0.detail ?? "").contains("passkey 'Ward iPad'") })
        #expect(audit.contains { $0.action == "auth.login" && ($0.detail ?? "").contains("challenge already used") })
        #expect(audit.contains { $0.action == "auth.login" && ($0.detail ?? "").contains("did not go up") })
    }

    @Test(
        """
        on a registered shared device a nurse unlocks with her passkey within 12 hours of a full sign-in there; not \
        on another browser, not with a colleague's passkey
        """
    )
    func unlockWithPasskey() async throws {
        let fixture = try await AppFixture.make()
        let nurse = fixture.accountsA[.technician]!
        let vet = fixture.accountsA[.veterinarian]!
        try await fixture.test { client in
            let admin = try await client.login(fixture.accountsA[.administrator]!.email)
            let registered = try await SharedDeviceAPITests.call(
                client, "/api/v1/shared-devices", .post, token: admin, json: #"{"name":"Ward iPad"}"#)
            let setCookie = try #require(registered.cookies.first { $0.hasPrefix("vetnet_workstation=") })
            let cookie = String(setCookie.split(separator: ";")[0])
            var nursePhone = SoftwareAuthenticator()
            var vetPhone = SoftwareAuthenticator()
            for (account, phone) in [(nurse, nursePhone), (vet, vetPhone)] {
                let token = try await client.login(account.email)
                let options = try await Self.options(client, token: token)
                #expect(
                    try await Self.add(client, token: token, phone.registration(challenge: options.challenge)).0
                        == .created)
            }
            let unlock = { (email: String, passkey: String, cookie: String?) in
                try await SharedDeviceAPITests.call(
                    client, "/api/v1/auth/unlock", .post, cookie: cookie,
                    json: #"{"email":"\#(email)","passkey":\#(passkey)}"#)
            }
            // Before a full sign-in there, refused with the reason.
            let early = try await unlock(
                nurse.email, nursePhone.assertion(challenge: try await Self.challenge(client)), cookie)
            #expect(early.body["type"] as? String == "https://vetnet.dev/problems/full-sign-in-required")
            // The nurse signs in fully on the device (password and passkey), then taps her name later.
            let full = try await SharedDeviceAPITests.call(
                client, "/api/v1/auth/login", .post, cookie: cookie,
                json: #"""
                    {"email":"\#(nurse.email)","password":"\#(AppFixture.password)",\#
                    "passkey":\#(nursePhone.assertion(challenge: try await Self.challenge(client)))}
                    """#)
            #expect(full.status == .ok)
            let unlocked = try await unlock(
                nurse.email, nursePhone.assertion(challenge: try await Self.challenge(client)), cookie)
            #expect(unlocked.status == .ok)
            let token = try #require(unlocked.body["token"] as? String)
            let me = try await SharedDeviceAPITests.call(client, "/api/v1/me", token: token)
            #expect((me.body["user"] as? [String: Any])?["id"] as? String == nurse.id.description)
            #expect(me.body["secondFactor"] as? Bool == true)
            // Not on another browser; not with the vet's passkey for the nurse's name.
            let elsewhere = try await unlock(
                nurse.email, nursePhone.assertion(challenge: try await Self.challenge(client)), nil)
            #expect(elsewhere.status == .unauthorized)
            let borrowed = try await unlock(
                nurse.email, vetPhone.assertion(challenge: try await Self.challenge(client)), cookie)
            #expect(borrowed.status == .unauthorized)
        }
        let audit = try await fixture.store.auditEntries(
            scope: .system(fixture.practiceA.id), limit: 200, before: nil, resourceType: nil, resourceID: nil
        ).items
        #expect(
            audit.contains {
                $0.action == "auth.login" && ($0.detail ?? "").contains("passkey 'Ward iPad'")
                    && ($0.detail ?? "").contains("shared device 'Ward iPad'")
            })
        #expect(
            audit.contains {
                $0.action == "auth.unlock" && $0.outcome == .failure && ($0.detail ?? "").contains("passkey")
            })
    }

    @Test("an account keeps at most 20 passkeys; the 21st is refused until one is removed")
    func limit() async throws {
        let fixture = try await AppFixture.make()
        let receptionist = fixture.accountsA[.receptionist]!
        try await fixture.test { client in
            let token = try await client.login(receptionist.email)
            for index in 0..<AccountService.passkeyLimit {
                let options = try await Self.options(client, token: token)
                let added = try await Self.add(
                    client, token: token, SoftwareAuthenticator().registration(challenge: options.challenge),
                    name: "Device \(index)")
                #expect(added.0 == .created, "\(added.1)")
            }
            let options = try await Self.options(client, token: token)
            #expect(options.excludeCredentials.count == AccountService.passkeyLimit)
            let refused = try await Self.add(
                client, token: token, SoftwareAuthenticator().registration(challenge: options.challenge),
                name: "One more")
            #expect(refused.0 == .conflict && refused.1.contains("at most 20"))
            let first = try #require(try await Self.passkeys(client, token: token).first)
            try await client.call("/api/v1/me/passkeys/\(first.id)", .delete, token: token) {
                #expect($0.status == .noContent)
            }
            let again = try await Self.add(
                client, token: token,
                SoftwareAuthenticator().registration(challenge: try await Self.options(client, token: token).challenge),
                name: "One more")
            #expect(again.0 == .created)
        }
    }

    @Test(
        "malformed passkey parts are refused naming the part; CBOR that lies about its lengths is an error, not a crash"
    )
    func malformed() async throws {
        for bytes: [UInt8] in [
            [0xBF], [0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x9B] + Array(repeating: 0xFF, count: 8),
            Array(repeating: 0x81, count: 40) + [0], [0xA1], [0x7F],
        ] {
            var reader = CBORReader(Data(bytes))
            #expect(throws: CBORReader.Malformed.self) { _ = try reader.read() }
        }
        let phone = SoftwareAuthenticator()
        let registration = phone.registration(challenge: "x")
        let attestation = try #require(TokenText.data(base64url: registration.attestationObject))
        // Every truncation of a good attestation object is refused, never a crash.
        for length in stride(from: 0, to: attestation.count, by: 7) {
            #expect(throws: WebAuthn.Refusal.self) {
                _ = try WebAuthn.register(
                    clientDataJSON: try #require(TokenText.data(base64url: registration.clientDataJSON)),
                    attestationObject: attestation.prefix(length), challengeIsValid: { _ in true })
            }
        }
        // base64url as the contract's pattern allows it: every such text decodes, nothing else does.
        #expect(TokenText.data(base64url: "0") == nil && TokenText.data(base64url: "AAA=") == nil)
        #expect(TokenText.data(base64url: "AB") == Data([0]) && TokenText.data(base64url: "_-8") == Data([0xFF, 0xEF]))
        let random = Data((0..<100).map { _ in UInt8.random(in: 0...255) })
        #expect(TokenText.data(base64url: TokenText.base64url(random)) == random)
        #expect(try WebAuthn.relyingParty(ofOrigin: "http://localhost:8080") == "localhost")
        #expect(throws: WebAuthn.Refusal.self) { _ = try WebAuthn.relyingParty(ofOrigin: "https://127.0.0.1") }
    }
}
