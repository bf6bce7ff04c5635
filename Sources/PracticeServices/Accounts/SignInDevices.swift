import Crypto
import Foundation

/// Browsers that have signed in before, remembered by a signed cookie, so that a practice
/// behind one address is not locked out by someone else's guessing.
///
/// The sign-in throttle limits failures per client address (password spraying from one
/// place). A clinic's staff usually share one address (its router, a proxy), so anyone on that
/// network could use up the address's allowance and shut every colleague out. After each
/// successful sign-in the server gives the browser a *device cookie* naming a random device
/// and, for each account that signed in on it, a mark: an HMAC of the device and the account's
/// address under a server key. An attempt for an account that carries that account's mark is
/// counted against the device, not the shared address: staff on a device they have used before
/// get in while the address waits out its limit. The account's own limit still holds on every
/// device, and a mark for one account does nothing for another, so a device cookie is no help
/// to someone spraying one password over many accounts.
package struct SignInDevices: Sendable {
    /// The cookie's name.
    package static let cookieName = "vetnet_device"
    /// How long a browser stays known after its last sign-in.
    package static let lifetime: TimeInterval = 90 * 86_400
    /// Accounts remembered per device (a shared ward iPad); the oldest go first.
    package static let maximumAccounts = 20
    /// The longest cookie value read; anything longer is not one of ours.
    package static let maximumLength = 2_048

    /// Signs the marks (kept as bytes: `SymmetricKey` is not `Sendable`).
    private let keyBytes: [UInt8]
    private var key: SymmetricKey { SymmetricKey(data: keyBytes) }

    /// A device cookie, read or about to be written.
    package struct Cookie: Sendable, Equatable {
        /// Random, base64url (16 bytes).
        var deviceID: String
        /// One mark per account that signed in on the device, newest last.
        var marks: [String]

        /// The cookie's value: `v1.<device>.<mark>.<mark>…`.
        var value: String { (["v1", deviceID] + marks).joined(separator: ".") }
    }

    /// Creates the device register with `key`, or a random key (known only to this process)
    /// when none is given.
    package init(key: [UInt8]? = nil) {
        self.keyBytes = key ?? SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// The key every instance on one store derives from the installation's audit key, so a
    /// browser known to one instance is known to all, and across restarts.
    package static func deriveKey(fromAuditKey auditKey: SymmetricKey) -> [UInt8] {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: auditKey, info: Data("vetnet sign-in devices v1".utf8), outputByteCount: 32)
        return derived.withUnsafeBytes { Array($0) }
    }

    /// The key a browser encrypts its offline copy of the practice's data with, for the
    /// session whose token hashes to `tokenHash`: an HMAC of the session under a key derived
    /// from this register's own. It is the same on every instance and across restarts, it is
    /// given only to that session (``AccountService/offlineDataKey(for:)``), and a new sign-in
    /// gets a different one, so a device's copy from an earlier session cannot be read with it.
    package func offlineDataKey(session tokenHash: String) -> String {
        let base = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Data("vetnet offline data v1".utf8), outputByteCount: 32)
        let code = HMAC<SHA256>.authenticationCode(for: Data(tokenHash.utf8), using: base)
        return TokenText.base64url(Data(code))
    }

    /// The key passkey challenges are signed with: derived from this register's own, so it is
    /// the same on every instance and across restarts.
    package func passkeyChallengeKey() -> [UInt8] {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Data("vetnet passkey challenges v1".utf8), outputByteCount: 32
        )
        .withUnsafeBytes { Array($0) }
    }

    /// Reads a cookie value; anything malformed is no cookie (never an error: the browser
    /// just counts as unknown).
    package func parse(_ value: String?) -> Cookie? {
        guard let value, value.utf8.count <= Self.maximumLength else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.count <= Self.maximumAccounts + 2, parts[0] == "v1",
            Self.isToken(parts[1], length: 22)
        else { return nil }
        let marks = parts.dropFirst(2).filter { Self.isToken($0, length: 22) }
        return Cookie(deviceID: parts[1], marks: Array(marks))
    }

    /// The device, when `cookie` carries the mark of `email`'s account.
    package func trustedDevice(_ cookie: Cookie?, email: String) -> String? {
        guard let cookie else { return nil }
        let expected = mark(device: cookie.deviceID, email: email)
        // Every mark is compared, each in constant time: the timing tells neither which mark
        // matched nor how much of one was right.
        let matched = cookie.marks.reduce(false) { found, mark in TokenText.constantTimeEqual(mark, expected) || found }
        return matched ? cookie.deviceID : nil
    }

    /// The cookie to give the browser after `email` signed in on it: the same device (a new
    /// one when it had none), with this account's mark last.
    package func remember(_ email: String, on cookie: Cookie?) -> Cookie {
        var next = cookie ?? Cookie(deviceID: Self.randomToken(), marks: [])
        let mark = mark(device: next.deviceID, email: email)
        next.marks.removeAll { $0 == mark }
        next.marks.append(mark)
        next.marks = Array(next.marks.suffix(Self.maximumAccounts))
        return next
    }

    /// The `Set-Cookie` value for `cookie`: only sign-in reads it, so its path is the sign-in's.
    package static func setCookieField(_ cookie: Cookie, secure: Bool) -> String {
        var text =
            "\(cookieName)=\(cookie.value); Path=/api/v1/auth; Max-Age=\(Int(lifetime)); SameSite=Strict; HttpOnly"
        if secure { text += "; Secure" }
        return text
    }

    /// The mark of `email`'s account on `device`: 16 bytes of HMAC-SHA256, base64url.
    private func mark(device: String, email: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("v1|\(device)|\(email.lowercased())".utf8), using: key)
        return TokenText.base64url(Data(code).prefix(16))
    }

    private static func randomToken() -> String {
        TokenText.base64url(Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }))
    }

    private static func isToken(_ text: String, length: Int) -> Bool {
        text.utf8.count == length
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x5F
            }
    }
}
