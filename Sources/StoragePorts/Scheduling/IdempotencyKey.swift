import Foundation

/// An `Idempotency-Key` sent with a create, and the fingerprint of the request it came with.
public struct IdempotencyKey: Sendable {
    /// The client's key (at most 200 characters).
    public let key: String
    /// A hash of the request body: the same key with a different body is an error, not a replay.
    public let fingerprint: String

    /// Creates a key.
    public init(key: String, fingerprint: String) {
        self.key = key
        self.fingerprint = fingerprint
    }

    /// How long a key is remembered: a client retries a create within minutes, not days, and
    /// the table would otherwise grow with every create for ever. After this a key may be reused.
    public static let retention: TimeInterval = 24 * 60 * 60
}
