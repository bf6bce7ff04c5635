import Analytics
import Foundation
import PatientRecords
import SharedKernel

/// What practice analytics read: the history of a window, where the records stand, and the
/// changes since a known point (so a kept picture is brought up to date, not re-read).
public protocol AnalyticsHistorySource: Sendable {
    /// Where the practice's records stand now.
    func analyticsDataVersion(scope: AccessScope) async throws -> AnalyticsDataVersion

    /// The practice's history in `window` with the version it was read at (audited as `action`).
    func versionedPracticeHistory(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> (history: PracticeHistory, version: AnalyticsDataVersion)

    /// What changed in `window` since `version`, or `nil` when it cannot be told (the
    /// configuration changed, or more than `limit` rows changed): the caller reads afresh.
    func practiceHistoryChanges(
        scope: AccessScope, window: HistoryWindow, since version: AnalyticsDataVersion,
        limit: Int
    ) async throws -> (changes: HistoryChanges, version: AnalyticsDataVersion)?

    /// Loads a generated past (the demo's history) in bulk.
    @discardableResult
    func bulkLoadHistory(
        appointments: [AppointmentRecord], arrivals: [TriageArrival], weights: [WeightMeasurement],
        scope: AccessScope, progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> HistoryLoadSummary

    /// Patients a generated history may book for.
    func bookablePatients(scope: AccessScope) async throws -> [(id: UUID, species: Species, birthDate: Date?)]

    /// Whether any appointment or arrival falls in `range`.
    func hasActivity(scope: AccessScope, in range: DateInterval) async throws -> Bool
}

extension AnalyticsHistorySource {
    /// What changed in `window` since `version`, up to 20,000 changed rows.
    public func practiceHistoryChanges(
        scope: AccessScope, window: HistoryWindow,
        since version: AnalyticsDataVersion
    ) async throws -> (changes: HistoryChanges, version: AnalyticsDataVersion)? {
        try await practiceHistoryChanges(scope: scope, window: window, since: version, limit: 20_000)
    }

    /// The practice's history in `window` (audited as `action`).
    public func practiceHistory(
        scope: AccessScope, window: HistoryWindow, action: AuditAction,
        progress: (@Sendable (Int, Int) -> Void)? = nil
    ) async throws -> PracticeHistory {
        try await versionedPracticeHistory(scope: scope, window: window, action: action, progress: progress).history
    }

}

extension AuditRecord {
    /// The audit entry of a read of `window` of the practice's history under `action`: the
    /// practice and the period, never the figures; `served` says how a cached history answered
    /// (`reused`, `updated`).
    public static func historyRead(
        _ action: AuditAction, of practiceID: PracticeID, window: HistoryWindow, served: String? = nil
    ) -> AuditRecord {
        AuditRecord(
            action: action, resourceType: .practice, resourceID: practiceID.description,
            detail: window.auditDetail + (served.map { " " + $0 } ?? ""))
    }
}

extension HistoryWindow {
    /// What an audit entry says of a read of this window: the period, never the figures.
    public var auditDetail: String {
        guard let first = appointmentRanges.first?.start ?? arrivalRanges.first?.start else { return "empty window" }
        let last = max(appointmentRanges.last?.end ?? first, arrivalRanges.last?.end ?? first)
        return "from=\(Timestamp.string(first)) to=\(Timestamp.string(last))"
    }
}
