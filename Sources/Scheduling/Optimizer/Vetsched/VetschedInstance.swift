// MARK: - vetsched-v1 instance

/// A vetsched-v1 benchmark instance, decoded from the JSON that `gen_instance.py` writes.
///
/// Only the fields the checker reads are required; descriptive ones (`stats`,
/// `capacity_minutes`, `urgency_levels`) are optional so that hand-written instances decode.
public struct VetschedInstance: Codable, Hashable, Sendable {
    /// Schema tag, `"vetsched-v1"`.
    public var schema: String?
    /// Instance name, e.g. `vet-20x100-s1`.
    public var name: String?
    /// Generator seed.
    public var seed: Int?
    /// Start-time grid in minutes.
    public var granularity: Int
    /// Planning horizon.
    public var horizon: Horizon
    /// Specialty names.
    public var specialties: [String]?
    /// Room types and counts.
    public var roomTypes: [RoomType]
    /// Score weights.
    public var weights: Weights
    /// Clinicians.
    public var specialists: [Specialist]
    /// Requests.
    public var requests: [Request]

    enum CodingKeys: String, CodingKey {
        case schema, name, seed, granularity, horizon, specialties, weights, specialists, requests
        case roomTypes = "room_types"
    }

    /// The horizon block.
    public struct Horizon: Codable, Hashable, Sendable {
        /// Number of days.
        public var days: Int?
        /// First minute.
        public var start: Int
        /// End minute (exclusive).
        public var end: Int
    }

    /// A room type.
    public struct RoomType: Codable, Hashable, Sendable {
        /// Identifier.
        public var id: String
        /// Number of rooms.
        public var count: Int
    }

    /// Score weights; the shares are decimals in the file.
    public struct Weights: Codable, Hashable, Sendable {
        /// Points for placing a request.
        public var assign: Int
        /// Points per proficiency level.
        public var qualityPerProf: Int
        /// Points for being on time.
        public var onTime: Int
        /// Points for the preferred window.
        public var preference: Int
        /// Share of request points in the score.
        public var requestShare: Double
        /// Share of balance in the score.
        public var balanceShare: Double

        enum CodingKeys: String, CodingKey {
            case assign, preference
            case qualityPerProf = "quality_per_prof"
            case onTime = "on_time"
            case requestShare = "request_share"
            case balanceShare = "balance_share"
        }
    }

    /// A start/end pair (shift or break).
    public struct Span: Codable, Hashable, Sendable {
        /// First minute.
        public var start: Int
        /// End minute (exclusive).
        public var end: Int
    }

    /// A clinician.
    public struct Specialist: Codable, Hashable, Sendable {
        /// Identifier.
        public var id: String
        /// Proficiency per specialty.
        public var skills: [String: Int]
        /// Appointment cap per day.
        public var maxDaily: Int
        /// Shifts.
        public var shifts: [Span]
        /// Breaks.
        public var breaks: [Span]
        /// Working minutes (informational).
        public var capacityMinutes: Int?
        /// Fair-share booked minutes.
        public var targetMinutes: Int

        enum CodingKeys: String, CodingKey {
            case id, skills, shifts, breaks
            case maxDaily = "max_daily"
            case capacityMinutes = "capacity_minutes"
            case targetMinutes = "target_minutes"
        }
    }

    /// A request.
    public struct Request: Codable, Hashable, Sendable {
        /// Identifier.
        public var id: String
        /// Required specialty.
        public var specialty: String
        /// Minutes.
        public var duration: Int
        /// Urgency level 1…5.
        public var urgency: Int
        /// Point multiplier.
        public var weight: Int
        /// Room type needed.
        public var roomType: String
        /// Earliest start minute.
        public var earliestStart: Int
        /// Latest on-time start minute.
        public var deadline: Int
        /// Preferred window start.
        public var prefStart: Int
        /// Preferred window end.
        public var prefEnd: Int

        enum CodingKeys: String, CodingKey {
            case id, specialty, duration, urgency, weight, deadline
            case roomType = "room_type"
            case earliestStart = "earliest_start"
            case prefStart = "pref_start"
            case prefEnd = "pref_end"
        }
    }
}

// MARK: - Conversion

extension VetschedInstance {
    /// The product-neutral problem this instance describes (no fixed bookings).
    public var problem: SchedulingProblem {
        SchedulingProblem(
            horizon: MinuteInterval(start: horizon.start, end: horizon.end),
            granularity: granularity,
            clinicians: specialists.map { s in
                SchedulingClinician(
                    id: s.id, skills: s.skills, maxDaily: s.maxDaily,
                    shifts: s.shifts.map { MinuteInterval(start: $0.start, end: $0.end) },
                    breaks: s.breaks.map { MinuteInterval(start: $0.start, end: $0.end) },
                    targetMinutes: s.targetMinutes)
            },
            roomTypes: roomTypes.map { SchedulingRoomType(id: $0.id, count: $0.count) },
            requests: requests.map { r in
                SchedulingRequest(
                    id: r.id, specialty: r.specialty, duration: r.duration, urgency: r.urgency, weight: r.weight,
                    roomType: r.roomType, earliestStart: r.earliestStart, deadline: r.deadline,
                    preferredWindow: MinuteInterval(start: r.prefStart, end: r.prefEnd))
            },
            weights: SchedulingWeights(
                assign: weights.assign, qualityPerProficiency: weights.qualityPerProf, onTime: weights.onTime,
                preference: weights.preference, requestShare: weights.requestShare,
                balanceShare: weights.balanceShare))
    }
}
