import Crypto
import Foundation

/// A passkey authenticator in software, as a test's stand-in for an iPad's: it makes an ES256
/// credential for a site and signs challenges with it, producing the bytes a browser would
/// send (WebAuthn's CBOR, authenticator data and client data).
struct SoftwareAuthenticator {
    let key = P256.Signing.PrivateKey()
    let credentialID = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
    /// The web app's origin the browser runs at.
    var origin = "https://vet.example"
    var signCount: UInt32 = 0
    /// Whether it keeps a signature counter (a security key does; synced passkeys, such as an
    /// iPad's, always say 0).
    var counting = true

    var relyingParty: String { URL(string: origin)?.host ?? "" }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// What `navigator.credentials.create` returns for `challenge`.
    func registration(
        challenge: String, userVerified: Bool = true, type: String = "webauthn.create", site: String? = nil
    ) -> (clientDataJSON: String, attestationObject: String) {
        let client = Self.clientData(type: type, challenge: challenge, origin: origin)
        let raw = key.publicKey.rawRepresentation
        let cose =
            CBORWriter.map(5) + CBORWriter.unsigned(1) + CBORWriter.unsigned(2) + CBORWriter.unsigned(3)
            + CBORWriter.negative(-7) + CBORWriter.negative(-1) + CBORWriter.unsigned(1) + CBORWriter.negative(-2)
            + CBORWriter.bytes(raw.prefix(32)) + CBORWriter.negative(-3) + CBORWriter.bytes(raw.suffix(32))
        var authData = Self.rpHash(site ?? relyingParty)
        authData.append(0x41 | (userVerified ? 0x04 : 0)) // UP, AT (and UV)
        authData.append(contentsOf: Self.bigEndian(signCount))
        authData.append(Data(repeating: 0, count: 16)) // AAGUID
        authData.append(contentsOf: [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)])
        authData.append(credentialID)
        authData.append(cose)
        let object =
            CBORWriter.map(3) + CBORWriter.text("fmt") + CBORWriter.text("none") + CBORWriter.text("attStmt")
            + CBORWriter.map(0) + CBORWriter.text("authData") + CBORWriter.bytes(authData)
        return (Self.base64url(client), Self.base64url(object))
    }

    /// What `navigator.credentials.get` returns for `challenge`, as the API's `passkey` object.
    mutating func assertion(challenge: String, origin: String? = nil, signer: P256.Signing.PrivateKey? = nil)
        -> String
    {
        if counting { signCount += 1 }
        let client = Self.clientData(type: "webauthn.get", challenge: challenge, origin: origin ?? self.origin)
        var authData = Self.rpHash(relyingParty)
        authData.append(0x05) // UP, UV
        authData.append(contentsOf: Self.bigEndian(signCount))
        let signature = try! (signer ?? key).signature(for: authData + Data(SHA256.hash(data: client)))
        return """
            {"credentialId":"\(Self.base64url(credentialID))","clientDataJSON":"\(Self.base64url(client))",\
            "authenticatorData":"\(Self.base64url(authData))",\
            "signature":"\(Self.base64url(signature.derRepresentation))"}
            """
    }

    static func clientData(type: String, challenge: String, origin: String) -> Data {
        Data(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    static func rpHash(_ site: String) -> Data { Data(SHA256.hash(data: Data(site.utf8))) }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// The few CBOR items WebAuthn's structures need, written as an authenticator writes them.
enum CBORWriter {
    static func head(_ major: UInt8, _ value: Int) -> Data {
        switch value {
        case 0..<24: return Data([major << 5 | UInt8(value)])
        case 24..<256: return Data([major << 5 | 24, UInt8(value)])
        default: return Data([major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)])
        }
    }
    static func unsigned(_ value: Int) -> Data { head(0, value) }
    static func negative(_ value: Int) -> Data { head(1, -1 - value) }
    static func bytes(_ data: Data) -> Data { head(2, data.count) + data }
    static func text(_ text: String) -> Data { head(3, text.utf8.count) + Data(text.utf8) }
    static func map(_ count: Int) -> Data { head(5, count) }
}
