import HTTPTypes
import Hummingbird

/// Installed when the server speaks TLS itself: marks the request as received over TLS (so the
/// session cookies are `Secure` whatever the headers say) and tells the browser, on every
/// answer, to use only HTTPS for this host for a year (HSTS), so a later visit typed as
/// `http://` never leaves the device in the clear.
struct StrictTransportSecurityMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext

    /// The policy: a year; subdomains are the practice's to decide, so they are not included.
    static let value = "max-age=31536000"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await RequestState.$servedOverTLS.withValue(true) { try await next(request, context) }
        response.headers[.strictTransportSecurity] = Self.value
        return response
    }
}
