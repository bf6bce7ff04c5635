import HTTPTypes
import Hummingbird

/// Refuses request bodies over the configured limit with 413 before any handler decodes them.
/// Document uploads — the declared upload operation only, not any path that ends like it —
/// have a limit of their own, and are not read here: the upload handler encrypts them to disk
/// as they arrive and stops at that limit, so no upload is ever held in memory whole.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext
    let jsonLimit: Int
    let documentLimit: Int
    let contract: OpenAPIContract

    /// The path template of the one operation that takes document-sized bodies.
    static let uploadTemplate = "/api/v1/patients/{patientId}/documents"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let isUpload = request.method == .post && contract.route(for: request.uri.path)?.template == Self.uploadTemplate
        let maxBytes = isUpload ? documentLimit : jsonLimit
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw APIError.payloadTooLarge(limit: maxBytes)
        }
        if isUpload { return try await next(request, context) }
        var request = request
        do {
            _ = try await request.collectBody(upTo: maxBytes)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: maxBytes)
        }
        return try await next(request, context)
    }
}
