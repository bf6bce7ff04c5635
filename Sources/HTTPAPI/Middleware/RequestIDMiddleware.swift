import Foundation
import HTTPTypes
import Hummingbird
import PracticeServices
import SharedKernel

/// Gives every request an id, echoes it as `X-Request-Id` and binds it (and the client
/// address) to the task so logs, audit entries and problem bodies all carry the same id.
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext
    /// Peers believed when they name the client in `X-Forwarded-For`.
    var trustedProxies: TrustedProxies = .none

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let receivedAt = ContinuousClock.now
        let id = UUIDText.lowercase(UUID())
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        let response = try await RequestState.$requestID.withValue(id) {
            let client = trustedProxies.client(
                peer: context.clientAddress, forwardedFor: request.headers[.xForwardedFor])
            return try await RequestState.$clientAddress.withValue(client) {
                try await RequestState.$receivedAt.withValue(receivedAt) {
                    try await RequestState.$connectionClosed.withValue(context.connectionClosed) {
                        try await next(request, context)
                    }
                }
            }
        }
        var headers = response.headers
        headers[.requestID] = id
        // The OpenAPI runtime percent-encodes header values, which would turn the quotes an
        // entity tag requires (RFC 9110 §8.8.3) into %22; restore them.
        if let etag = headers[.eTag], etag.contains("%") { headers[.eTag] = etag.removingPercentEncoding }
        // So would it the `; filename="…"` of a report download (RFC 6266).
        if let disposition = headers[.contentDisposition], disposition.contains("%") {
            headers[.contentDisposition] = disposition.removingPercentEncoding
        }
        var result = response
        result.headers = headers
        return result
    }
}

extension HTTPField.Name {
    /// `X-Request-Id`.
    static let requestID = Self("X-Request-Id")!
    /// `Retry-After`.
    static let retryAfterHeader = Self("Retry-After")!
    /// `X-Forwarded-For`.
    static let xForwardedFor = Self("X-Forwarded-For")!
}
