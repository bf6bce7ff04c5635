/// One invalid field: its JSON path (`vitals.heartRate`) and why it was refused.
public struct FieldError: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Dotted path of the field in the input, as the client sent it.
    public let field: String
    /// A sentence a person can act on.
    public let message: String

    /// Creates a field error.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// Well-formed input that breaks a domain rule. Carries every bad field, not only the first,
/// so that a form can show all of its errors at once. Maps to HTTP 422.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// All invalid fields, in input order.
    public let errors: [FieldError]

    /// Creates an error from field errors; there is at least one.
    public init(_ errors: [FieldError]) {
        precondition(!errors.isEmpty, "a validation error names at least one field")
        self.errors = errors
    }

    /// Convenience for a single field.
    public init(field: String, message: String) {
        self.init([FieldError(field: field, message: message)])
    }

    public var description: String { errors.map(\.description).joined(separator: "; ") }

    /// A page's `cursor` that names nothing the listing returned.
    public static let unknownCursor = ValidationError(
        field: "cursor", message: "is not a cursor returned by the server")
}

/// Accumulates field errors while validating a whole input, then throws them together.
public struct FieldErrorCollector: Sendable {
    /// Errors found so far.
    public private(set) var errors: [FieldError] = []

    /// An empty collector.
    public init() {}

    /// Records an error for `field`.
    public mutating func add(_ field: String, _ message: String) {
        errors.append(FieldError(field: field, message: message))
    }

    /// Throws a ``ValidationError`` if anything was recorded.
    public func throwIfAny() throws(ValidationError) {
        if !errors.isEmpty { throw ValidationError(errors) }
    }
}
