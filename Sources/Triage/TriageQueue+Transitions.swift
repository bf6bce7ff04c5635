import Foundation
import SharedKernel

// MARK: - Status transitions

extension QueueStatus {
    /// The only legal moves. `done` and `leftWithoutBeingSeen` are terminal; a patient who
    /// comes back is admitted again with a new assessment. A patient is never `done` without
    /// having been `inTreatment`, so the board's treatment times stay meaningful.
    public static let legalTransitions: [(from: QueueStatus, to: QueueStatus)] = [
        (.waiting, .inTreatment),
        (.waiting, .leftWithoutBeingSeen),
        (.inTreatment, .done),
    ]

    /// Whether moving from `self` to `next` is legal.
    public func canTransition(to next: QueueStatus) -> Bool {
        Self.legalTransitions.contains { $0.from == self && $0.to == next }
    }

    /// The statuses a patient in this status may be moved to, in the order offered: what a
    /// board shows as buttons (clients read it from the API instead of keeping a copy).
    public var allowedMoves: [QueueStatus] {
        Self.legalTransitions.filter { $0.from == self }.map(\.to)
    }
}

// MARK: - Commands, changes, errors

/// What someone at the board asks for.
public enum QueueCommand: Hashable, Sendable {
    /// A new assessment: admits the patient, or re-triages one already on the board.
    case admit(TriageAssessment)
    /// Moves a patient to another status.
    case move(patientID: UUID, to: QueueStatus)
    /// Sets the level of the patient's current assessment by clinical judgement.
    case override(patientID: UUID, TriageOverride)
    /// Records that a deadline of a waiting patient has been announced.
    case announce(patientID: UUID, BoardDeadline)
}

/// A moment the board announces once, to screen readers and on the event stream.
public enum BoardDeadline: String, CaseIterable, Codable, Sendable {
    /// The target time passed while waiting (spec §2.5).
    case overdue
    /// A re-assessment is due (``QueueEntry/reassessmentDueAt``).
    case reassessmentDue = "reassessment_due"
}

/// A decided change to the queue.
public enum QueueChange: Hashable, Sendable {
    /// A patient joined the board as waiting.
    case admitted(QueueEntry)
    /// A patient on the board was re-assessed; the level (and target time) follows the new assessment.
    case retriaged(previous: QueueEntry, current: QueueEntry)
    /// A patient's status changed.
    case statusChanged(previous: QueueEntry, current: QueueEntry)
    /// The level of the assessment the board follows was overridden (the target time follows it).
    case overridden(previous: QueueEntry, current: QueueEntry)
    /// A deadline of a waiting patient was announced.
    case announced(BoardDeadline, current: QueueEntry)

    /// The entry after the change.
    public var entry: QueueEntry {
        switch self {
        case .admitted(let entry): return entry
        case .retriaged(_, let current), .statusChanged(_, let current), .overridden(_, let current),
            .announced(_, let current):
            return current
        }
    }
}

/// Why the queue refused a command.
public enum QueueError: Error, Hashable, Sendable {
    /// The status change is not one of ``QueueStatus/legalTransitions``.
    case illegalTransition(patientID: UUID, from: QueueStatus, to: QueueStatus)
    /// The patient has no entry.
    case notInQueue(patientID: UUID)
    /// The assessment is not newer than the one the board follows (late or repeated delivery).
    case staleAssessment(patientID: UUID, assessmentID: Identifier<TriageAssessment>)
    /// The deadline has not passed, the patient is not waiting, or it was announced already.
    case nothingToAnnounce(patientID: UUID, deadline: BoardDeadline)

    /// The shared-kernel error the delivery layer maps to HTTP (404 / 409).
    public var domainError: DomainError {
        switch self {
        case .illegalTransition(_, let from, let to):
            return .conflict("illegal queue transition \(from.rawValue) -> \(to.rawValue)")
        case .notInQueue: return .notFound(resource: "queue entry")
        case .staleAssessment: return .conflict("a newer assessment of this patient is already on the board")
        case .nothingToAnnounce(_, let deadline): return .conflict("nothing to announce: \(deadline.rawValue)")
        }
    }
}

// MARK: - Decide and apply

extension TriageQueue {
    /// Decides what `command` does at `now`, without changing the queue.
    public func decide(_ command: QueueCommand, at now: Date) throws(QueueError) -> QueueChange {
        switch command {
        case .admit(let assessment):
            guard let existing = entry(for: assessment.patientID) else {
                return .admitted(Self.newEntry(assessment, at: now))
            }
            guard assessment.assessedAt > existing.assessedAt, assessment.id != existing.assessmentID else {
                throw .staleAssessment(patientID: assessment.patientID, assessmentID: assessment.id)
            }
            guard existing.status.isActive else {
                // The previous visit ended: this is a new arrival.
                return .admitted(Self.newEntry(assessment, at: now))
            }
            var current = existing
            current.assessmentID = assessment.id
            current.level = assessment.level
            current.assessedAt = assessment.assessedAt
            current.override = nil
            // A new level is a new target, and a new assessment starts a new interval: both are announced afresh.
            current.overdueAnnounced = false
            current.reassessmentAnnounced = false
            return .retriaged(previous: existing, current: current)

        case .override(let patientID, let override):
            guard let existing = entry(for: patientID), existing.status.isActive else {
                throw .notInQueue(patientID: patientID)
            }
            // Judgement applies to the assessment the board shows, not to one a newer assessment replaced.
            guard existing.assessmentID == override.assessmentID else {
                throw .staleAssessment(patientID: patientID, assessmentID: override.assessmentID)
            }
            var current = existing
            current.level = override.level
            current.override = override
            current.overdueAnnounced = false
            return .overridden(previous: existing, current: current)

        case .announce(let patientID, let deadline):
            guard let existing = entry(for: patientID) else { throw .notInQueue(patientID: patientID) }
            guard existing.deadlinesDue(at: now).contains(deadline) else {
                throw .nothingToAnnounce(patientID: patientID, deadline: deadline)
            }
            var current = existing
            switch deadline {
            case .overdue: current.overdueAnnounced = true
            case .reassessmentDue: current.reassessmentAnnounced = true
            }
            return .announced(deadline, current: current)

        case .move(let patientID, let status):
            guard let existing = entry(for: patientID) else { throw .notInQueue(patientID: patientID) }
            guard existing.status.canTransition(to: status) else {
                throw .illegalTransition(patientID: patientID, from: existing.status, to: status)
            }
            var current = existing
            current.status = status
            current.statusChangedAt = now
            return .statusChanged(previous: existing, current: current)
        }
    }

    /// Records a change returned by ``decide(_:at:)``.
    public mutating func apply(_ change: QueueChange) { upsert(change.entry) }

    /// Decides and applies `command`; returns the change for the caller to persist and publish.
    @discardableResult
    public mutating func handle(_ command: QueueCommand, at now: Date) throws(QueueError) -> QueueChange {
        let change = try decide(command, at: now)
        apply(change)
        return change
    }

    /// Whether a new assessment moves the board: always for a patient on it (the board follows
    /// the latest assessment, whichever path made it), and for one not on it only when the
    /// caller admits them (a non-urgent intake given a later slot stays off the board).
    public func follows(_ assessment: TriageAssessment, admitting: Bool) -> Bool {
        admitting || entry(for: assessment.patientID)?.status.isActive == true
    }

    /// The announcements due at `now`, one per waiting patient and deadline not yet announced,
    /// in board order.
    public func dueAnnouncements(at now: Date) -> [(patientID: UUID, deadline: BoardDeadline)] {
        board(now: now).flatMap { row in row.entry.deadlinesDue(at: now).map { (row.entry.patientID, $0) } }
    }

    private static func newEntry(_ assessment: TriageAssessment, at now: Date) -> QueueEntry {
        QueueEntry(
            assessmentID: assessment.id, patientID: assessment.patientID, level: assessment.level,
            arrival: assessment.arrival, assessedAt: assessment.assessedAt, status: .waiting, statusChangedAt: now)
    }
}
