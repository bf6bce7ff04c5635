import Foundation
import HTTPTypes
import Hummingbird
import Logging
import OpenAPIRuntime
import PracticeServices
import SharedKernel
import StoragePorts

/// Turns every thrown error into a problem-details response. Known errors name the field
/// and the reason; anything unknown becomes an opaque 500 whose detail goes to the log only,
/// linked by the request id, and never with a value a database error carries
/// (``ErrorLogText``).
struct ProblemDetailsMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let (problem, headers) = Self.problem(for: error, logger: context.logger)
            return problem.response(requestID: RequestState.requestID, headers: headers)
        }
    }

    /// Maps an error to a problem and extra headers.
    static func problem(for error: any Error, logger: Logger) -> (ProblemDetails, HTTPFields) {
        switch error {
        case let error as ServerError:
            // The OpenAPI runtime wraps handler and decoding errors; the cause decides the answer.
            if error.underlyingError is ServerError || error.underlyingError is ValidationError
                || error.underlyingError is DomainError
                || error.underlyingError is APIError || error.underlyingError is DecodingError
                || error.underlyingError is HTTPError
                || error.underlyingError is UniquenessConflict
            {
                return problem(for: error.underlyingError, logger: logger)
            }
            if String(describing: type(of: error.underlyingError)) == "RuntimeError" {
                // Request-shape problems found by the generated code: wrong content type,
                // missing body, unparsable parameter. Their text names the part at fault.
                return (
                    ProblemDetails(
                        status: .badRequest, detail: "The request could not be read: \(error.underlyingError)"), [:]
                )
            }
            return problem(for: error.underlyingError, logger: logger)
        case let error as ValidationError:
            return (
                ProblemDetails(status: .unprocessableContent, detail: "Some fields are invalid.", errors: error.errors),
                [:]
            )
        case let error as DecodingError:
            let (field, message) = Self.describe(error)
            return (
                ProblemDetails(
                    status: .badRequest, detail: "The request body is not valid: \(field): \(message)",
                    errors: [FieldError(field: field, message: message)]), [:]
            )
        case let error as UniquenessConflict:
            return (
                ProblemDetails(
                    status: .conflict, detail: "\(error.field) \(error.message).",
                    errors: [FieldError(field: error.field, message: error.message)]), [:]
            )
        case let error as DomainError:
            switch error {
            case .notFound(let resource):
                return (ProblemDetails(status: .notFound, detail: "No such \(resource)."), [:])
            case .conflict(let message):
                return (ProblemDetails(status: .conflict, detail: message), [:])
            case .versionMismatch(let current):
                return (
                    ProblemDetails(
                        status: .preconditionFailed,
                        detail: "The resource changed since you read it; its current ETag is \"\(current)\"."),
                    [.eTag: "\"\(current)\""]
                )
            case .forbidden(let action):
                return (ProblemDetails(status: .forbidden, detail: "Your role may not \(action)."), [:])
            }
        case let error as ServiceRefusal:
            switch error {
            case .unauthorized(let message):
                return (ProblemDetails(status: .unauthorized, detail: message), [.wwwAuthenticate: "Bearer"])
            case .secondFactorRequired(let message):
                var problem = ProblemDetails(
                    status: .unauthorized, detail: message, errors: [FieldError(field: "code", message: message)])
                problem.type = "https://vetnet.dev/problems/second-factor-required"
                return (problem, [.wwwAuthenticate: "Bearer"])
            case .fullSignInRequired(let message):
                var problem = ProblemDetails(status: .unauthorized, detail: message)
                problem.type = "https://vetnet.dev/problems/full-sign-in-required"
                return (problem, [.wwwAuthenticate: "Bearer"])
            case .secondFactorSetUpRequired:
                var problem = ProblemDetails(
                    status: .forbidden,
                    detail:
                        "This practice asks your role to sign in with a second factor: set up an authenticator app "
                        + "first (your name at the top → Two-factor sign-in).")
                problem.type = "https://vetnet.dev/problems/second-factor-setup-required"
                return (problem, [:])
            case .busy(let detail, let seconds):
                return (ProblemDetails(status: .tooManyRequests, detail: detail), [.retryAfterHeader: String(seconds)])
            case .tooManyRequests(let seconds):
                return (
                    ProblemDetails(
                        status: .tooManyRequests, detail: "Too many failed attempts; try again in \(seconds) seconds."),
                    [.retryAfterHeader: String(seconds)]
                )
            }
        case let error as APIError:
            switch error {
            case .badRequest(let field, let message):
                return (
                    ProblemDetails(
                        status: .badRequest, detail: message,
                        errors: field.map { [FieldError(field: $0, message: message)] }), [:]
                )
            case .payloadTooLarge(let limit):
                return (
                    ProblemDetails(
                        status: .contentTooLarge, detail: "The request body exceeds the limit of \(limit) bytes."), [:]
                )
            case .invalidRequest(let errors):
                return (
                    ProblemDetails(
                        status: .badRequest,
                        detail: "The request is not valid: " + errors.map(\.description).joined(separator: "; "),
                        errors: errors), [:]
                )
            case .methodNotAllowed(let allowed):
                return (
                    ProblemDetails(
                        status: .methodNotAllowed, detail: "This path takes \(allowed.joined(separator: ", ")) only."),
                    [.allow: allowed.joined(separator: ", ")]
                )
            case .csrfRejected:
                return (
                    ProblemDetails(
                        status: .forbidden,
                        detail: "A change signed in with the session cookie needs the X-CSRF-Token header "
                            + "holding the vetnet_csrf cookie of the same sign-in; nothing was changed.",
                        errors: [
                            FieldError(field: "X-CSRF-Token", message: "is missing or does not belong to this session")
                        ]), [:]
                )
            }
        case let error as HTTPError:
            if error.status.code >= 500 {
                logger.error("request failed", metadata: ["error": "\(ErrorLogText.describe(error))"])
                return (
                    ProblemDetails(
                        status: .internalServerError,
                        detail: "An internal error occurred; quote the request id when reporting it."), [:]
                )
            }
            return (
                ProblemDetails(status: error.status, detail: error.body ?? error.status.reasonPhrase), error.headers
            )
        default:
            logger.error("request failed", metadata: ["error": "\(ErrorLogText.describe(error))"])
            return (
                ProblemDetails(
                    status: .internalServerError,
                    detail: "An internal error occurred; quote the request id when reporting it."), [:]
            )
        }
    }

    /// The JSON path and a reason for a decoding failure.
    static func describe(_ error: DecodingError) -> (String, String) {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            let trimmed = text.hasPrefix(".") ? String(text.dropFirst()) : text
            return trimmed.isEmpty ? "body" : trimmed.replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath + [key]), "is required")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "must be \(Self.jsonTypeName(type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "must be \(Self.jsonTypeName(type)), not null")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return ("body", "is not well-formed JSON") }
            return (path(context.codingPath), "has an invalid value")
        @unknown default:
            return ("body", "is not valid")
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            return "an object"
        }
    }
}
