import HTTPTypes
import Hummingbird

/// Lets every client that names what it accepts also receive a problem document.
///
/// Errors are RFC 9457 problem details (`application/problem+json`) whatever the operation
/// answers when it succeeds, so a client sending `Accept: application/json` must get the 409
/// or 422 it caused, not a 400 about the error's media type. The generated handlers check
/// `Accept` against the response they return; adding `application/problem+json` to a present
/// `Accept` keeps their check for successful answers and lets the problems through.
struct ProblemAcceptMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let accept = request.headers[.accept], !accept.lowercased().contains(Self.problem) else {
            return try await next(request, context)
        }
        var head = request.head
        head.headerFields.append(HTTPField(name: .accept, value: Self.problem))
        return try await next(Request(head: head, body: request.body), context)
    }

    /// The media type of every error answer.
    static let problem = "application/problem+json"
}
