import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI

/// `POST /api/v1/admin/purge`: bounded retention and an explicit confirmation.
@Suite("Retention purge over HTTP")
struct PurgeAPITests {
    /// An owner with two archived patients: one archived just now, one archived in 2001.
    static func archivedPatients(_ fixture: AppFixture) async throws -> (recent: Patient, old: Patient) {
        let scope = AccessScope.system(fixture.practiceA.id)
        let owner = try await fixture.store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        var recent = try await fixture.store.createPatient(
            Patient(name: "Recent", species: .dog, ownerID: owner.id), scope: scope)
        var old = try await fixture.store.createPatient(
            Patient(name: "Old", species: .cat, ownerID: owner.id), scope: scope)
        for patient in [recent, old] {
            var archived = patient
            archived.status = .archived
            _ = try await fixture.store.updatePatient(archived, scope: scope, expectedVersion: nil)
        }
        let oldID = old.id.description
        try await fixture.store.writer.write { db in
            try db.execute(
                sql: "UPDATE patient SET archived_at = '2001-01-01T00:00:00.000Z' WHERE id = ?", arguments: [oldID])
        }
        recent.status = .archived
        old.status = .archived
        return (recent, old)
    }

    static func remaining(_ fixture: AppFixture) async throws -> Int {
        try await fixture.store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM patient") ?? 0 }
    }

    @Test(
        "a retention outside 1–100 years is 422 naming retentionYears and purges nothing",
        arguments: ["0", "-1", "101"])
    func retentionBounds(_ years: String) async throws {
        let fixture = try await AppFixture.make()
        _ = try await Self.archivedPatients(fixture)
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/admin/purge?retentionYears=\(years)", .post, token: token, json: #"{"confirm":"purge"}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["retentionYears"])
            }
        }
        #expect(try await Self.remaining(fixture) == 2)
    }

    @Test(
        "a purge without the confirmation is 422 naming confirm and purges nothing",
        arguments: ["{}", #"{"confirm":"yes"}"#, #"{"confirm":true}"#])
    func confirmationRequired(_ json: String) async throws {
        let fixture = try await AppFixture.make()
        _ = try await Self.archivedPatients(fixture)
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/admin/purge?retentionYears=1", .post, token: token, json: json) { response in
                #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["confirm"])
            }
        }
        #expect(try await Self.remaining(fixture) == 2)
        let audit = try await fixture.store.auditEntries(scope: .system(fixture.practiceA.id), limit: 200, before: nil)
            .items
        #expect(!audit.contains { $0.action == "patient.purge" || $0.action == "records.purge" })
    }

    @Test("a purge with no body at all is 422 naming confirm and purges nothing")
    func noBody() async throws {
        let fixture = try await AppFixture.make()
        _ = try await Self.archivedPatients(fixture)
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            for headers: HTTPFields in [[:], [.contentType: "application/json"]] {
                try await client.call("/api/v1/admin/purge?retentionYears=1", .post, token: token, headers: headers) {
                    response in
                    #expect(response.status == .unprocessableContent, "\(String(buffer: response.body))")
                    let problem = try Problem(response)
                    #expect(problem.errors?.map(\.field) == ["confirm"])
                }
            }
        }
        #expect(try await Self.remaining(fixture) == 2)
    }

    @Test("a confirmed purge removes only the patient archived longer than the retention and reports what it removed")
    func confirmedPurge() async throws {
        let fixture = try await AppFixture.make()
        let (recent, old) = try await Self.archivedPatients(fixture)
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/admin/purge?retentionYears=1", .post, token: token, json: #"{"confirm":"purge"}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = String(buffer: response.body)
                #expect(body.contains(#""purged" : 1"#))
                #expect(body.contains(#""retentionYears" : 1"#))
            }
            // Not an administrator: refused before the confirmation is even looked at.
            let vet = try await client.login("veterinarian@alpha.example")
            try await client.call("/api/v1/admin/purge", .post, token: vet, json: #"{"confirm":"purge"}"#) {
                #expect($0.status == .forbidden)
            }
        }
        let scope = AccessScope.system(fixture.practiceA.id)
        await #expect(throws: DomainError.notFound(resource: "patient")) {
            _ = try await fixture.store.patient(scope: scope, id: old.id)
        }
        _ = try await fixture.store.patient(scope: scope, id: recent.id)
    }
}
