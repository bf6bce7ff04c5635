import Crypto
import Foundation

/// Time-based one-time codes (RFC 6238 over RFC 4226): HMAC-SHA-1, 30-second steps, six
/// digits — what every authenticator app reads from an `otpauth://totp/` link.
package enum OneTimeCode {
    /// Seconds per time step.
    package static let stepSeconds: Int64 = 30
    /// Digits per code.
    package static let digits = 6
    /// Bytes of a new secret (160 bits, RFC 4226's recommendation).
    package static let secretBytes = 20
    /// Steps either side of now a code is accepted from: a phone's clock a little off, or a
    /// code typed as it turned over.
    package static let allowedDrift: Int64 = 1

    /// A fresh secret from the system's cryptographic random source.
    package static func newSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<secretBytes).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The time step `date` falls in.
    package static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(stepSeconds)).rounded(.down))
    }

    /// The code of `secret` for time step `step` (RFC 4226's dynamic truncation).
    package static func code(secret: [UInt8], step: Int64) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
        let value = binary % 1_000_000
        let text = String(value)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// The time step whose code `code` is, within ``allowedDrift`` of `date` and later than
    /// `after` (a step already spent cannot be used again); `nil` when there is none.
    package static func matchingStep(_ code: String, secret: [UInt8], at date: Date, after spent: Int64) -> Int64? {
        guard code.count == digits, code.allSatisfy(\.isASCII), code.allSatisfy(\.isNumber) else { return nil }
        let now = step(at: date)
        for candidate in (now - allowedDrift)...(now + allowedDrift) where candidate > spent {
            // Every candidate is compared, so the time taken does not tell which one matched.
            if constantTimeEqual(self.code(secret: secret, step: candidate), code) { return candidate }
        }
        return nil
    }

    /// The `otpauth://` link an authenticator app reads (by hand or from a QR code).
    package static func provisioningURI(secret: [UInt8], issuer: String, account: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~@")
        func escape(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        return "otpauth://totp/\(escape(issuer)):\(escape(account))?secret=\(Base32.encode(secret))"
            + "&issuer=\(escape(issuer))&algorithm=SHA1&digits=\(digits)&period=\(stepSeconds)"
    }

    private static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8)
        let right = Array(b.utf8)
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// RFC 4648 base32 without padding: how authenticator apps take a secret typed by hand.
package enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")

    /// `bytes` in base32, upper case, unpadded.
    package static func encode(_ bytes: [UInt8]) -> String {
        var output = ""
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return output
    }

    /// The bytes of base32 `text` (case-insensitive; spaces and padding ignored), or `nil`
    /// when it holds another character.
    package static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased() where character != " " && character != "=" {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return output
    }
}

/// Single-use recovery codes for a lost phone: ten of them, ten base32 characters each (50
/// bits), shown once at enrolment; only their SHA-256 is stored.
package enum RecoveryCodes {
    /// Codes issued at enrolment.
    package static let count = 10
    /// Characters per code (without the hyphen).
    package static let length = 10
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

    /// A fresh set, formatted `xxxxx-xxxxx`.
    package static func generate() -> [String] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let characters = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            return String(characters[..<5]) + "-" + String(characters[5...])
        }
    }

    /// The code as stored for comparison: lower case, without spaces or hyphens; `nil` when
    /// it cannot be a recovery code.
    package static func normalized(_ text: String) -> String? {
        let kept = text.lowercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == length, kept.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return kept
    }

    /// The SHA-256 (hex) a code is stored as.
    package static func hash(_ normalized: String) -> String {
        SHA256.hash(data: Data(normalized.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
