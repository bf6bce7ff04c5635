import Crypto
import Foundation

/// What a relying party checks of a passkey (W3C WebAuthn Level 2): the authenticator data,
/// the browser's client data and, at sign-in, the signature. Keys are ES256 (ECDSA over P-256
/// with SHA-256), what platform authenticators make; attestation is not asked for (the
/// "none" conveyance), so a registration proves the key, not the make of the device.
///
/// Everything here is pure: the caller fetches what is stored and persists the outcome.
package enum WebAuthn {
    /// Why a passkey's registration or sign-in is refused: `field` names the part of the
    /// request, `reason` says what was wrong (for the answer and the audit trail).
    package struct Refusal: Error, Sendable, Equatable {
        /// The request's field (`clientDataJSON`, `attestationObject`, `authenticatorData`, `signature`).
        package let field: String
        /// What was wrong with it.
        package let reason: String
    }

    /// The COSE identifier of ES256.
    package static let es256 = -7

    // MARK: - Authenticator data

    /// The authenticator's statement (§6.1): for which relying party, whether the person was
    /// present and verified, its signature counter, and at registration the new credential.
    package struct AuthenticatorData {
        /// SHA-256 of the relying party's id.
        package let rpIDHash: Data
        /// The user touched or otherwise confirmed (UP).
        package let userPresent: Bool
        /// The authenticator verified the user (UV: biometrics or the device's PIN).
        package let userVerified: Bool
        /// The signature counter (0 when the authenticator keeps none, as synced passkeys do).
        package let signCount: UInt32
        /// The credential made, at registration.
        package let credentialID: Data?
        /// Its public key at registration, X9.63 (a P-256 point the parser checked is on the curve).
        package let publicKey: Data?

        /// Parses the bytes an authenticator signed.
        package init(_ bytes: Data, field: String) throws(Refusal) {
            let raw = Array(bytes)
            guard raw.count >= 37 else { throw Refusal(field: field, reason: "is shorter than 37 bytes") }
            rpIDHash = Data(raw[0..<32])
            let flags = raw[32]
            userPresent = flags & 0x01 != 0
            userVerified = flags & 0x04 != 0
            signCount = raw[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
            guard flags & 0x40 != 0 else {
                credentialID = nil
                publicKey = nil
                return
            }
            // Attested credential data: AAGUID (16), length (2), the id, then the COSE key.
            guard raw.count >= 55 else { throw Refusal(field: field, reason: "has no room for the credential") }
            let length = Int(raw[53]) << 8 | Int(raw[54])
            guard length > 0, length <= 1_023, raw.count >= 55 + length else {
                throw Refusal(field: field, reason: "has a credential id of a wrong length")
            }
            credentialID = Data(raw[55..<(55 + length)])
            var reader = CBORReader(Data(raw[(55 + length)...]))
            let key: CBOR
            do { key = try reader.read() } catch { throw Refusal(field: field, reason: "holds a key that is not CBOR") }
            publicKey = try WebAuthn.publicKey(cose: key, field: field).x963Representation
        }

        /// That it was made for `relyingParty`, with the user present and verified.
        func check(relyingParty: String, field: String) throws(Refusal) {
            guard rpIDHash == Data(SHA256.hash(data: Data(relyingParty.utf8))) else {
                throw Refusal(field: field, reason: "was made for another site than \(relyingParty)")
            }
            guard userPresent, userVerified else {
                throw Refusal(field: field, reason: "does not say the user was verified on the device")
            }
        }
    }

    /// A P-256 public key from its COSE form (RFC 9053: kty 2, alg -7, crv 1, x, y).
    static func publicKey(cose key: CBOR, field: String) throws(Refusal) -> P256.Signing.PublicKey {
        guard key[int: 1]?.int == 2, key[int: 3]?.int == es256, key[int: -1]?.int == 1 else {
            throw Refusal(field: field, reason: "holds a key that is not ES256 (ECDSA P-256)")
        }
        guard let x = key[int: -2]?.data, let y = key[int: -3]?.data, x.count == 32, y.count == 32,
            let publicKey = try? P256.Signing.PublicKey(x963Representation: Data([0x04]) + x + y)
        else { throw Refusal(field: field, reason: "holds a P-256 key that is not on the curve") }
        return publicKey
    }

    // MARK: - Client data

    /// What the browser says it asked of the authenticator (§5.8.1).
    struct ClientData: Decodable {
        let type: String
        let challenge: String
        let origin: String
        let crossOrigin: Bool?
    }

    /// Reads the client data and checks its type, that it answers a challenge
    /// `challengeIsValid` accepts, and that it was not made inside another site's frame; the
    /// origin is returned for the caller to check.
    static func clientData(_ json: Data, type: String, challengeIsValid: (String) -> Bool) throws(Refusal)
        -> ClientData
    {
        guard json.count <= 4_096, let data = try? JSONDecoder().decode(ClientData.self, from: json) else {
            throw Refusal(field: "clientDataJSON", reason: "is not the browser's client data")
        }
        guard data.type == type else {
            throw Refusal(field: "clientDataJSON", reason: "is of type '\(data.type.prefix(40))', not \(type)")
        }
        guard challengeIsValid(data.challenge) else {
            throw Refusal(
                field: "clientDataJSON", reason: "answers a challenge that is not this server's or has expired")
        }
        guard data.crossOrigin != true else {
            throw Refusal(field: "clientDataJSON", reason: "was made inside another site's frame")
        }
        return data
    }

    /// The relying party id of a web app served at `origin`: its host name. The origin must be
    /// HTTPS, or HTTP on `localhost` (a browser's secure context for development); an IP
    /// address cannot be a relying party.
    package static func relyingParty(ofOrigin origin: String) throws(Refusal) -> String {
        guard origin.utf8.count <= 256, let url = URL(string: origin), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(), !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil
        else { throw Refusal(field: "clientDataJSON", reason: "names an origin that is not a web address") }
        guard scheme == "https" || (scheme == "http" && host == "localhost") else {
            throw Refusal(field: "clientDataJSON", reason: "names an origin that is not HTTPS")
        }
        guard !host.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" || $0 == "[" || $0 == "]" }) else {
            throw Refusal(field: "clientDataJSON", reason: "names an IP address, which cannot hold passkeys")
        }
        return host
    }

    // MARK: - Registration

    /// A passkey a registration proved: what is kept to check its sign-ins.
    package struct Registered: Sendable, Equatable {
        /// The credential's id, as the authenticator gave it.
        package let credentialID: Data
        /// The public key, X9.63 (65 bytes).
        package let publicKey: Data
        /// The host name it belongs to.
        package let relyingParty: String
        /// The web app's origin it was made at.
        package let origin: String
        /// The authenticator's counter at registration.
        package let signCount: UInt32
    }

    /// Checks a registration (§7.1): the client data is a `webauthn.create` for a challenge
    /// `challengeIsValid` accepts, the authenticator made an ES256 key for the origin's host,
    /// with the user present and verified.
    package static func register(
        clientDataJSON: Data, attestationObject: Data, challengeIsValid: (String) -> Bool
    ) throws(Refusal) -> Registered {
        let client = try clientData(clientDataJSON, type: "webauthn.create", challengeIsValid: challengeIsValid)
        let relyingParty = try relyingParty(ofOrigin: client.origin)
        var reader = CBORReader(attestationObject)
        let object: CBOR
        do { object = try reader.read() } catch {
            throw Refusal(field: "attestationObject", reason: "is not CBOR (\(error.reason))")
        }
        guard let authData = object[text: "authData"]?.data else {
            throw Refusal(field: "attestationObject", reason: "has no authenticator data")
        }
        let data = try AuthenticatorData(authData, field: "attestationObject")
        try data.check(relyingParty: relyingParty, field: "attestationObject")
        guard let credentialID = data.credentialID, let key = data.publicKey else {
            throw Refusal(field: "attestationObject", reason: "holds no new credential")
        }
        return Registered(
            credentialID: credentialID, publicKey: key, relyingParty: relyingParty,
            origin: client.origin, signCount: data.signCount)
    }

    // MARK: - Sign-in

    /// A sign-in a passkey made, checked; the caller spends `challenge` and stores `signCount`.
    package struct Asserted: Sendable, Equatable {
        /// The challenge it answered (spent once per passkey).
        package let challenge: String
        /// The authenticator's counter now.
        package let signCount: UInt32
    }

    /// Checks a sign-in (§7.2) by the stored passkey: the client data is a `webauthn.get` at
    /// the origin the passkey was made at, for a challenge `challengeIsValid` accepts; the
    /// authenticator data is for that site with the user present and verified; the signature
    /// is the passkey's over both; and a counter, when the authenticator keeps one, went up
    /// (a lower one means the key was copied).
    package static func assert(
        clientDataJSON: Data, authenticatorData: Data, signature: Data, publicKey: Data, relyingParty: String,
        origin: String, storedSignCount: UInt32, challengeIsValid: (String) -> Bool
    ) throws(Refusal) -> Asserted {
        let client = try clientData(clientDataJSON, type: "webauthn.get", challengeIsValid: challengeIsValid)
        guard client.origin == origin else {
            throw Refusal(field: "clientDataJSON", reason: "comes from another origin than the passkey's")
        }
        let data = try AuthenticatorData(authenticatorData, field: "authenticatorData")
        try data.check(relyingParty: relyingParty, field: "authenticatorData")
        guard let key = try? P256.Signing.PublicKey(x963Representation: publicKey) else {
            throw Refusal(field: "credentialId", reason: "names a passkey whose stored key is unreadable")
        }
        guard signature.count <= 80, let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature) else {
            throw Refusal(field: "signature", reason: "is not an ECDSA signature")
        }
        let signed = authenticatorData + Data(SHA256.hash(data: clientDataJSON))
        guard key.isValidSignature(ecdsa, for: signed) else {
            throw Refusal(field: "signature", reason: "is not this passkey's")
        }
        if data.signCount != 0 || storedSignCount != 0, data.signCount <= storedSignCount {
            throw Refusal(field: "authenticatorData", reason: "has a counter that did not go up: the key may be a copy")
        }
        return Asserted(challenge: client.challenge, signCount: data.signCount)
    }
}
