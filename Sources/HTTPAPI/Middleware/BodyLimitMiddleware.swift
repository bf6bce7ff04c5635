import HTTPTypes
import Hummingbird

/// Refuses request bodies over the configured limit with 413 before any handler decodes them.
/// Document uploads have a limit of their own.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext
    let jsonLimit: Int
    let documentLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let maxBytes = request.method == .post && request.uri.path.hasSuffix("/documents") ? documentLimit : jsonLimit
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw APIError.payloadTooLarge(limit: maxBytes)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: maxBytes)
        }
        return try await next(request, context)
    }
}
