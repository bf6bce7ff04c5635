/// Refusals that belong to no one domain context but to a use case of the practice: a sign-in
/// that fails or is throttled, work of the practice that is already running. The delivery
/// layer maps each to its answer (401, 429 with `Retry-After`).
public enum ServiceRefusal: Error, Sendable {
    /// No usable credentials: the email or password is wrong, or the session is expired or revoked.
    case unauthorized(String)
    /// The password was right but the account signs in with a second factor too: a code is
    /// missing or was not valid.
    case secondFactorRequired(String)
    /// The practice asks a second factor of the caller's role and they have not set one up:
    /// the session may do nothing else yet.
    case secondFactorSetUpRequired
    /// A PIN unlock on a shared device more than 12 hours after the person's last full sign-in
    /// there (or one that did not prove a second factor the practice asks of them).
    case fullSignInRequired(String)
    /// Too many failed attempts; retry after the given number of seconds.
    case tooManyRequests(retryAfterSeconds: Int)
    /// The work asked for is already running for the practice; retry after the given number of seconds.
    case busy(detail: String, retryAfterSeconds: Int)
}
