import Foundation

// MARK: - ER board

/// One line of the ER board.
public struct BoardRow: Hashable, Sendable {
    /// Position on the board, 1-based.
    public let position: Int
    /// The queue entry.
    public let entry: QueueEntry
    /// Arrival + maximum wait of the current level.
    public let targetTime: Date
    /// Whole minutes until the target, rounded down (never overstates the time left);
    /// negative once the target has passed.
    public let minutesLeft: Int
    /// A waiting patient whose target time has passed (§2.5). Patients in treatment are never overdue.
    public let isOverdue: Bool
    /// A waiting patient due a re-assessment (``QueueEntry/reassessmentDueAt`` has passed).
    public let isReassessmentDue: Bool
    /// Minutes past the target for an overdue patient, otherwise 0.
    public var overdueMinutes: Int { isOverdue ? max(1, -minutesLeft) : 0 }
}

extension TriageQueue {
    /// The board at `now`: active patients (waiting and in treatment) ordered by level
    /// (most urgent first), then arrival (earliest first), then assessment id for a stable order.
    public func board(now: Date) -> [BoardRow] {
        let active = entries.filter { $0.status.isActive }.sorted { lhs, rhs in
            if lhs.level != rhs.level { return lhs.level < rhs.level }
            if lhs.arrival != rhs.arrival { return lhs.arrival < rhs.arrival }
            return lhs.assessmentID < rhs.assessmentID
        }
        return active.enumerated().map { offset, entry in
            let target = entry.targetTime
            let secondsLeft = target.timeIntervalSince(now)
            return BoardRow(
                position: offset + 1, entry: entry, targetTime: target,
                minutesLeft: Int((secondsLeft / 60).rounded(.down)),
                isOverdue: entry.status == .waiting && now > target,
                isReassessmentDue: entry.status == .waiting && now >= entry.reassessmentDueAt
            )
        }
    }
}
