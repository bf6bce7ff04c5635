import Foundation
import SharedKernel
import StoragePorts
import Testing

/// The audit trail's promises, held to every adapter alike.
@Suite("Audit trail contract (every store adapter)")
struct AuditContractTests {
    @Test(
        "entries chain and verify; each practice reads only its own, newest first, in pages",
        arguments: Adapter.available)
    func chainAndIsolation(adapter: Adapter) async throws {
        try await withStore(adapter) { store in
            let a = PracticeID()
            let b = PracticeID()
            for index in 0..<5 {
                try await store.audit.recordAudit(
                    AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "p\(index)"),
                    scope: .system(a))
                try await store.audit.recordAudit(
                    AuditRecord(action: .patientRead, resourceType: .patient, resourceID: "q\(index)"),
                    scope: .system(b))
            }
            try await store.audit.recordAudit(
                AuditRecord(action: .authLogin, resourceType: .session, outcome: .failure), scope: nil)
            let verification = try await store.audit.verifyAuditChain()
            #expect(verification.isIntact && verification.checked == 11)
            // One chain on the embedded store; on PostgreSQL one per practice and the installation's.
            #expect(verification.chains == (adapter == .postgres ? 3 : 1))
            #expect(verification.headSequence == (adapter == .postgres ? 1 : 11))

            let first = try await store.audit.auditEntries(
                scope: .system(a), limit: 3, before: nil, resourceType: nil, resourceID: nil)
            #expect(first.items.map(\.resourceID) == ["p4", "p3", "p2"])
            let cursor = try #require(first.nextCursor.flatMap { Int64($0) })
            let rest = try await store.audit.auditEntries(
                scope: .system(a), limit: 3, before: cursor, resourceType: nil, resourceID: nil)
            #expect(rest.items.map(\.resourceID) == ["p1", "p0"] && rest.nextCursor == nil)
            let one = try await store.audit.auditEntries(
                scope: .system(b), limit: 10, before: nil, resourceType: ResourceKind.patient.rawValue, resourceID: "q3"
            )
            #expect(one.items.map(\.resourceID) == ["q3"] && one.items.allSatisfy { $0.practiceID == b.description })
        }
    }
}
