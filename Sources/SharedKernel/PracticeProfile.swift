import Foundation

/// A practice's identity and opening hours. The time zone defines what "a day" means for
/// its schedule.
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

    /// Creates a profile.
    public init(id: PracticeID, name: String, timeZone: String, openingHours: [OpeningHours], phone: String? = nil, address: String? = nil) {
        self.id = id
        self.name = name
        self.timeZone = timeZone
        self.openingHours = openingHours
        self.phone = phone
        self.address = address
    }

    /// Checks the name and time zone.
    public func validate() throws(ValidationError) {
        var errors = FieldErrorCollector()
        if name.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("name", "must not be empty") }
        if TimeZone(identifier: timeZone) == nil { errors.add("timeZone", "'\(timeZone)' is not an IANA time zone") }
        for (index, hours) in openingHours.enumerated() {
            if !(1...7).contains(hours.weekday) { errors.add("openingHours[\(index)].weekday", "must be 1 (Monday) to 7 (Sunday)") }
            if hours.opensMinute >= hours.closesMinute { errors.add("openingHours[\(index)]", "must open before it closes") }
        }
        OpeningHours.validateMinutes(openingHours, into: &errors)
        try errors.throwIfAny()
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
