import Foundation

/// How secrets travel as text: base64url without padding (safe in cookies, headers and URLs),
/// and compared in constant time so the timing of a refusal tells nothing of how much matched.
package enum TokenText {
    /// `data` as base64url without padding.
    package static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text without padding; `nil` for anything else (a character
    /// outside the alphabet, or a length that leaves one character over). Bits below the last
    /// byte are ignored, as RFC 4648 lets a decoder do.
    package static func data(base64url text: String) -> Data? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.utf8 {
            let value: UInt8
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = character - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = character - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        // Four characters make three bytes; one left over cannot make a byte.
        guard text.utf8.count % 4 != 1 else { return nil }
        return Data(bytes)
    }

    /// Whether `given` equals `expected`, in time that depends on their lengths only.
    package static func constantTimeEqual(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        guard given.count == expected.count else { return false }
        return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
