import Foundation
import SharedKernel

// MARK: - Assessment

/// One triage assessment of a patient as the ER board needs it: who, how urgent, since when.
public struct TriageAssessment: Hashable, Codable, Sendable {
    /// The assessment's id.
    public let id: Identifier<TriageAssessment>
    /// The patient's UUID from PatientRecords (Triage does not depend on that module, so the
    /// caller passes `patientID.rawValue`).
    public let patientID: UUID
    /// The level assessed.
    public let level: TriageLevel
    /// When the patient arrived.
    public let arrival: Date
    /// When the assessment was made; the latest assessment of a patient wins.
    public let assessedAt: Date

    /// Creates an assessment.
    public init(
        id: Identifier<TriageAssessment> = Identifier(), patientID: UUID, level: TriageLevel, arrival: Date,
        assessedAt: Date
    ) {
        self.id = id
        self.patientID = patientID
        self.level = level
        self.arrival = arrival
        self.assessedAt = assessedAt
    }

    /// Creates an assessment from an engine result.
    public init(id: Identifier<TriageAssessment> = Identifier(), patientID: UUID, result: TriageResult) {
        self.init(
            id: id, patientID: patientID, level: result.level, arrival: result.arrival, assessedAt: result.assessedAt)
    }
}

// MARK: - Queue entry

/// Where a patient is in the emergency queue.
public enum QueueStatus: String, CaseIterable, Codable, Sendable {
    /// Triaged, waiting to be seen.
    case waiting
    /// Being seen or treated.
    case inTreatment
    /// Treatment finished (terminal).
    case done
    /// Left before being seen (terminal; a quality indicator of the ER).
    case leftWithoutBeingSeen

    /// Whether the patient is still on the board.
    public var isActive: Bool { self == .waiting || self == .inTreatment }

    /// The words staff read on the board.
    public var label: String {
        switch self {
        case .waiting: return "Waiting"
        case .inTreatment: return "In treatment"
        case .done: return "Done"
        case .leftWithoutBeingSeen: return "Left without being seen"
        }
    }

    /// The statuses still on the board, as an SQL list (`'waiting', 'inTreatment'`) for a
    /// store's query, so the set is the domain's.
    public static var activeSQLList: String {
        allCases.filter(\.isActive).map { "'\($0.rawValue)'" }.joined(separator: ", ")
    }
}

/// A patient on the ER board, following the patient's latest assessment.
public struct QueueEntry: Hashable, Codable, Sendable {
    /// The latest assessment's id.
    public var assessmentID: Identifier<TriageAssessment>
    /// The patient.
    public let patientID: UUID
    /// Level of the latest assessment.
    public var level: TriageLevel
    /// When the patient arrived (kept across re-triage: the wait started then).
    public let arrival: Date
    /// When the latest assessment was made.
    public var assessedAt: Date
    /// Where the patient is.
    public var status: QueueStatus
    /// When `status` last changed.
    public var statusChangedAt: Date
    /// The latest override of the assessment the board follows, if its level was overridden;
    /// a new assessment starts without one.
    public var override: TriageOverride?
    /// Whether passing the target time was announced (once per visit and level).
    public var overdueAnnounced: Bool
    /// Whether the re-assessment now due was announced (once per assessment).
    public var reassessmentAnnounced: Bool

    /// The deadlines of a waiting patient that have passed at `now` and are not yet announced.
    public func deadlinesDue(at now: Date) -> [BoardDeadline] {
        guard status == .waiting else { return [] }
        var due: [BoardDeadline] = []
        if !overdueAnnounced, now > targetTime { due.append(.overdue) }
        if !reassessmentAnnounced, now >= reassessmentDueAt { due.append(.reassessmentDue) }
        return due
    }

    /// The board flags a patient whose red finding was lowered by judgement until they are seen.
    public var isLoweredRedAwaitingCare: Bool { status == .waiting && override?.lowersRedFinding == true }

    /// Target time to be seen: arrival + the level's maximum wait.
    public var targetTime: Date { arrival.addingTimeInterval(level.maxWaitSeconds) }

    /// The shortest time between two assessments of a waiting patient before another is due:
    /// red's maximum wait is zero, and a patient cannot be re-assessed continuously.
    public static let minimumReassessmentInterval: TimeInterval = 15 * 60

    /// When a waiting patient is due a re-assessment (spec §2.5): once their target time has
    /// passed, and after each re-assessment again once the level's maximum wait (at least
    /// ``minimumReassessmentInterval``) has passed since it.
    public var reassessmentDueAt: Date {
        max(targetTime, assessedAt.addingTimeInterval(max(level.maxWaitSeconds, Self.minimumReassessmentInterval)))
    }

    /// Recreates an entry (for stores that persist the board).
    public init(
        assessmentID: Identifier<TriageAssessment>, patientID: UUID, level: TriageLevel, arrival: Date,
        assessedAt: Date,
        status: QueueStatus, statusChangedAt: Date, override: TriageOverride? = nil, overdueAnnounced: Bool = false,
        reassessmentAnnounced: Bool = false
    ) {
        self.assessmentID = assessmentID
        self.patientID = patientID
        self.level = level
        self.arrival = arrival
        self.assessedAt = assessedAt
        self.status = status
        self.statusChangedAt = statusChangedAt
        self.override = override
        self.overdueAnnounced = overdueAnnounced
        self.reassessmentAnnounced = reassessmentAnnounced
    }
}

// MARK: - Queue

/// The ER queue of one practice: one entry per patient, following the latest assessment.
///
/// A pure state machine. ``decide(_:at:)`` returns a ``QueueChange`` or throws a
/// ``QueueError`` without touching the queue; ``apply(_:)`` records a decided change; the
/// caller persists it and publishes ``QueueChange/events(practiceID:occurredAt:)``.
public struct TriageQueue: Hashable, Sendable {
    /// Entries in admission order (the board sorts them; see ``board(now:)``).
    public private(set) var entries: [QueueEntry] = []
    private var positions: [UUID: Int] = [:]

    /// An empty queue.
    public init() {}

    /// Restores a queue from stored entries (the last entry of a patient wins).
    public init(entries: [QueueEntry]) {
        for entry in entries { upsert(entry) }
    }

    /// The entry of `patientID`, if the patient is or was in the queue.
    public func entry(for patientID: UUID) -> QueueEntry? { positions[patientID].map { entries[$0] } }

    mutating func upsert(_ entry: QueueEntry) {
        if let position = positions[entry.patientID] {
            entries[position] = entry
        } else {
            positions[entry.patientID] = entries.count
            entries.append(entry)
        }
    }
}
