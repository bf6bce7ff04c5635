import HTTPTypes
import Hummingbird
import PracticeServices
import SharedKernel

/// Requires a live session for everything under `/api/v1` except signing in (by password or,
/// on a shared device, by PIN) and asking whether this browser is a shared device, and binds
/// the caller to the task for the handlers.
///
/// The session is the bearer token of the `Authorization` header or, when there is none, the
/// browser's `vetnet_session` cookie. A cookie is sent by the browser whichever page caused
/// the request, so a cookie-authenticated POST, PUT, PATCH or DELETE must also carry
/// `X-CSRF-Token` matching the session (see ``SessionCookie``); otherwise it is refused
/// before the store is touched.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext
    let accounts: AccountService

    /// The paths under `/api/v1` that need no session (`security: []` in the document).
    static let open: Set<String> = ["auth/login", "auth/unlock", "auth/workstation", "auth/passkey-challenge"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Segments as the router sees them (it skips empty ones), so `//api/v1/me` is under
        // `/api/v1` here too, even if it ever got past ``PathNormalizationMiddleware``.
        let segments = request.uri.path.split(separator: "/")
        guard segments.count > 2, segments[0] == "api", segments[1] == "v1",
            !Self.open.contains(segments[2...].joined(separator: "/"))
        else {
            return try await next(request, context)
        }
        let token: String
        let fromCookie: Bool
        if let header = request.headers[.authorization] {
            guard header.lowercased().hasPrefix("bearer ") else {
                throw ServiceRefusal.unauthorized("Sign in first: send Authorization: Bearer <token>.")
            }
            token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
            fromCookie = false
        } else if let cookie = SessionCookie.value(named: SessionCookie.sessionName, in: request.headers) {
            token = cookie
            fromCookie = true
            if !Self.isSafe(request.method),
                !SessionCookie.csrfMatches(request.headers[SessionCookie.csrfHeader], sessionToken: token)
            {
                throw APIError.csrfRejected
            }
        } else {
            throw ServiceRefusal.unauthorized("Sign in first: send Authorization: Bearer <token>.")
        }
        guard let caller = try await accounts.authenticate(token: token, requestID: RequestState.requestID) else {
            // The browser should stop sending a cookie whose session is over.
            if fromCookie { SessionCookieInstructions.current?.clear() }
            throw ServiceRefusal.unauthorized("The session has expired or was revoked; sign in again.")
        }
        var context = context
        context.logger[metadataKey: "user_id"] = .string(caller.account.id.description)
        return try await RequestState.$caller.withValue(caller) {
            try await next(request, context)
        }
    }

    /// Methods that change nothing (RFC 9110 §9.2.1), which a cookie may authenticate alone.
    static func isSafe(_ method: HTTPRequest.Method) -> Bool {
        method == .get || method == .head || method == .options
    }
}
