import Foundation

/// A practice's identity, opening hours, closures and scheduling settings. The time zone
/// defines what "a day" means for its schedule.
public struct PracticeProfile: Codable, Hashable, Sendable {
    /// Identifier.
    public var id: PracticeID
    /// Trading name.
    public var name: String
    /// IANA time zone, e.g. `Europe/London`.
    public var timeZone: String
    /// Opening hours per weekday (1 = Monday … 7 = Sunday), local times.
    public var openingHours: [OpeningHours]
    /// Front-desk phone.
    public var phone: String?
    /// Postal address.
    public var address: String?
    /// Bank holidays and other practice-wide closures (see ``PracticeClosure``).
    public var closures: [PracticeClosure]
    /// Booking grid in minutes: appointments start on multiples of it after local midnight.
    public var slotGridMinutes: Int
    /// Buffer after an appointment that a new appointment type gets unless it states its own.
    public var defaultBufferMinutes: Int
    /// Services the practice offers; empty when it has not said (then nothing is refused for it).
    public var services: [Specialty]
    /// Years an archived patient's record is kept before a purge may remove it.
    public var retentionYears: Int
    /// Roles whose members must sign in with a second factor (see ``requiresSecondFactor(_:)``);
    /// administrators by default.
    public var secondFactorRoles: [Role]

    /// Grids a practice may choose: they divide an hour, so daylight-saving shifts keep round times.
    public static let slotGrids = [5, 10, 15, 20, 30, 60]
    /// Allowed default buffers, in minutes.
    public static let defaultBuffers = 0...240
    /// Allowed retention, in whole years.
    public static let retentionRange = 1...100
    /// Most closures a practice keeps.
    public static let maxClosures = 500
    /// Longest name, in characters.
    public static let maxNameLength = 120

    /// Creates a profile.
    public init(
        id: PracticeID, name: String, timeZone: String, openingHours: [OpeningHours], phone: String? = nil,
        address: String? = nil,
        closures: [PracticeClosure] = [], slotGridMinutes: Int = 5, defaultBufferMinutes: Int = 0,
        services: [Specialty] = [],
        retentionYears: Int = 7, secondFactorRoles: [Role] = PracticeProfile.defaultSecondFactorRoles
    ) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.openingHours = openingHours
        self.phone = phone
        self.address = address
        self.closures = closures
        self.slotGridMinutes = slotGridMinutes
        self.defaultBufferMinutes = defaultBufferMinutes
        self.services = services
        self.retentionYears = retentionYears
        self.secondFactorRoles = secondFactorRoles
    }

    /// The roles a new practice asks a second factor of: the administrator's password alone
    /// would open staff accounts, the audit trail and the purge.
    public static let defaultSecondFactorRoles: [Role] = [.administrator]

    /// Whether a member of `role` must sign in with a second factor in this practice. Until
    /// they have one, their session may only set one up (see ``Permission``).
    public func requiresSecondFactor(_ role: Role) -> Bool { secondFactorRoles.contains(role) }

    /// Checks every setting and reports every bad field at once.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { errors.add("name", "must not be empty") }
        if trimmed.count > Self.maxNameLength { errors.add("name", "must be at most \(Self.maxNameLength) characters") }
        if TimeZone(identifier: timeZone) == nil { errors.add("timeZone", "'\(timeZone)' is not an IANA time zone") }
        for (index, hours) in openingHours.enumerated() {
            if !(1...7).contains(hours.weekday) {
                errors.add("openingHours[\(index)].weekday", "must be 1 (Monday) to 7 (Sunday)")
            }
            if hours.opensMinute >= hours.closesMinute {
                errors.add("openingHours[\(index)]", "must open before it closes")
            }
            if let earlier = openingHours[..<index].firstIndex(where: { $0.overlaps(hours) }) {
                errors.add("openingHours[\(index)]", "overlaps openingHours[\(earlier)] on the same weekday")
            }
        }
        OpeningHours.validateMinutes(openingHours, into: &errors)
        if let phone, phone.count > 40 { errors.add("phone", "must be at most 40 characters") }
        if let address, address.count > 400 { errors.add("address", "must be at most 400 characters") }
        if !Self.slotGrids.contains(slotGridMinutes) {
            errors.add(
                "slotGridMinutes", "must be one of \(Self.slotGrids.map(String.init).joined(separator: ", ")) minutes")
        }
        if !Self.defaultBuffers.contains(defaultBufferMinutes) {
            errors.add("defaultBufferMinutes", "must be 0 to 240 minutes")
        }
        if !Self.retentionRange.contains(retentionYears) {
            errors.add("retentionYears", "must be between 1 and 100 years")
        }
        for (index, role) in secondFactorRoles.enumerated() where secondFactorRoles[..<index].contains(role) {
            errors.add("secondFactorRoles[\(index)]", "repeats \(role.rawValue)")
        }
        for (index, service) in services.enumerated() where services[..<index].contains(service) {
            errors.add("services[\(index)]", "repeats \(service.rawValue)")
        }
        if closures.count > Self.maxClosures {
            errors.add("closures", "must hold at most \(Self.maxClosures) closures")
        }
        for (index, closure) in closures.enumerated() { closure.validate(field: "closures[\(index)]", into: &errors) }
        try errors.throwIfAny()
    }

    /// Whether the practice says it offers `specialty` (always true when it has listed no services).
    public func offers(_ specialty: Specialty) -> Bool { services.isEmpty || services.contains(specialty) }

    // MARK: - Codable (exports written before the settings existed still read, with the defaults)

    private enum CodingKeys: String, CodingKey {
        case id, name, timeZone, openingHours, phone, address, closures, slotGridMinutes, defaultBufferMinutes,
            services, retentionYears, secondFactorRoles
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(PracticeID.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            timeZone: try container.decode(String.self, forKey: .timeZone),
            openingHours: try container.decode([OpeningHours].self, forKey: .openingHours),
            phone: try container.decodeIfPresent(String.self, forKey: .phone),
            address: try container.decodeIfPresent(String.self, forKey: .address),
            closures: try container.decodeIfPresent([PracticeClosure].self, forKey: .closures) ?? [],
            slotGridMinutes: try container.decodeIfPresent(Int.self, forKey: .slotGridMinutes) ?? 5,
            defaultBufferMinutes: try container.decodeIfPresent(Int.self, forKey: .defaultBufferMinutes) ?? 0,
            services: try container.decodeIfPresent([Specialty].self, forKey: .services) ?? [],
            retentionYears: try container.decodeIfPresent(Int.self, forKey: .retentionYears) ?? 7,
            secondFactorRoles: try container.decodeIfPresent([Role].self, forKey: .secondFactorRoles)
                ?? Self.defaultSecondFactorRoles)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(timeZone, forKey: .timeZone)
        try container.encode(openingHours, forKey: .openingHours)
        try container.encodeIfPresent(phone, forKey: .phone)
        try container.encodeIfPresent(address, forKey: .address)
        try container.encode(closures, forKey: .closures)
        try container.encode(slotGridMinutes, forKey: .slotGridMinutes)
        try container.encode(defaultBufferMinutes, forKey: .defaultBufferMinutes)
        try container.encode(services, forKey: .services)
        try container.encode(retentionYears, forKey: .retentionYears)
        try container.encode(secondFactorRoles, forKey: .secondFactorRoles)
    }
}

/// One opening interval on a weekday, in minutes after local midnight.
public struct OpeningHours: Codable, Hashable, Sendable {
    /// ISO weekday, 1 = Monday … 7 = Sunday.
    public var weekday: Int
    /// Opening time, minutes after local midnight.
    public var opensMinute: Int
    /// Closing time, minutes after local midnight.
    public var closesMinute: Int

    /// Creates an interval.
    public init(weekday: Int, opensMinute: Int, closesMinute: Int) {
        self.weekday = weekday
        self.opensMinute = opensMinute
        self.closesMinute = closesMinute
    }

    /// Whether the two intervals fall on the same weekday and share a minute.
    public func overlaps(_ other: OpeningHours) -> Bool {
        weekday == other.weekday && opensMinute < other.closesMinute && other.opensMinute < closesMinute
    }

    /// Adds an error for each opening or closing time outside the day (opening 0–1439,
    /// closing 1–1440, where 1440 is the following midnight): a calendar cannot place
    /// minute 10 000 000 of a day.
    public static func validateMinutes(_ hours: [OpeningHours], into errors: inout FieldErrorCollector) {
        for (index, interval) in hours.enumerated() {
            if !(0...1439).contains(interval.opensMinute) {
                errors.add("openingHours[\(index)].opensMinute", "must be 0 to 1439 minutes after midnight")
            }
            if !(1...1440).contains(interval.closesMinute) {
                errors.add("openingHours[\(index)].closesMinute", "must be 1 to 1440 minutes after midnight")
            }
        }
    }
}
