import Foundation
import SharedKernel
import Triage

/// Triage assessments and the ER board.
public protocol TriageRepository: Sendable {
    /// Stores an assessment and moves the board in one transaction (admits or re-triages the
    /// patient); with `admitToQueue` false a patient not on the board does not join it (one on
    /// it is re-triaged: ``TriageQueue/follows(_:admitting:)``). With
    /// `intakeRanking`, the clinicians an intake ranked are kept with the assessment, so a
    /// booking made from it records its basis. With `idempotency`, a repeat of the same request
    /// by the same account records nothing and answers the first assessment (with no change).
    func recordAssessment(
        scope: AccessScope, patientID: UUID, caseJSON: Data, result: TriageResult, arrival: Date,
        admitToQueue: Bool, intakeRanking: IntakeRanking?, idempotency: IdempotencyKey?
    ) async throws -> (StoredAssessment, QueueChange?)

    /// A patient's assessments, newest first.
    func assessments(scope: AccessScope, patientID: UUID, limit: Int, before cursor: Int64?) async throws -> Page<
        StoredAssessment
    >

    /// Moves a patient's board entry (waiting, in treatment, discharged, …) by the domain's rules.
    func moveQueueEntry(scope: AccessScope, patientID: UUID, to status: QueueStatus) async throws -> QueueChange

    /// The board: patients not yet discharged, with what the board shows of them.
    func activeQueue(scope: AccessScope) async throws -> [QueuedPatient]

    /// Overrides the level of an assessment by clinical judgement (``TriageOverride/decide(_:on:by:role:at:)``
    /// with the scope's actor and role), moves the board when the patient is on it, audits and
    /// publishes it, in one transaction. Returns the assessment as it now stands.
    func overrideAssessment(
        scope: AccessScope, assessmentID: Identifier<TriageAssessment>,
        request: OverrideRequest
    ) async throws -> (StoredAssessment, QueueChange?)

    /// The practice's assessments and overrides made in `[from, to)`, for the override rates.
    func triageJudgement(scope: AccessScope, from: Date, to: Date) async throws -> TriageJudgementHistory

    /// Announces, once each, the deadlines passed on every practice's board
    /// (``TriageQueue/dueAnnouncements(at:)``) on the event stream. Returns how many.
    func announceBoardDeadlines() async throws -> Int
}

/// What the override rates are computed from: who assessed when, and every override.
public struct TriageJudgementHistory: Sendable {
    /// The assessments of the period: assessor (`nil` for the system) and time.
    public let assessments: [(assessorID: String?, at: Date)]
    /// The overrides of the period, oldest first.
    public let overrides: [TriageOverride]

    /// Creates the value.
    public init(assessments: [(assessorID: String?, at: Date)], overrides: [TriageOverride]) {
        self.assessments = assessments
        self.overrides = overrides
    }
}

extension TriageRepository {
    /// Records an assessment that admits the patient to the board.
    public func recordAssessment(
        scope: AccessScope, patientID: UUID, caseJSON: Data, result: TriageResult,
        arrival: Date
    ) async throws -> (StoredAssessment, QueueChange?) {
        try await recordAssessment(
            scope: scope, patientID: patientID, caseJSON: caseJSON, result: result, arrival: arrival,
            admitToQueue: true, intakeRanking: nil, idempotency: nil)
    }
}
