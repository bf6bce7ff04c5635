import Crypto
import Foundation
import SharedKernel

/// The hashes the stores' shared code computes over text it builds itself (audit entries and
/// heads, search tokens, an export's digest), so that code needs no cryptography library of
/// its own.
package enum KeyedHash {
    /// HMAC-SHA256 of `data` under `key`.
    package static func authenticationCode(of data: Data, key: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    /// The SHA-256 digest of `data`, in lower-case hex.
    package static func sha256Hex(_ data: Data) -> String { Hex.encode(SHA256.hash(data: data)) }
}

extension AuditKey {
    /// HMAC-SHA256 of `text` (as UTF-8) under the audit key, in lower-case hex: the form of
    /// every hash and signature the audit trail keeps.
    package func authenticationCode(of text: String) -> String {
        Hex.encode(KeyedHash.authenticationCode(of: Data(text.utf8), key: bytes))
    }
}
