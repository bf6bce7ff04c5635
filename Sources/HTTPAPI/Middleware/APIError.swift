import PracticeServices
import SharedKernel

/// Failures that exist only at the HTTP edge (the domain's and the use cases' own errors,
/// ``ServiceRefusal`` among them, are mapped in `ProblemDetailsMiddleware.swift`).
enum APIError: Error, Sendable {
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
