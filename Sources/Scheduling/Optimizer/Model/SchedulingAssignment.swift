// MARK: - Solution model

/// One placed request: who sees it, when, and optionally in which room.
public struct SchedulingAssignment: Hashable, Codable, Sendable {
    /// The request placed.
    public var requestID: String
    /// The clinician who sees it.
    public var clinicianID: String
    /// Start minute.
    public var start: Int
    /// Concrete room, `"<type>#<i>"` with `1 ≤ i ≤ count`; `nil` leaves the choice open.
    public var room: String?

    /// Creates an assignment.
    public init(requestID: String, clinicianID: String, start: Int, room: String? = nil) {
        self.requestID = requestID
        self.clinicianID = clinicianID
        self.start = start
        self.room = room
    }
}
