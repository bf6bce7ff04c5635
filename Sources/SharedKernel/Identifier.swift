import Foundation

/// A typed UUID identifier: `Identifier<Patient>` and `Identifier<Owner>` cannot be mixed up.
///
/// `Entity` is a phantom type; only the UUID is stored, so the identifier is `Sendable`
/// whatever the entity is.
public struct Identifier<Entity>: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The underlying UUID.
    public let rawValue: UUID

    /// Wraps an existing UUID.
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// A new random identifier.
    public init() { self.rawValue = UUID() }

    /// Parses the canonical textual form; `nil` when the text is not a UUID.
    public init?(uuidString: String) {
        guard let uuid = UUIDText.parse(uuidString) else { return nil }
        self.rawValue = uuid
    }

    /// Lower-case canonical UUID text, the form used on the wire and in the store.
    public var description: String { UUIDText.lowercase(rawValue) }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        UUIDText.lowercase(lhs.rawValue) < UUIDText.lowercase(rhs.rawValue)
    }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
