import Foundation
import PostgresNIO
import SharedKernel
import StoragePorts

extension PostgresStore: StoreMaintenance {
    /// Whether the database answers a query (the readiness probe); `pruneIdempotencyKeys`
    /// is in PostgresStore+Idempotency.swift.
    public func isReady() async -> Bool {
        do {
            for try await one in try await client.query("SELECT 1", logger: logger).decode(Int32.self) {
                return one == 1
            }
            return false
        } catch {
            return false
        }
    }

    /// Verifies the practice's own chain, and the installation's (which holds the practice's
    /// entries written before each practice had a chain of its own), and reports them as far
    /// as `scope` may see: the number of the practice's entries, its chain's head, and a
    /// problem named only when it lies in the practice's entries (elsewhere, only that the
    /// trail is broken outside them).
    public func verifyAuditChain(visibleTo scope: AccessScope) async throws -> AuditVerification {
        let practice = scope.practiceID.description
        return try await transaction(.practice(scope.practiceID)) { connection in
            var count = 0
            for try await value in try await connection.query(
                "SELECT count(*) FROM audit_entry WHERE practice_id = \(practice)", logger: logger
            ).decode(Int64.self) { count = Int(value) }
            let heads =
                try await self.auditHeads(chain: AuditChain.installationChain, connection: connection)
                + self.auditHeads(chain: practice, connection: connection)
            let own = heads.first { $0.chain == practice }.map { (sequence: $0.sequence, hash: $0.hash) }
            guard own != nil || count == 0 else {
                let deleted = "this practice's audit chain has no head row: it was deleted"
                return .seenByPractice(
                    checked: count, head: nil, ownProblem: .init(sequence: 0, id: "-", reason: deleted),
                    problemElsewhere: false)
            }
            for head in heads {
                let walked = try await self.walk(head, connection: connection)
                guard let problem = walked.firstProblem else { continue }
                var owner: String?
                for try await value in try await connection.query(
                    """
                    SELECT practice_id FROM vetnet_audit_chain(\(head.chain), \(problem.sequence), \(problem.sequence))
                    """,
                    logger: logger
                ).decode(String?.self) { owner = value }
                let isOwn = head.chain == practice || owner == practice
                return .seenByPractice(
                    checked: count, head: own, ownProblem: isOwn ? problem : nil, problemElsewhere: !isOwn)
            }
            return .seenByPractice(checked: count, head: own, ownProblem: nil, problemElsewhere: false)
        }
    }
}
