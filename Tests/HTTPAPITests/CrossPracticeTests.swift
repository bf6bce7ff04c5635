import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing
@testable import HTTPAPI

/// Nothing one practice's staff can ask reveals another practice's activity.
@Suite("No information crosses practices")
struct CrossPracticeTests {
    struct VerifyBody: Decodable {
        struct Problem: Decodable { let sequence: Int64; let id: String; let reason: String }
        let intact: Bool
        let checked: Int
        let headHash: String
        let firstProblem: Problem?
    }

    @Test("audit verification shows a practice its own entries and never names another practice's")
    func verifyIsPerPractice() async throws {
        let fixture = try await AppFixture.make()
        let ownCount = try await fixture.store.auditEntries(scope: .system(fixture.practiceB.id), limit: 200, before: nil).items.count
        try await fixture.test { client in
            let beta = try await client.login("admin@beta.example")
            let intact = try await client.call("/api/v1/audit/verify", token: beta) { response in
                try JSONDecoder().decode(VerifyBody.self, from: Data(buffer: response.body))
            }
            #expect(intact.intact)
            // Its own entries: the ones before this request plus the sign-in.
            #expect(intact.checked == ownCount + 1)
            let whole = try await fixture.store.verifyAuditChain()
            #expect(intact.headHash != whole.headHash)

            // A break in Alpha's entries: Beta learns that the trail is broken, not where.
            let alphaEntry = try await fixture.store.auditEntries(scope: .system(fixture.practiceA.id), limit: 1, before: nil).items[0]
            try await fixture.store.writer.write { db in
                try db.execute(sql: "DROP TRIGGER audit_entry_no_update")
                try db.execute(sql: "UPDATE audit_entry SET action = 'user.read' WHERE seq = ?", arguments: [alphaEntry.sequence])
            }
            let broken = try await client.call("/api/v1/audit/verify", token: beta) { response in
                try JSONDecoder().decode(VerifyBody.self, from: Data(buffer: response.body))
            }
            #expect(!broken.intact)
            #expect(broken.firstProblem?.sequence == 0)
            #expect(broken.firstProblem?.id == "-")
        }
    }

    @Test("revoking another practice's clinician's calendar feed is 404, like a clinician that does not exist")
    func feedRevocationIsScoped() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let beta = try await client.login("admin@beta.example")
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/calendar-feed", .delete, token: beta) { #expect($0.status == .notFound) }
            try await client.call("/api/v1/specialists/\(UUID())/calendar-feed", .delete, token: beta) { #expect($0.status == .notFound) }
            let alpha = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/calendar-feed", .delete, token: alpha) { #expect($0.status == .noContent) }
        }
    }

    @Test("metrics cover every practice, so a practice's administrator is refused; the operator's token is not")
    func metricsForOperatorOnly() async throws {
        var fixture = try await AppFixture.make()
        fixture = AppFixture(store: fixture.store, services: fixture.services,
                             configuration: AppConfiguration(maxBodyBytes: fixture.configuration.maxBodyBytes, metricsToken: "operator-secret-token"),
                             practiceA: fixture.practiceA, practiceB: fixture.practiceB, accountsA: fixture.accountsA, adminB: fixture.adminB)
        try await fixture.test { client in
            let admin = try await client.login("administrator@alpha.example")
            try await client.call("/metrics", token: admin) { #expect($0.status == .unauthorized) }
            try await client.call("/metrics", token: "operator-secret-token") { #expect($0.status == .ok) }
        }
    }
}
