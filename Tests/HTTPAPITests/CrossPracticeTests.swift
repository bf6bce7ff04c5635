import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// Nothing one practice's staff can ask reveals another practice's activity.
@Suite("No information crosses practices")
struct CrossPracticeTests {
    struct VerifyBody: Decodable {
        struct Problem: Decodable {
            let sequence: Int64
            let id: String
            let reason: String
        }
        let intact: Bool
        let checked: Int
        let headHash: String
        let firstProblem: Problem?
    }

    @Test("audit verification shows a practice its own entries and never names another practice's")
    func verifyIsPerPractice() async throws {
        let fixture = try await AppFixture.make()
        let ownCount = try await fixture.store.auditEntries(
            scope: .system(fixture.practiceB.id), limit: 200, before: nil
        ).items.count
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
            let alphaEntry = try await fixture.store.auditEntries(
                scope: .system(fixture.practiceA.id), limit: 1, before: nil
            ).items[0]
            try await fixture.store.writer.write { db in
                try db.execute(sql: "DROP TRIGGER audit_entry_no_update")
                try db.execute(
                    sql: "UPDATE audit_entry SET action = 'user.read' WHERE seq = ?", arguments: [alphaEntry.sequence])
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
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/calendar-feed", .delete, token: beta) {
                #expect($0.status == .notFound)
            }
            try await client.call("/api/v1/specialists/\(UUID())/calendar-feed", .delete, token: beta) {
                #expect($0.status == .notFound)
            }
            let alpha = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/calendar-feed", .delete, token: alpha) {
                #expect($0.status == .noContent)
            }
        }
    }

    @Test("metrics cover every practice, so a practice's administrator is refused; the operator's token is not")
    func metricsForOperatorOnly() async throws {
        var fixture = try await AppFixture.make()
        fixture = AppFixture(
            store: fixture.store, services: fixture.services,
            configuration: AppConfiguration(
                maxBodyBytes: fixture.configuration.maxBodyBytes, metricsToken: "operator-secret-token"),
            practiceA: fixture.practiceA, practiceB: fixture.practiceB, accountsA: fixture.accountsA,
            adminB: fixture.adminB)
        try await fixture.test { client in
            let admin = try await client.login("administrator@alpha.example")
            try await client.call("/metrics", token: admin) { #expect($0.status == .unauthorized) }
            try await client.call("/metrics", token: "operator-secret-token") { #expect($0.status == .ok) }
        }
    }

    @Test(
        """
        an email used in another practice can be given to a new account; sign-in tells the two apart by password or \
        practiceId
        """
    )
    func emailPerPractice() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let adminB = try await client.login("admin@beta.example")
            // The address belongs to practice A's veterinarian: practice B learns nothing from creating it.
            let created =
                #"""
                {"email":"veterinarian@alpha.example","displayName":"Vet at \#
                Beta","role":"veterinarian","password":"beta-vet-marmot-owl-41"}
                """#
            try await client.call("/api/v1/users", .post, token: adminB, json: created) {
                #expect($0.status == .created)
            }
            // Within one practice the address stays unique.
            try await client.call("/api/v1/users", .post, token: adminB, json: created) { response in
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(problem.errors?.first?.field == "email")
            }
            // Each password opens its own practice's account.
            try await client.call(
                "/api/v1/auth/login", .post, token: nil,
                json: #"{"email":"veterinarian@alpha.example","password":"\#(AppFixture.password)"}"#
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(fixture.practiceA.id.description))
            }
            try await client.call(
                "/api/v1/auth/login", .post, token: nil,
                json: #"{"email":"veterinarian@alpha.example","password":"beta-vet-marmot-owl-41"}"#
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(fixture.practiceB.id.description))
            }
        }
    }

    @Test("one email and one password for accounts in two practices: 409 naming both, then practiceId chooses")
    func samePasswordTwoPractices() async throws {
        let fixture = try await AppFixture.make()
        let hash = await fixture.services.accounts.hasher.hash(AppFixture.password)
        _ = try await fixture.store.createUser(
            scope: .system(fixture.practiceB.id), email: "receptionist@alpha.example",
            displayName: "Shared Desk", role: .receptionist, passwordHash: hash)
        try await fixture.test { client in
            let login = #"{"email":"receptionist@alpha.example","password":"\#(AppFixture.password)""#
            try await client.call("/api/v1/auth/login", .post, token: nil, json: login + "}") { response in
                #expect(response.status == .conflict)
                let detail = try Problem(response).detail ?? ""
                #expect(detail.contains("Alpha Vets") && detail.contains("Beta Vets"))
            }
            try await client.call(
                "/api/v1/auth/login", .post, token: nil, json: login + #","practiceId":"\#(fixture.practiceB.id)"}"#
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(fixture.practiceB.id.description))
            }
            // A wrong password is refused the same way whatever the address has.
            try await client.call(
                "/api/v1/auth/login", .post, token: nil,
                json: #"{"email":"receptionist@alpha.example","password":"not-the-password-9"}"#
            ) { #expect($0.status == .unauthorized) }
        }
    }
}
