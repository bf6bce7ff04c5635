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
    public init(id: Identifier<TriageAssessment> = Identifier(), patientID: UUID, level: TriageLevel, arrival: Date, assessedAt: Date) {
        self.id = id
        self.patientID = patientID
        self.level = level
        self.arrival = arrival
        self.assessedAt = assessedAt
    }

    /// Creates an assessment from an engine result.
    public init(id: Identifier<TriageAssessment> = Identifier(), patientID: UUID, result: TriageResult) {
        self.init(id: id, patientID: patientID, level: result.level, arrival: result.arrival, assessedAt: result.assessedAt)
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

    /// Target time to be seen: arrival + the level's maximum wait.
    public var targetTime: Date { arrival.addingTimeInterval(level.maxWaitSeconds) }

    /// Recreates an entry (for stores that persist the board).
    public init(assessmentID: Identifier<TriageAssessment>, patientID: UUID, level: TriageLevel, arrival: Date, assessedAt: Date,
                status: QueueStatus, statusChangedAt: Date) {
        self.assessmentID = assessmentID
        self.patientID = patientID
        self.level = level
        self.arrival = arrival
        self.assessedAt = assessedAt
        self.status = status
        self.statusChangedAt = statusChangedAt
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
