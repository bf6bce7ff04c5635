import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StoragePorts
import StorageSQLite
import Testing

@testable import HTTPAPI

/// Every read of patient data leaves an audit entry, whatever view it comes through.
@Suite("Reads of patient data are audited")
struct ReadAuditTests {
    static func actions(_ store: VetNetStore, _ practice: PracticeID) async throws -> [AuditEntry] {
        try await store.auditEntries(scope: .system(practice), limit: 200, before: nil).items
    }

    @Test("the schedule, the ER board, matching for a patient, optimize and re-plan are audited")
    func views() async throws {
        let fixture = try await ScheduleFixture.make()
        let day = Timestamp.string(fixture.nineTomorrow)
        let later = Timestamp.string(fixture.nineTomorrow.addingTimeInterval(86_400))
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/appointments?from=\(day)&to=\(later)", token: token) {
                #expect($0.status == .ok)
            }
            try await client.call("/api/v1/triage/queue", token: token) { #expect($0.status == .ok) }
            try await client.call(
                "/api/v1/matching", .post, token: token,
                json:
                    #"""
                    {"specialties":["general_practice"],"species":"dog","complexity":0.2,\#
                    "patientId":"\#(fixture.patient.id)"}
                    """#
            ) {
                #expect($0.status == .ok)
            }
            try await client.call(
                "/api/v1/schedule/optimize", .post, token: token,
                json: #"{"from":"\#(day)","days":1,"requests":[],"timeLimitSeconds":0.1}"#
            ) {
                #expect($0.status == .ok)
            }
        }
        let entries = try await Self.actions(fixture.app.store, fixture.app.practiceA.id)
        let actions = Set(entries.map(\.action))
        for action in ["appointment.list", "triage.queue.read", "matching.rank", "schedule.optimize"] {
            #expect(actions.contains(action), "\(action) not audited")
        }
        #expect(entries.contains { $0.action == "matching.rank" && $0.resourceID == fixture.patient.id.description })
    }

    @Test(
        """
        an Idempotency-Key is the sending account's own: another account's same key is a new request, and every \
        replay is audited
        """
    )
    func replays() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let receptionist = try await client.login("receptionist@alpha.example")
            let technician = try await client.login("technician@alpha.example")
            let json = RecordsAPITests.ownerJSON
            let first = try await client.call(
                "/api/v1/owners", .post, token: receptionist, json: json,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            ) {
                #expect($0.status == .created)
                return try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            try await client.call(
                "/api/v1/owners", .post, token: receptionist, json: json,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            ) {
                let replayed = try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
                #expect(replayed == first)
            }
            // Another account's same key is a request of its own: it creates its own owner and
            // never reads the first one.
            let second = try await client.call(
                "/api/v1/owners", .post, token: technician, json: json,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            ) {
                #expect($0.status == .created)
                #expect(!String(buffer: $0.body).contains(first))
                return try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            #expect(second != first)
            // …and replays its own.
            try await client.call(
                "/api/v1/owners", .post, token: technician, json: json,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            ) {
                let replayed = try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
                #expect(replayed == second)
            }
            // The same account's key with a different request is refused.
            try await client.call(
                "/api/v1/owners", .post, token: receptionist, json: #"{"firstName":"Other","lastName":"Person"}"#,
                headers: [HTTPField.Name("Idempotency-Key")!: "k-1"]
            ) { #expect($0.status == .conflict) }
        }
        let entries = try await Self.actions(fixture.store, fixture.practiceA.id)
        #expect(entries.filter { $0.action == "owner.create.replay" }.count == 2)
    }
}
