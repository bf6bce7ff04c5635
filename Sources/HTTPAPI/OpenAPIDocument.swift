import Foundation

/// The OpenAPI document the server was generated from, served verbatim at `/openapi.yaml` and,
/// in its JSON form (the one the contract middleware checks requests against), at `/openapi.json`.
enum OpenAPIDocument {
    /// The YAML document.
    static let bytes = resource("openapi", "yaml", orElse: "openapi: 3.1.0\n")
    /// The JSON form.
    static let json = resource("openapi-contract", "json", orElse: #"{"openapi": "3.1.0"}"#)

    /// A bundled file's bytes, or `fallback` when the bundle lacks it.
    private static func resource(_ name: String, _ ext: String, orElse fallback: String) -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext), let data = try? Data(contentsOf: url)
        else {
            return Array(fallback.utf8)
        }
        return Array(data)
    }
}
