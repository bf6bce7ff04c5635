import Foundation
import SharedKernel

/// A kind of appointment the practice offers ("Vaccination", "Cardiology consult", "Dental scale & polish").
public struct AppointmentType: Hashable, Codable, Sendable {
    /// Identifier.
    public var id: Identifier<AppointmentType>
    /// Name shown to staff and clients.
    public var name: String
    /// Minutes booked unless a prediction or the clinician says otherwise.
    public var defaultDurationMinutes: Int
    /// Minutes kept free after the appointment (notes, cleaning the room); neither the
    /// clinician nor the room can be booked during them.
    public var bufferAfterMinutes: Int
    /// Specialty the clinician must have, if any.
    public var requiredSpecialty: Specialty?
    /// Room the appointment needs, if any.
    public var requiredRoomType: RoomType?
    /// Standard fee.
    public var fee: Money
    /// When the practice stopped offering it; a retired type is kept (past appointments name it)
    /// but nothing new is offered or booked as it.
    public var retiredAt: Date?

    /// Whether the type is retired.
    public var isRetired: Bool { retiredAt != nil }

    /// Creates an appointment type.
    public init(
        id: Identifier<AppointmentType> = .init(), name: String, defaultDurationMinutes: Int,
        bufferAfterMinutes: Int = 0,
        requiredSpecialty: Specialty? = nil, requiredRoomType: RoomType? = nil, fee: Money
    ) {
        self.id = id
        self.name = name
        self.defaultDurationMinutes = defaultDurationMinutes
        self.bufferAfterMinutes = bufferAfterMinutes
        self.requiredSpecialty = requiredSpecialty
        self.requiredRoomType = requiredRoomType
        self.fee = fee
    }

    /// Checks the type, naming every bad field.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { errors.add("name", "must not be empty") }
        if trimmed.count > 80 { errors.add("name", "must be at most 80 characters") }
        // One working day is the longest anything is booked as a single appointment.
        if !(1...720).contains(defaultDurationMinutes) {
            errors.add("defaultDurationMinutes", "must be 1 to 720 minutes")
        }
        if !(0...240).contains(bufferAfterMinutes) { errors.add("bufferAfterMinutes", "must be 0 to 240 minutes") }
        fee.validate(field: "fee", into: &errors)
        try errors.throwIfAny()
    }
}
