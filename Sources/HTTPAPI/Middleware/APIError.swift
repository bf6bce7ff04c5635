import SharedKernel

/// Failures that exist only at the HTTP edge (the domain's own errors are mapped in
/// `ProblemDetails+Mapping.swift`).
enum APIError: Error, Sendable {
    /// No bearer token, or it is expired or revoked.
    case unauthorized(String)
    /// Too many failed attempts; retry after the given number of seconds.
    case tooManyRequests(retryAfterSeconds: Int)
    /// The work asked for is already running for the practice; retry after the given number of seconds.
    case busy(detail: String, retryAfterSeconds: Int)
    /// Malformed request: a parameter or body field that cannot be read.
    case badRequest(field: String?, message: String)
    /// The body exceeds the limit.
    case payloadTooLarge(limit: Int)
    /// The request's shape is wrong: wrong JSON types, missing or unknown fields, values
    /// outside an enumeration; every field named.
    case invalidRequest([FieldError])
    /// The path exists but does not take this method; `allowed` lists the methods it takes.
    case methodNotAllowed(allowed: [String])
    /// A change authenticated by the session cookie without the session's `X-CSRF-Token`.
    case csrfRejected
}
