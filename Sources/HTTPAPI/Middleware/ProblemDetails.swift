import Foundation
import HTTPTypes
import Hummingbird
import SharedKernel

/// An RFC 9457 problem document.
struct ProblemDetails: Encodable, Sendable {
    var type: String
    var title: String
    var status: Int
    var detail: String?
    var requestId: String?
    var errors: [FieldError]?

    init(status: HTTPResponse.Status, detail: String?, errors: [FieldError]? = nil) {
        self.type = "https://vetnet.dev/problems/\(status.code)"
        self.title = status.reasonPhrase
        self.status = status.code
        self.detail = detail
        self.errors = errors
    }

    /// The response carrying this problem, with any extra headers.
    func response(requestID: String, headers extra: HTTPFields = [:]) -> Response {
        var problem = self
        problem.requestId = requestID
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(problem)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        headers.append(contentsOf: extra)
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
