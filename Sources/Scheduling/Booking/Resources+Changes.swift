import Foundation
import SharedKernel

/// A change to an appointment type: the fields given change, the others stay.
public struct AppointmentTypeChange: Sendable {
    public var name: String?
    public var defaultDurationMinutes: Int?
    public var bufferAfterMinutes: Int?
    public var fee: Money?
    /// A new required specialty; `.some(nil)` removes the requirement.
    public var requiredSpecialty: Specialty??
    /// A new required room type; `.some(nil)` removes the requirement.
    public var requiredRoomType: RoomType??

    /// Creates a change.
    public init(
        name: String? = nil, defaultDurationMinutes: Int? = nil, bufferAfterMinutes: Int? = nil, fee: Money? = nil,
        requiredSpecialty: Specialty?? = nil, requiredRoomType: RoomType?? = nil
    ) {
        self.name = name
        self.defaultDurationMinutes = defaultDurationMinutes
        self.bufferAfterMinutes = bufferAfterMinutes
        self.fee = fee
        self.requiredSpecialty = requiredSpecialty
        self.requiredRoomType = requiredRoomType
    }
}

extension AppointmentType {
    /// The type with `change` applied and checked, naming every bad field. A retired type is
    /// not changed (a conflict): it is kept as it was when past appointments were booked.
    public func applying(_ change: AppointmentTypeChange) throws -> AppointmentType {
        guard !isRetired else { throw DomainError.conflict("the appointment type is retired") }
        var next = self
        if let name = change.name { next.name = name.trimmingCharacters(in: .whitespaces) }
        if let minutes = change.defaultDurationMinutes { next.defaultDurationMinutes = minutes }
        if let minutes = change.bufferAfterMinutes { next.bufferAfterMinutes = minutes }
        if let fee = change.fee { next.fee = fee }
        if let specialty = change.requiredSpecialty { next.requiredSpecialty = specialty }
        if let roomType = change.requiredRoomType { next.requiredRoomType = roomType }
        try next.validate()
        return next
    }

    /// The type retired at `now`; retiring it again is a conflict.
    public func retired(at now: Date) throws -> AppointmentType {
        guard !isRetired else { throw DomainError.conflict("the appointment type is already retired") }
        var next = self
        next.retiredAt = now
        return next
    }
}

/// A change to a room: the fields given change, the others stay. Out of service is
/// `isActive: false`: the free-slot finder stops counting the room, bookings in it stay.
public struct RoomChange: Sendable {
    public var name: String?
    public var type: RoomType?
    public var isActive: Bool?

    /// Creates a change.
    public init(name: String? = nil, type: RoomType? = nil, isActive: Bool? = nil) {
        self.name = name
        self.type = type
        self.isActive = isActive
    }
}

extension Room {
    /// The room with `change` applied and checked.
    public func applying(_ change: RoomChange) throws(ValidationError) -> Room {
        var next = self
        if let name = change.name { next.name = name.trimmingCharacters(in: .whitespaces) }
        if let type = change.type { next.type = type }
        if let active = change.isActive { next.isActive = active }
        try next.validate()
        return next
    }
}
