import Foundation
import HTTPTypes
import SharedKernel

/// The OpenAPI document read as data: every declared path, the methods each allows and what
/// each operation accepts. ``ContractMiddleware`` uses it to answer undeclared methods with
/// 405 and to check every request against the document before a handler sees it.
///
/// The document is `openapi.yaml`; its JSON form `openapi-contract.json` (written by
/// `scripts/openapi-contract.py`, checked in CI to match) is what the server reads, because
/// Foundation reads JSON and not YAML.
struct OpenAPIContract: Sendable {
    /// One declared path template, e.g. `/api/v1/patients/{patientId}`.
    struct Route: Sendable {
        /// The template as declared.
        let template: String
        /// Segments: a literal, or `nil` for a `{parameter}`.
        let segments: [String?]
        /// Declared methods and their operations.
        let operations: [HTTPRequest.Method: Operation]
    }

    /// What one operation accepts.
    struct Operation: Sendable {
        /// Parameters (path-level ones merged in).
        let parameters: [Parameter]
        /// The JSON body schema, when the operation takes JSON.
        let jsonBody: JSONNode?
        /// Whether a body is required.
        let bodyRequired: Bool
    }

    /// One query or header parameter.
    struct Parameter: Sendable {
        let name: String
        let location: String
        let required: Bool
        let schema: JSONNode
    }

    /// Every declared route.
    let routes: [Route]
    /// Resolves references and checks values.
    let validator: SchemaValidator

    /// The contract of the document bundled with the server.
    static let bundled: OpenAPIContract = {
        guard let url = Bundle.module.url(forResource: "openapi-contract", withExtension: "json"),
            let data = try? Data(contentsOf: url), let document = try? JSONNode.parse(data)
        else {
            return OpenAPIContract(document: .object([:]))
        }
        return OpenAPIContract(document: document)
    }()

    /// Reads the routes of `document`.
    init(document: JSONNode) {
        validator = SchemaValidator(document: document)
        var routes: [Route] = []
        for (template, item) in document["paths"]?.object ?? [:] {
            let shared = item["parameters"]?.array ?? []
            var operations: [HTTPRequest.Method: Operation] = [:]
            for (name, operation) in item.object ?? [:] {
                guard let method = HTTPRequest.Method(name.uppercased()), case .object = operation, name != "parameters"
                else { continue }
                operations[method] = Self.operation(operation, shared: shared, validator: validator)
            }
            let segments = template.split(separator: "/").map { $0.hasPrefix("{") ? nil : String($0) }
            routes.append(Route(template: template, segments: segments, operations: operations))
        }
        // Literal segments win over parameters (`/appointments/slots` before `/appointments/{id}`).
        self.routes = routes.sorted {
            $0.segments.map { $0 == nil ? 1 : 0 }.lexicographicallyPrecedes($1.segments.map { $0 == nil ? 1 : 0 })
        }
    }

    /// The route whose template matches `path`, if any.
    func route(for path: String) -> Route? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        return routes.first { route in
            route.segments.count == parts.count
                && zip(route.segments, parts).allSatisfy { segment, part in segment.map { $0 == part } ?? true }
        }
    }

    private static func operation(_ operation: JSONNode, shared: [JSONNode], validator: SchemaValidator) -> Operation {
        var byKey: [String: Parameter] = [:]
        for raw in shared + (operation["parameters"]?.array ?? []) {
            let parameter = validator.resolve(raw)
            guard let name = parameter["name"]?.string, let location = parameter["in"]?.string else { continue }
            byKey["\(location):\(name.lowercased())"] = Parameter(
                name: name, location: location, required: parameter["required"]?.bool ?? false,
                schema: parameter["schema"] ?? .object([:]))
        }
        let body = operation["requestBody"].map(validator.resolve)
        let json = body?["content"]?["application/json"]?["schema"]
        return Operation(
            parameters: byKey.values.sorted { $0.name < $1.name }, jsonBody: json,
            bodyRequired: body?["required"]?.bool ?? false)
    }
}
