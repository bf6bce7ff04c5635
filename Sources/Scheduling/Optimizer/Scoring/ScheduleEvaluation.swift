// MARK: - Evaluation result

/// The hard constraints of a schedule (rules H1–H7 of vetsched-v1).
public enum HardConstraint: String, Hashable, Codable, Sendable, CaseIterable {
    /// Request ids unique and known; clinician ids known.
    case h1 = "H1"
    /// The clinician has the request's specialty.
    case h2 = "H2"
    /// Start on the grid, not before the earliest start, inside the horizon.
    case h3 = "H3"
    /// Inside one shift of the clinician and overlapping none of its breaks.
    case h4 = "H4"
    /// No two appointments of one clinician overlap.
    case h5 = "H5"
    /// At most `maxDaily` appointments per clinician and day.
    case h6 = "H6"
    /// Room capacity per type at every instant; named rooms valid and not double-booked.
    case h7 = "H7"
}

/// One broken hard constraint, with a message in the wording of `evaluate.py`.
public struct ScheduleViolation: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The rule broken.
    public var rule: HardConstraint
    /// What happened, starting with the rule tag (`"H5 S003: R1 [540,600) overlaps R2 [570,630)"`).
    public var message: String

    /// Creates a violation.
    public init(rule: HardConstraint, message: String) {
        self.rule = rule
        self.message = message
    }

    public var description: String { message }
}

/// The checker's verdict on a schedule: feasibility and the exact score with its parts.
public struct ScheduleEvaluation: Hashable, Sendable {
    /// No hard constraint is broken.
    public var feasible: Bool { violations.isEmpty }
    /// Broken hard constraints (at most the checker's limit, 50 by default).
    public var violations: [ScheduleViolation]
    /// The exact score, whether or not the schedule is feasible.
    public var exactScore: ExactFraction
    /// Score as a `Double`; 0 when infeasible.
    public var score: Double { feasible ? exactScore.doubleValue : 0 }
    /// Score ignoring feasibility.
    public var scoreIgnoringFeasibility: Double { exactScore.doubleValue }
    /// Share of the attainable request points earned.
    public var requestShare: ExactFraction
    /// Workload balance, 1 when every clinician is on target.
    public var balanceShare: ExactFraction
    /// Weighted request points earned.
    public var requestPoints: Int
    /// Weighted request points attainable (every request placed ideally).
    public var requestPointsMax: Int
    /// Sum over clinicians of |booked − target| minutes.
    public var balanceDeviationMinutes: Int
    /// Sum of all request durations.
    public var totalDemandMinutes: Int
    /// Requests placed.
    public var assigned: Int
    /// Requests not placed.
    public var unassigned: Int
    /// Placed requests starting by their deadline.
    public var onTime: Int
    /// Placed requests inside their preferred window.
    public var inPreference: Int
    /// Urgent requests placed on time.
    public var urgentOnTime: Int
    /// Urgent requests in the problem.
    public var urgentTotal: Int
}
