// MARK: - vetsched-v1 solution

/// A vetsched-v1 solution file: the assignments `evaluate.py` scores, plus optional
/// descriptive fields that the checker ignores.
public struct VetschedSolution: Codable, Hashable, Sendable {
    /// Instance name the solution belongs to.
    public var instance: String?
    /// Producer description.
    public var solver: String?
    /// Score the producer computed (informational; the checker recomputes it).
    public var score: Double?
    /// Seconds spent solving (informational).
    public var timeSeconds: Double?
    /// The placed requests; requests not listed are unassigned.
    public var assignments: [Assignment]

    enum CodingKeys: String, CodingKey {
        case instance, solver, score, assignments
        case timeSeconds = "time_s"
    }

    /// One placed request.
    public struct Assignment: Codable, Hashable, Sendable {
        /// Request id.
        public var request: String
        /// Clinician id.
        public var specialist: String
        /// Start minute.
        public var start: Int
        /// Concrete room `"<type>#<i>"`, optional.
        public var room: String?

        /// Creates an assignment.
        public init(request: String, specialist: String, start: Int, room: String? = nil) {
            self.request = request
            self.specialist = specialist
            self.start = start
            self.room = room
        }
    }

    /// Creates a solution.
    public init(
        instance: String? = nil, solver: String? = nil, score: Double? = nil, timeSeconds: Double? = nil,
        assignments: [Assignment]
    ) {
        self.instance = instance
        self.solver = solver
        self.score = score
        self.timeSeconds = timeSeconds
        self.assignments = assignments
    }

    /// Wraps product-neutral assignments.
    public init(
        instance: String? = nil, solver: String? = nil, score: Double? = nil, timeSeconds: Double? = nil,
        assignments: [SchedulingAssignment]
    ) {
        self.init(
            instance: instance, solver: solver, score: score, timeSeconds: timeSeconds,
            assignments: assignments.map {
                Assignment(request: $0.requestID, specialist: $0.clinicianID, start: $0.start, room: $0.room)
            })
    }

    /// The product-neutral assignments.
    public var schedulingAssignments: [SchedulingAssignment] {
        assignments.map {
            SchedulingAssignment(requestID: $0.request, clinicianID: $0.specialist, start: $0.start, room: $0.room)
        }
    }
}
