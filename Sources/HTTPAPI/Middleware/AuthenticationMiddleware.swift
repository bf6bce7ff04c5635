import HTTPTypes
import Hummingbird
import SharedKernel

/// Requires a live bearer session for everything under `/api/v1` except sign-in, and binds
/// the caller to the task for the handlers.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Segments as the router sees them (it skips empty ones), so `//api/v1/me` is under
        // `/api/v1` here too, even if it ever got past ``PathNormalizationMiddleware``.
        let segments = request.uri.path.split(separator: "/")
        guard segments.count > 2, segments[0] == "api", segments[1] == "v1", segments[2...] != ["auth", "login"] else {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            throw APIError.unauthorized("Sign in first: send Authorization: Bearer <token>.")
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let caller = try await accounts.authenticate(token: token, requestID: RequestState.requestID) else {
            throw APIError.unauthorized("The session has expired or was revoked; sign in again.")
        }
        var context = context
        context.logger[metadataKey: "user_id"] = .string(caller.account.id.description)
        return try await RequestState.$caller.withValue(caller) {
            try await next(request, context)
        }
    }
}
