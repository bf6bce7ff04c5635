import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PracticeServices
import Prometheus

/// `GET /metrics`: Prometheus text format for the machine's operator — a scraper on the
/// loopback address, or one presenting the operator's metrics token (`VETNET_METRICS_TOKEN`).
/// The figures cover every practice on the machine, so a practice's own staff, administrators
/// included, are refused.
enum MetricsEndpoint {
    static func respond(
        request: Request, context: VetNetRequestContext, registry: PrometheusCollectorRegistry?, operatorToken: String?
    ) async throws -> Response {
        if !context.isLoopback {
            guard let operatorToken, !operatorToken.isEmpty, let header = request.headers[.authorization],
                header.lowercased().hasPrefix("bearer "),
                Self.same(String(header.dropFirst(7)), operatorToken)
            else {
                throw ServiceRefusal.unauthorized(
                    "Metrics are served to local scrapers or to the operator's metrics token.")
            }
        }
        var buffer: [UInt8] = []
        registry?.emit(into: &buffer)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
            body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
    }

    /// Compares digests, so the time taken does not tell how much of a guess was right.
    private static func same(_ presented: String, _ expected: String) -> Bool {
        SHA256.hash(data: Data(presented.utf8)) == SHA256.hash(data: Data(expected.utf8))
    }
}
