import Foundation
import SharedKernel

/// The append-only, hash-chained audit trail.
///
/// Changes append their entry inside their own transaction (each adapter does that in its
/// write paths); this port is what callers outside a change need. An adapter keeps the chain
/// linear however many processes write to it: SQLite by its single writer, PostgreSQL under a
/// transaction-scoped lock.
public protocol AuditRepository: Sendable {
    /// Appends an entry in a transaction of its own (denials, reads that change nothing).
    func recordAudit(_ record: AuditRecord, scope: AccessScope?) async throws

    /// A page of the practice's entries, newest first; `cursor` is the sequence number to
    /// continue below.
    func auditEntries(
        scope: AccessScope, limit: Int, before cursor: Int64?, resourceType: String?,
        resourceID: String?
    ) async throws -> Page<AuditEntry>

    /// Walks the whole chain and names the first entry edited, deleted, inserted or reordered.
    func verifyAuditChain() async throws -> AuditVerification
}
