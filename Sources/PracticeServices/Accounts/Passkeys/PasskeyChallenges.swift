import Crypto
import Foundation
import SharedKernel

/// Challenges for passkeys, made without keeping anything: a challenge carries its expiry and
/// a random part, signed with a key every instance derives alike, so any instance can check it.
/// What it may be used for (and, for a registration, by whom) is part of the signature, not of
/// the text. Each passkey spends a challenge once (its store keeps the last one it answered),
/// so a captured answer cannot be played again.
package struct PasskeyChallenges: Sendable {
    /// What a challenge is for.
    package enum Purpose: String, Sendable {
        /// Making a passkey for a signed-in account.
        case registration
        /// Signing in or unlocking with a passkey.
        case assertion
    }

    /// How long a challenge can be answered: the browser's prompt, a fingerprint, a slow hand.
    package static let lifetime: TimeInterval = 300

    private let keyBytes: [UInt8]

    /// Challenges signed with `key` (``SignInDevices/passkeyChallengeKey()``).
    package init(key: [UInt8]) { self.keyBytes = key }

    /// A new challenge for `purpose` (and `userID`, for a registration), base64url: 41 bytes of
    /// version, expiry, 16 random bytes and 16 bytes of HMAC-SHA256.
    package func issue(_ purpose: Purpose, userID: UserID? = nil, at now: Date) -> String {
        var body: [UInt8] = [1]
        let expiry = UInt64(max(0, now.timeIntervalSince1970 + Self.lifetime))
        body += (0..<8).reversed().map { UInt8(truncatingIfNeeded: expiry >> (UInt64($0) * 8)) }
        body += SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }
        return TokenText.base64url(Data(body + mac(body, purpose: purpose, userID: userID)))
    }

    /// Whether `challenge` is one of ours for `purpose` (and `userID`), not yet expired at `now`.
    package func isValid(_ challenge: String, for purpose: Purpose, userID: UserID? = nil, at now: Date) -> Bool {
        guard challenge.utf8.count <= 64, let data = TokenText.data(base64url: challenge), data.count == 41,
            data.first == 1
        else { return false }
        let bytes = Array(data)
        let body = Array(bytes[0..<25])
        let expected = mac(body, purpose: purpose, userID: userID)
        guard zip(bytes[25...], expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { return false }
        let expiry = bytes[1..<9].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Double(expiry) >= now.timeIntervalSince1970
    }

    private func mac(_ body: [UInt8], purpose: Purpose, userID: UserID?) -> [UInt8] {
        let bound = Data("\(purpose.rawValue)|\(userID?.description ?? "-")|".utf8) + Data(body)
        return Array(HMAC<SHA256>.authenticationCode(for: bound, using: SymmetricKey(data: keyBytes)).prefix(16))
    }
}
