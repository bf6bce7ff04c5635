import Foundation

/// The OpenAPI document the server was generated from, served verbatim at `/openapi.yaml`.
enum OpenAPIDocument {
    static let bytes: [UInt8] = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
              let data = try? Data(contentsOf: url) else { return Array("openapi: 3.1.0\n".utf8) }
        return Array(data)
    }()
}
