/// Failures that every bounded context can raise and that the delivery layer maps to HTTP.
public enum DomainError: Error, Hashable, Sendable {
    /// The resource does not exist *in the caller's practice* (another practice's id is
    /// indistinguishable from a missing one).
    case notFound(resource: String)
    /// The change collides with the current state (a slot just taken, a duplicate email).
    case conflict(String)
    /// The caller's `If-Match` version is not the current one.
    case versionMismatch(current: Int)
    /// The caller's role does not allow the action.
    case forbidden(action: String)
}

extension Optional {
    /// The value, or ``DomainError/notFound(resource:)`` naming `resource` when there is none:
    /// a read that finds nothing in the caller's practice answers the same 404 everywhere.
    public func orNotFound(_ resource: String) throws(DomainError) -> Wrapped {
        guard let self else { throw .notFound(resource: resource) }
        return self
    }
}

/// A value that must be unique — a microchip, a room's name, an account's email — is already
/// taken. Maps to HTTP 409 naming the field: the request was well formed, it collides with
/// what exists.
public struct UniquenessConflict: Error, Hashable, Sendable, CustomStringConvertible {
    /// The field whose value is taken.
    public let field: String
    /// Why, for a person.
    public let message: String

    /// Creates the conflict.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}
