import Foundation
import SharedKernel

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

extension IdempotencyKey {
    /// A claim found under this key: a replay when it was made by `operation` with this
    /// request's fingerprint, refused otherwise (the same key sent with another request).
    public func replaying(_ operation: AuditAction, claimedBy storedOperation: String, fingerprint stored: String)
        throws
    {
        guard storedOperation == operation.name, stored == fingerprint else {
            throw DomainError.conflict("This Idempotency-Key was already used for a different request.")
        }
    }
}

extension AuditRecord {
    /// A create answered again from its first response: filed under the resource word of the
    /// operation's own name (`patient` of `patient.create`, `record` of `record.visit.add`).
    public static func replay(of operation: AuditAction, resourceID: String) -> AuditRecord {
        var record = AuditRecord(action: .replay(of: operation), resourceType: .practice, resourceID: resourceID)
        record.resourceType = operation.resourceType
        return record
    }
}
