// MARK: - Re-planning results

/// Why a displaced appointment could not be re-booked.
public enum UnplacedReason: String, Hashable, Codable, Sendable {
    /// No other clinician has the specialty.
    case noQualifiedClinician
    /// Qualified clinicians exist, but none has room before the deadline (placing it later
    /// would breach its urgency).
    case noOnTimeSlot
    /// The appointment was already late and no qualified clinician has any room left.
    case noSlot
}

/// One appointment that moved.
public struct ReplanMove: Hashable, Codable, Sendable {
    /// Where it was.
    public var from: SchedulingAssignment
    /// Where it is now.
    public var to: SchedulingAssignment

    /// Creates a move.
    public init(from: SchedulingAssignment, to: SchedulingAssignment) {
        self.from = from
        self.to = to
    }
}

/// An appointment taken off the unavailable clinician that found no new place.
public struct UnplacedAppointment: Hashable, Codable, Sendable {
    /// Its previous assignment.
    public var assignment: SchedulingAssignment
    /// Why it could not be moved.
    public var reason: UnplacedReason

    /// Creates an entry.
    public init(assignment: SchedulingAssignment, reason: UnplacedReason) {
        self.assignment = assignment
        self.reason = reason
    }
}

/// The outcome of re-planning around an absence.
public struct ReplanResult: Hashable, Codable, Sendable {
    /// The new schedule: untouched assignments, moved ones at their new place, unplaced ones removed.
    public var assignments: [SchedulingAssignment]
    /// Every appointment that moved, displaced ones and any moved to make room for them.
    public var moves: [ReplanMove]
    /// Displaced appointments that could not be re-booked.
    public var unplaced: [UnplacedAppointment]
}
