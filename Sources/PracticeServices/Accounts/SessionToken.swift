import Crypto
import Foundation
import SharedKernel

/// Bearer tokens: 256 bits from the system CSPRNG, base64url, stored only as SHA-256.
package enum SessionToken {
    /// A new random token.
    package static func generate() -> String {
        let key = SymmetricKey(size: .bits256)
        return TokenText.base64url(key.withUnsafeBytes { Data($0) })
    }

    /// The stored form of a token.
    package static func hash(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)))
    }
}
