import Foundation
import SharedKernel
import StoragePorts

extension APIHandler {
    func listAudit(_ input: Operations.ListAudit.Input) async throws -> Operations.ListAudit.Output {
        let caller = try await authorize(.readAudit, action: .auditList, resourceType: .audit)
        let before = try input.query.cursor.map(PageCursor.sequence)
        let page = try await store.auditEntries(
            scope: caller.scope, limit: try Self.pageLimit(input.query.limit), before: before,
            resourceType: input.query.resourceType, resourceID: input.query.resourceId)
        try await store.recordAudit(AuditRecord(action: .auditList, resourceType: .audit), scope: caller.scope)
        return .ok(
            .init(
                body: .json(
                    .init(items: page.items.map(Components.Schemas.AuditEntry.init), nextCursor: page.nextCursor))))
    }

    func verifyAudit(_ input: Operations.VerifyAudit.Input) async throws -> Operations.VerifyAudit.Output {
        let caller = try await authorize(.readAudit, action: .auditVerify, resourceType: .audit)
        let result = try await store.verifyAuditChain(visibleTo: caller.scope)
        try await store.recordAudit(
            AuditRecord(
                action: .auditVerify, resourceType: .audit, outcome: .success,
                detail: result.isIntact ? "intact" : "broken at #\(result.firstProblem!.sequence)"), scope: caller.scope
        )
        return .ok(
            .init(
                body: .json(
                    .init(
                        intact: result.isIntact, checked: result.checked, headHash: result.headHash,
                        firstProblem: result.firstProblem.map {
                            .init(sequence: $0.sequence, id: $0.id, reason: $0.reason)
                        }))))
    }
}
