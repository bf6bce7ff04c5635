import Crypto
import Dispatch
import Foundation
import HummingbirdBcrypt
import SharedKernel

/// bcrypt over a SHA-256 pre-hash. bcrypt silently ignores everything after 72 bytes, so a
/// long passphrase is first reduced to its 64-character hex digest; the cost is at least 12.
public struct PasswordHasher: Sendable {
    /// bcrypt work factor (log2 rounds).
    public let cost: UInt8

    /// Creates a hasher; the cost is never below 12.
    public init(cost: UInt8 = 12) { self.cost = max(cost, 12) }

    /// A hasher below the minimum, for the package's own tests: their hundreds of sign-ins then
    /// take microseconds each instead of a quarter second of one core. The server and the
    /// command line use ``init(cost:)``; a hash records its cost, so a stored hash of either
    /// kind verifies with any hasher.
    package init(testingCost cost: UInt8) { self.cost = cost }

    /// Hashes a password (CPU-heavy: runs off the cooperative thread pool).
    public func hash(_ password: String) async -> String {
        let input = Self.prehash(password)
        let cost = self.cost
        return await Self.offload { Bcrypt.hash(input, cost: cost) }
    }

    /// Checks a password against a stored hash (constant-time inside bcrypt).
    public func verify(_ password: String, against hash: String) async -> Bool {
        let input = Self.prehash(password)
        return await Self.offload { Bcrypt.verify(input, hash: hash) }
    }

    /// A valid hash of an unguessable secret, verified against when the email is unknown so
    /// that an unknown account takes as long to refuse as a wrong password.
    static let decoyHash = Bcrypt.hash(UUID().uuidString, cost: 12)

    static func prehash(_ password: String) -> String {
        Hex.encode(SHA256.hash(data: Data(password.utf8)))
    }

    /// bcrypt blocks its thread for a quarter second; keep it off Swift's cooperative pool
    /// (two threads on a two-core machine) so other requests keep flowing.
    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
