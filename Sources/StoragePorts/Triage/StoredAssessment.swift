import Foundation
import SharedKernel
import Triage

/// A stored assessment: who assessed which patient when, and the full result.
public struct StoredAssessment: Sendable {
    /// Identifier.
    public let id: Identifier<TriageAssessment>
    /// The patient.
    public let patientID: UUID
    /// The staff member who assessed, `nil` for the system.
    public let assessorID: String?
    /// Arrival at the practice.
    public let arrival: Date
    /// When the assessment was made.
    public let assessedAt: Date
    /// The level.
    public let level: TriageLevel
    /// Rules version that produced the result.
    public let rulesVersion: String
    /// The result as JSON (the wire format).
    public let resultJSON: Data
    /// Overrides of the level by clinical judgement, oldest first (the latest is in force).
    public let overrides: [TriageOverride]

    /// The level in force: the latest override's, else the computed ``level``.
    public var currentLevel: TriageLevel { overrides.last?.level ?? level }

    /// Creates the value from its parts.
    public init(
        id: Identifier<TriageAssessment>, patientID: UUID, assessorID: String?, arrival: Date, assessedAt: Date,
        level: TriageLevel,
        rulesVersion: String, resultJSON: Data, overrides: [TriageOverride] = []
    ) {
        self.id = id
        self.patientID = patientID
        self.assessorID = assessorID
        self.arrival = arrival
        self.assessedAt = assessedAt
        self.level = level
        self.rulesVersion = rulesVersion
        self.resultJSON = resultJSON
        self.overrides = overrides
    }
}

/// A board entry with what the board shows of the patient.
public struct QueuedPatient: Sendable {
    /// The queue entry.
    public let entry: QueueEntry
    /// Call name.
    public let name: String
    /// Medical record number.
    public let medicalRecordNumber: String
    /// Species.
    public let species: String
    /// Alerts ("bites", …), shown wherever the patient appears.
    public let alerts: [String]

    /// Creates the value from its parts.
    public init(entry: QueueEntry, name: String, medicalRecordNumber: String, species: String, alerts: [String]) {
        self.entry = entry
        self.name = name
        self.medicalRecordNumber = medicalRecordNumber
        self.species = species
        self.alerts = alerts
    }
}
