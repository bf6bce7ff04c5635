import Foundation
import SharedKernel

/// Kinds of room an appointment can need.
public enum RoomType: String, CaseIterable, Codable, Sendable {
    /// Consultation room.
    case exam
    /// Operating theatre.
    case surgery
    /// Dental suite.
    case dental
    /// X-ray, ultrasound, CT.
    case imaging
    /// Isolation ward for infectious patients.
    case isolation
}

/// A bookable room. Rooms of one type are interchangeable, so scheduling only counts how
/// many of a type are in use at once.
public struct Room: Hashable, Codable, Sendable {
    /// Identifier.
    public var id: Identifier<Room>
    /// Name on the door, e.g. "Consult 2".
    public var name: String
    /// What the room is equipped for.
    public var type: RoomType
    /// Out-of-service rooms (refurbishment, broken equipment) are not counted as capacity.
    public var isActive: Bool

    /// Creates a room.
    public init(id: Identifier<Room> = .init(), name: String, type: RoomType, isActive: Bool = true) {
        self.id = id
        self.name = name
        self.type = type
        self.isActive = isActive
    }

    /// Checks the room.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { errors.add("name", "must not be empty") }
        if trimmed.count > 60 { errors.add("name", "must be at most 60 characters") }
        try errors.throwIfAny()
    }

    /// Active rooms per type: the room capacity the free-slot finder works with.
    public static func capacity(of rooms: [Room]) -> [RoomType: Int] {
        rooms.reduce(into: [:]) { counts, room in if room.isActive { counts[room.type, default: 0] += 1 } }
    }
}
