import Foundation
import SharedKernel

/// Moving a practice between installations and stores: the whole practice as one
/// ``PracticeExport`` document, restored into a store that does not hold it yet.
public protocol PracticeTransfer: Sendable {
    /// The scope's whole practice with its audit trail (audited); with `documentContent`, the
    /// documents' decrypted content too.
    func exportPractice(scope: AccessScope, documentContent: Bool) async throws -> PracticeExport

    /// Restores `export` in one transaction (nothing is written when any part is refused).
    func restorePractice(_ export: PracticeExport, requestID: String?, progress: ImportProgressHandler?) async throws
        -> RestoreSummary
}

extension PracticeTransfer {
    /// The scope's whole practice, documents listed without their content.
    public func exportPractice(scope: AccessScope) async throws -> PracticeExport {
        try await exportPractice(scope: scope, documentContent: false)
    }
}

/// Upkeep every store does on a schedule, and its health.
public protocol StoreMaintenance: Sendable {
    /// Whether the store answers (readiness probe).
    func isReady() async -> Bool

    /// Forgets idempotency keys older than `age`; returns how many.
    @discardableResult
    func pruneIdempotencyKeys(olderThan age: TimeInterval) async throws -> Int

    /// Verifies the audit chain as far as `scope` may see it.
    func verifyAuditChain(visibleTo scope: AccessScope) async throws -> AuditVerification
}
