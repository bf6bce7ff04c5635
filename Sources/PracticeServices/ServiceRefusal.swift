/// Refusals that belong to no one domain context but to a use case of the practice: a sign-in
/// that fails or is throttled, work of the practice that is already running. The delivery
/// layer maps each to its answer (401, 429 with `Retry-After`).
public enum ServiceRefusal: Error, Sendable {
    /// No usable credentials: the email or password is wrong, or the session is expired or revoked.
    case unauthorized(String)
    /// Too many failed attempts; retry after the given number of seconds.
    case tooManyRequests(retryAfterSeconds: Int)
    /// The work asked for is already running for the practice; retry after the given number of seconds.
    case busy(detail: String, retryAfterSeconds: Int)
}
