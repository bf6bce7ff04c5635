import Foundation

// MARK: - Editing the practice's settings

/// The settings an administrator changes; `nil` leaves a setting as it is. An empty phone or
/// address clears it.
public struct PracticeSettingsChange: Hashable, Sendable {
    public var name: String?
    public var timeZone: String?
    public var openingHours: [OpeningHours]?
    public var phone: String?
    public var address: String?
    public var slotGridMinutes: Int?
    public var defaultBufferMinutes: Int?
    public var services: [Specialty]?
    public var retentionYears: Int?
    public var secondFactorRoles: [Role]?

    /// Creates a change.
    public init(
        name: String? = nil, timeZone: String? = nil, openingHours: [OpeningHours]? = nil, phone: String? = nil,
        address: String? = nil, slotGridMinutes: Int? = nil, defaultBufferMinutes: Int? = nil,
        services: [Specialty]? = nil,
        retentionYears: Int? = nil, secondFactorRoles: [Role]? = nil
    ) {
        self.name = name
        self.timeZone = timeZone
        self.openingHours = openingHours
        self.phone = phone
        self.address = address
        self.slotGridMinutes = slotGridMinutes
        self.defaultBufferMinutes = defaultBufferMinutes
        self.services = services
        self.retentionYears = retentionYears
        self.secondFactorRoles = secondFactorRoles
    }

    /// The names of the settings this change sets, for the audit trail.
    public var fieldNames: [String] {
        [
            ("name", name != nil), ("timeZone", timeZone != nil), ("openingHours", openingHours != nil),
            ("phone", phone != nil),
            ("address", address != nil), ("slotGridMinutes", slotGridMinutes != nil),
            ("defaultBufferMinutes", defaultBufferMinutes != nil),
            ("services", services != nil), ("retentionYears", retentionYears != nil),
            ("secondFactorRoles", secondFactorRoles != nil),
        ].filter(\.1).map(\.0)
    }
}

extension PracticeProfile {
    /// The profile with `change` applied and validated.
    ///
    /// Appointments are instants; the practice's hours, rotas and closures are wall-clock
    /// times in its zone. Moving a practice that still has `openAppointments` to another zone
    /// would show every one of them at another local time, outside the hours it was booked in,
    /// so it is refused (409) with the count; with none left to come, the zone may change.
    public func applying(_ change: PracticeSettingsChange, openAppointments: Int) throws -> PracticeProfile {
        var next = self
        if let value = change.name { next.name = value }
        if let value = change.timeZone { next.timeZone = value }
        if let value = change.openingHours { next.openingHours = value }
        if let value = change.phone { next.phone = value.isEmpty ? nil : value }
        if let value = change.address { next.address = value.isEmpty ? nil : value }
        if let value = change.slotGridMinutes { next.slotGridMinutes = value }
        if let value = change.defaultBufferMinutes { next.defaultBufferMinutes = value }
        if let value = change.services { next.services = value }
        if let value = change.retentionYears { next.retentionYears = value }
        if let value = change.secondFactorRoles { next.secondFactorRoles = value }
        try next.validate()
        if next.timeZone != timeZone, openAppointments > 0 {
            throw DomainError.conflict(
                "The practice has \(openAppointments) appointment\(openAppointments == 1 ? "" : "s") still to come, "
                    + "booked in \(timeZone); "
                    + "in \(next.timeZone) \(openAppointments == 1 ? "it" : "they") would fall at other local times, "
                    + "outside the hours "
                    + "\(openAppointments == 1 ? "it was" : "they were") booked in. Move or cancel them first, then "
                    + "change the time zone."
            )
        }
        return next
    }

    /// The profile with `closure` added (validated; at most ``maxClosures``).
    public func adding(_ closure: PracticeClosure) throws -> PracticeProfile {
        try closure.validate()
        guard !closures.contains(where: { $0.id == closure.id }) else {
            throw DomainError.conflict("The closure already exists.")
        }
        var next = self
        next.closures.append(closure)
        next.closures.sort { ($0.firstDay, $0.fromMinute) < ($1.firstDay, $1.fromMinute) }
        guard next.closures.count <= Self.maxClosures else {
            throw ValidationError(
                field: "closures",
                message: "a practice keeps at most \(Self.maxClosures) closures; remove past ones first")
        }
        return next
    }

    /// The profile without the closure `id` (not found if it has no such closure).
    public func removingClosure(_ id: Identifier<PracticeClosure>) throws -> PracticeProfile {
        guard closures.contains(where: { $0.id == id }) else { throw DomainError.notFound(resource: "closure") }
        var next = self
        next.closures.removeAll { $0.id == id }
        return next
    }
}
