import HTTPTypes
import Hummingbird
import Prometheus

/// `GET /metrics`: Prometheus text format for loopback scrapers or signed-in administrators.
enum MetricsEndpoint {
    static func respond(request: Request, context: VetNetRequestContext, registry: PrometheusCollectorRegistry?, accounts: AccountService) async throws -> Response {
        if !context.isLoopback {
            guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer "),
                  let caller = try await accounts.authenticate(token: String(header.dropFirst(7)), requestID: RequestState.requestID) else {
                throw APIError.unauthorized("Metrics are served to local scrapers or administrators.")
            }
            guard caller.account.role == .administrator else { throw HTTPError(.forbidden, message: "Metrics are for administrators.") }
        }
        var buffer: [UInt8] = []
        registry?.emit(into: &buffer)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }
}
