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
