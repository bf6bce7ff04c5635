// MARK: - Problem model

/// A half-open interval of minutes `[start, end)` measured from an arbitrary origin
/// (the vetsched-v1 benchmark counts from the start of its horizon; day `d` is
/// `[1440·d, 1440·(d+1))`).
///
/// Integer minutes rather than `Date`s keep the optimizer exact and fast; the HTTP layer
/// converts a practice's calendar into minutes from a chosen midnight.
public struct MinuteInterval: Hashable, Codable, Sendable, CustomStringConvertible {
    /// Inclusive start minute.
    public var start: Int
    /// Exclusive end minute.
    public var end: Int

    /// Creates an interval; callers validate `start < end` through ``SchedulingProblem/validate()``.
    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// Whether the two intervals share a minute.
    public func overlaps(_ other: MinuteInterval) -> Bool { start < other.end && other.start < end }

    /// Whether `other` lies entirely inside this interval.
    public func contains(_ other: MinuteInterval) -> Bool { start <= other.start && other.end <= end }

    public var description: String { "[\(start),\(end))" }
}

/// A clinician who can be booked: skills with proficiency, working time and a workload target.
public struct SchedulingClinician: Hashable, Codable, Sendable {
    /// Stable identifier, unique within the problem.
    public var id: String
    /// Proficiency per specialty, 1 (can do it) … 5 (expert); absent or 0 means not qualified.
    public var skills: [String: Int]
    /// Maximum number of appointments per calendar day.
    public var maxDaily: Int
    /// Working shifts; an appointment must lie inside one of them.
    public var shifts: [MinuteInterval]
    /// Breaks; an appointment may not overlap any of them.
    public var breaks: [MinuteInterval]
    /// The booked minutes that would give this clinician a fair share of the demand.
    public var targetMinutes: Int

    /// Creates a clinician.
    public init(
        id: String, skills: [String: Int], maxDaily: Int, shifts: [MinuteInterval],
        breaks: [MinuteInterval] = [], targetMinutes: Int
    ) {
        self.id = id
        self.skills = skills
        self.maxDaily = maxDaily
        self.shifts = shifts
        self.breaks = breaks
        self.targetMinutes = targetMinutes
    }

    /// Proficiency in `specialty`, 0 when not qualified.
    public func proficiency(in specialty: String) -> Int { skills[specialty] ?? 0 }
}

/// A kind of room (exam, surgery, imaging) and how many of them the practice has.
public struct SchedulingRoomType: Hashable, Codable, Sendable {
    /// Identifier, also the prefix of room ids (`exam#3`).
    public var id: String
    /// Number of interchangeable rooms of this type.
    public var count: Int

    /// Creates a room type.
    public init(id: String, count: Int) {
        self.id = id
        self.count = count
    }
}

/// An appointment that should be booked.
public struct SchedulingRequest: Hashable, Codable, Sendable {
    /// The practice policy's weight of an urgency (1 routine … 5 immediate): 1, 2, 3, 5, 8,
    /// so an immediate request is worth eight routine ones. Out-of-range urgencies are clamped.
    public static func weight(forUrgency urgency: Int) -> Int {
        [1, 2, 3, 5, 8][min(max(urgency, 1), 5) - 1]
    }

    /// Stable identifier, unique within the problem.
    public var id: String
    /// The specialty the clinician must have.
    public var specialty: String
    /// Length in minutes.
    public var duration: Int
    /// Urgency level 1 (routine) … 5 (immediate); 4 and above count as urgent.
    public var urgency: Int
    /// Multiplier of the request's points (derived from urgency by the practice's policy).
    public var weight: Int
    /// The room type the appointment occupies.
    public var roomType: String
    /// The appointment may not start before this minute.
    public var earliestStart: Int
    /// Starting at or before this minute is on time.
    public var deadline: Int
    /// The owner's preferred window; the whole appointment should fall inside it.
    public var preferredWindow: MinuteInterval

    /// Creates a request.
    public init(
        id: String, specialty: String, duration: Int, urgency: Int, weight: Int, roomType: String,
        earliestStart: Int, deadline: Int, preferredWindow: MinuteInterval
    ) {
        self.id = id
        self.specialty = specialty
        self.duration = duration
        self.urgency = urgency
        self.weight = weight
        self.roomType = roomType
        self.earliestStart = earliestStart
        self.deadline = deadline
        self.preferredWindow = preferredWindow
    }

    /// Urgency at which lateness is a clinical risk, not only a lost point.
    public static let urgentLevel = 4

    /// Whether the request is urgent (``urgentLevel`` or above).
    public var isUrgent: Bool { urgency >= Self.urgentLevel }
}

/// An existing booking the optimizer must work around: it occupies the clinician and,
/// when it names a room type, one room of that type.
public struct SchedulingFixedBooking: Hashable, Codable, Sendable {
    /// Identifier of the existing appointment or block.
    public var id: String
    /// The clinician it occupies.
    public var clinicianID: String
    /// When.
    public var interval: MinuteInterval
    /// The room type it occupies, if any.
    public var roomType: String?

    /// Creates a fixed booking.
    public init(id: String, clinicianID: String, interval: MinuteInterval, roomType: String? = nil) {
        self.id = id
        self.clinicianID = clinicianID
        self.interval = interval
        self.roomType = roomType
    }
}

/// Points and shares of the score (see ``ScheduleScorer``).
public struct SchedulingWeights: Hashable, Codable, Sendable {
    /// Points for placing a request at all.
    public var assign: Int
    /// Points per proficiency level of the chosen clinician.
    public var qualityPerProficiency: Int
    /// Points for starting by the deadline.
    public var onTime: Int
    /// Points for falling inside the preferred window.
    public var preference: Int
    /// Share of the score given to request points (0.9 in vetsched-v1).
    public var requestShare: Double
    /// Share of the score given to workload balance (0.1 in vetsched-v1).
    public var balanceShare: Double

    /// Creates weights.
    public init(
        assign: Int, qualityPerProficiency: Int, onTime: Int, preference: Int,
        requestShare: Double, balanceShare: Double
    ) {
        self.assign = assign
        self.qualityPerProficiency = qualityPerProficiency
        self.onTime = onTime
        self.preference = preference
        self.requestShare = requestShare
        self.balanceShare = balanceShare
    }

    /// The weights of the vetsched-v1 benchmark.
    public static let standard = SchedulingWeights(
        assign: 40, qualityPerProficiency: 4, onTime: 30,
        preference: 10, requestShare: 0.9, balanceShare: 0.1)
}

/// A complete scheduling problem, independent of where it came from (a vetsched-v1 file or a
/// practice's calendar).
public struct SchedulingProblem: Hashable, Codable, Sendable {
    /// The planning horizon; every appointment must end inside it.
    public var horizon: MinuteInterval
    /// Start times must be multiples of this many minutes.
    public var granularity: Int
    /// Bookable clinicians.
    public var clinicians: [SchedulingClinician]
    /// Room types and counts.
    public var roomTypes: [SchedulingRoomType]
    /// Requests to place.
    public var requests: [SchedulingRequest]
    /// Existing bookings that stay where they are.
    public var fixedBookings: [SchedulingFixedBooking]
    /// Score weights.
    public var weights: SchedulingWeights

    /// Creates a problem.
    public init(
        horizon: MinuteInterval, granularity: Int, clinicians: [SchedulingClinician],
        roomTypes: [SchedulingRoomType], requests: [SchedulingRequest],
        fixedBookings: [SchedulingFixedBooking] = [], weights: SchedulingWeights = .standard
    ) {
        self.horizon = horizon
        self.granularity = granularity
        self.clinicians = clinicians
        self.roomTypes = roomTypes
        self.requests = requests
        self.fixedBookings = fixedBookings
        self.weights = weights
    }

    /// Minutes in a calendar day; `start / minutesPerDay` is an appointment's day (rule H6).
    public static let minutesPerDay = 1440
}
