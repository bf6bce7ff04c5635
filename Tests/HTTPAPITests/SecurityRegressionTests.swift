import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing
@testable import HTTPAPI

/// Refusals that close ways round the permission matrix, the sign-in throttle and routing.
@Suite("Security regressions")
struct SecurityRegressionTests {
    // MARK: - Re-planning needs the permissions of the changes it makes

    /// Three bookings with Dr General tomorrow from 09:00; returns tomorrow as `yyyy-MM-dd`.
    static func bookTomorrow(_ fixture: ScheduleFixture, client: some TestClientProtocol, token: String) async throws -> String {
        for hour in 0..<3 {
            try await client.call("/api/v1/appointments", .post, token: token,
                                  json: fixture.bookingJSON(start: fixture.nineTomorrow.addingTimeInterval(Double(hour) * 3600))) { #expect($0.status == .created) }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London")!
        let parts = calendar.dateComponents([.year, .month, .day], from: fixture.nineTomorrow)
        return String(format: "%04ld-%02ld-%02ld", parts.year!, parts.month!, parts.day!)
    }

    @Test("a veterinarian may preview a re-plan but applying it is 403, audited, and moves nothing nor writes time off")
    func replanApplyNeedsManageSchedule() async throws {
        let fixture = try await ScheduleFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        try await fixture.app.test { client in
            let vet = try await client.login("veterinarian@alpha.example")
            let date = try await Self.bookTomorrow(fixture, client: client, token: vet)
            let json = #"{"clinicianId":"\#(fixture.clinician.id)","date":"\#(date)""#
            try await client.call("/api/v1/schedule/replan", .post, token: vet, json: json + "}") { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(ReplanBody.self, from: Data(buffer: response.body))
                #expect(body.moved.count == 3)
                #expect(body.moved.allSatisfy { !$0.applied })
            }
            try await client.call("/api/v1/schedule/replan", .post, token: vet, json: json + #","apply":true}"#) { response in
                #expect(response.status == .forbidden)
                let problem = try Problem(response)
                #expect(problem.detail?.contains("apply a re-plan") == true)
            }
        }
        let day = TimeRange(start: fixture.nineTomorrow, end: fixture.nineTomorrow.addingTimeInterval(12 * 3600))!
        let booked = try await fixture.app.store.appointments(scope: scope, overlapping: day)
        #expect(booked.count == 3)
        #expect(booked.allSatisfy { $0.value.clinicianID == fixture.clinician.id.rawValue && $0.version == 1 })
        let availability = try await fixture.app.store.availabilities(scope: scope)[fixture.clinician.id]
        #expect(availability?.value.timeOff.isEmpty == true)
        #expect(availability?.version == 1)
        let refusals = try await fixture.app.store.auditEntries(scope: scope, limit: 200, before: nil).items
            .filter { $0.action == "schedule.replan" && $0.outcome == .denied }
        #expect(refusals.count == 1)
        #expect(refusals.first?.detail?.contains("manageSchedule") == true)
        #expect(refusals.first?.resourceID == fixture.clinician.id.description)
    }

    @Test("an administrator applying the same re-plan moves the appointments and marks the day off")
    func replanApplyByAdministrator() async throws {
        let fixture = try await ScheduleFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let date = try await Self.bookTomorrow(fixture, client: client, token: admin)
            try await client.call("/api/v1/schedule/replan", .post, token: admin,
                                  json: #"{"clinicianId":"\#(fixture.clinician.id)","date":"\#(date)","apply":true}"#) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(ReplanBody.self, from: Data(buffer: response.body))
                #expect(body.moved.count == 3)
                #expect(body.moved.allSatisfy { $0.applied })
            }
        }
        let day = TimeRange(start: fixture.nineTomorrow, end: fixture.nineTomorrow.addingTimeInterval(12 * 3600))!
        let booked = try await fixture.app.store.appointments(scope: scope, overlapping: day)
        #expect(booked.count == 3)
        #expect(booked.allSatisfy { $0.value.clinicianID == fixture.surgeon.id.rawValue })
        let availability = try await fixture.app.store.availabilities(scope: scope)[fixture.clinician.id]
        #expect(availability?.value.timeOff.count == 1)
    }
}
