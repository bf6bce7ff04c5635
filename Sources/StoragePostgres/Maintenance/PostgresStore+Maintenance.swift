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

    /// Verifies the installation's chain and reports it as far as `scope` may see it: the
    /// number and head of the practice's own entries, and a problem named only when it lies
    /// in the practice's entries (elsewhere, only that the trail is broken outside them).
    public func verifyAuditChain(visibleTo scope: AccessScope) async throws -> AuditVerification {
        let whole = try await verifyAuditChain()
        let practice = scope.practiceID.description
        let (count, head, problemPractice) = try await transaction(.practice(scope.practiceID)) {
            connection -> (Int, (Int64, String)?, String?) in
            var count = 0
            for try await value in try await connection.query(
                "SELECT count(*) FROM audit_entry WHERE practice_id = \(practice)",
                logger: logger
            ).decode(Int64.self) { count = Int(value) }
            var head: (Int64, String)?
            for try await row in try await connection.query(
                """
                SELECT seq, hash FROM audit_entry WHERE practice_id = \(practice) ORDER BY seq DESC LIMIT 1
                """, logger: logger
            ).decode((Int64, String).self) { head = row }
            var owner: String?
            if let problem = whole.firstProblem {
                for try await value in try await connection.query(
                    "SELECT practice_id FROM vetnet_audit_chain(\(problem.sequence), \(problem.sequence))",
                    logger: logger
                ).decode(String?.self) { owner = value }
            }
            return (count, head, owner)
        }
        var problem = whole.firstProblem
        if problem != nil, problemPractice != practice {
            problem = .init(
                sequence: 0, id: "-",
                reason:
                    "the installation's audit trail is broken outside this practice's entries; the operator's `vetnet audit verify` names the entry"
            )
        }
        return AuditVerification(
            checked: count, firstProblem: problem, headHash: head?.1 ?? AuditChain.genesis, headSequence: head?.0 ?? 0,
            checkpoint: nil)
    }
}
