import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIRuntime
import SharedKernel

/// Holds every request to the OpenAPI document before a handler sees it:
///
/// - a declared path asked with an undeclared method gets 405 with `Allow`;
/// - query and header parameters are checked against their schemas;
/// - a JSON body is checked against the operation's schema — types, bounds, lengths,
///   patterns, enumerations, required and unknown fields — and refused with 422 naming every
///   bad field.
///
/// Handlers therefore start from input that is within the documented bounds, and the
/// document states exactly what the server enforces. Rules that need the store or the
/// domain (an appointment type that exists, a start before an end) stay with the handlers.
struct ContractMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext
    let contract: OpenAPIContract
    /// The most a JSON body may hold (the body limit has refused larger ones already).
    let bodyLimit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let route = contract.route(for: request.uri.path) else { return try await next(request, context) }
        // A HEAD is checked as the GET it answers like.
        guard let operation = route.operations[request.method == .head ? .get : request.method] else {
            throw APIError.methodNotAllowed(allowed: route.operations.keys.map(\.rawValue).sorted())
        }
        var errors = parameterErrors(request, operation)
        var request = request
        var raw: [UInt8]?
        let contentType = request.headers[.contentType]
        if let schema = operation.jsonBody, contentType == nil || Self.isJSON(contentType) {
            let buffer = try await request.collectBody(upTo: bodyLimit)
            if buffer.readableBytes == 0 {
                if operation.bodyRequired { errors.merge(missingBody(schema)) }
            } else if contentType == nil {
                // Not declared as JSON: left to the handler's decoder, as before.
            } else {
                let bytes = Array(buffer: buffer)
                // The strict reader first: a duplicate key would otherwise mean one thing here
                // (the first value) and another to a proxy that keeps the last.
                do { _ = try JSONReader.parse(bytes) } catch {
                    throw APIError.badRequest(
                        field: "body", message: "malformed JSON at byte \(error.offset): \(error.message)")
                }
                let body: JSONNode
                do { body = try JSONNode.parse(Data(bytes)) } catch {
                    throw APIError.badRequest(field: "body", message: "The request body is not well-formed JSON.")
                }
                contract.validator.validate(body, against: schema, path: "", into: &errors)
                raw = bytes
            }
        }
        if errors.shape { throw APIError.invalidRequest(errors.errors) }
        // Authorization comes before validation: a signed-in caller's out-of-bounds fields are
        // held for the handler, whose permission check answers 403 first or then throws them.
        // (Every handler of a signed-in operation checks the caller before reading the input.)
        if !errors.errors.isEmpty, RequestState.caller == nil { throw ValidationError(errors.errors) }
        let deferred = errors.errors.isEmpty ? nil : errors.errors
        do {
            return try await RequestState.$deferredValidation.withValue(deferred) {
                try await RequestState.$jsonBody.withValue(raw) { try await next(request, context) }
            }
        } catch let error as ServerError
            where deferred != nil
            && (error.underlyingError is DecodingError
                || String(describing: type(of: error.underlyingError)) == "RuntimeError")
        {
            // The generated code could not even read the input (a value outside an enumeration),
            // so no handler ran to check the role: the fields the contract found are the answer.
            throw ValidationError(deferred ?? [])
        }
    }

    /// What a required body that was not sent lacks: its confirmation when that is all the
    /// body must hold (a purge sent without `"confirm": "purge"` is a refusal naming
    /// `confirm`, as if `{}` had been sent); otherwise simply the body.
    private func missingBody(_ schema: JSONNode) -> SchemaFindings {
        var asEmpty = SchemaFindings()
        contract.validator.validate(.object([:]), against: schema, path: "", into: &asEmpty)
        if !asEmpty.errors.isEmpty, !asEmpty.shape { return asEmpty }
        var findings = SchemaFindings()
        findings.add("body", "is required", shape: true)
        return findings
    }

    private func parameterErrors(_ request: Request, _ operation: OpenAPIContract.Operation) -> SchemaFindings {
        var errors = SchemaFindings()
        let query = request.uri.queryParameters
        for parameter in operation.parameters {
            let texts: [String]
            switch parameter.location {
            case "query": texts = query.getAll(parameter.name).map { String($0) }
            case "header":
                guard let name = HTTPField.Name(parameter.name) else { continue }
                texts = request.headers[values: name]
            default: continue
            }
            guard !texts.isEmpty else {
                if parameter.required { errors.add(parameter.name, "is required", shape: true) }
                continue
            }
            let schema = contract.validator.resolve(parameter.schema)
            let value: JSONNode?
            if schema["type"]?.string == "array" {
                let itemSchema = contract.validator.resolve(schema["items"] ?? .object([:]))
                let items = texts.map { Self.coerce($0, to: itemSchema["type"]?.string) }
                value = items.contains(nil) ? nil : .array(items.compactMap { $0 })
            } else {
                if texts.count > 1 {
                    errors.add(parameter.name, "must be given once", shape: true)
                    continue
                }
                value = Self.coerce(texts[0], to: schema["type"]?.string)
            }
            guard let value else {
                errors.add(
                    parameter.name,
                    "must be \(Self.article(schema["type"]?.string ?? schema["items"]?["type"]?.string))", shape: true)
                continue
            }
            contract.validator.validate(value, against: schema, path: parameter.name, into: &errors)
        }
        return errors
    }

    /// Query and header text read as the schema's type; `nil` when it cannot be.
    private static func coerce(_ text: String, to type: String?) -> JSONNode? {
        switch type {
        case "integer":
            guard let number = Int64(text) else { return nil }
            return .number(Double(number))
        case "number":
            guard let number = Double(text), number.isFinite else { return nil }
            return .number(number)
        case "boolean":
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: return nil
            }
        default:
            return .string(text)
        }
    }

    private static func article(_ type: String?) -> String {
        switch type {
        case "integer": return "an integer"
        case "number": return "a number"
        case "boolean": return "true or false"
        default: return "valid"
        }
    }

    private static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType = contentType?.lowercased() else { return false }
        let essence = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return essence == "application/json" || essence.hasSuffix("+json")
    }
}
