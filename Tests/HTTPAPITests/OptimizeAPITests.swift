import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Scheduling
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

@Suite("Schedule optimization and re-planning over HTTP")
struct OptimizeAPITests {
    @Test("open requests are planned around fixed bookings, on time by urgency, and booked when asked")
    func optimize() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            // A fixed booking at 09:00 with Dr General.
            try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) { #expect($0.status == .created) }
            let requests = (0..<8).map { index in
                #"""
                {"reference":"r\#(index)","patientId":"\#(fixture.patient.id)",\#
                "appointmentTypeId":"\#(fixture.consultation.id)","triageLevel":\#(index % 5 + 1),\#
                "earliestStart":"\#(Timestamp.string(fixture.nineTomorrow))",\#
                "deadline":"\#(Timestamp.string(fixture.nineTomorrow.addingTimeInterval(3 * 3600)))"}
                """#
            }
            let json =
                #"""
                {"from":"\#(Timestamp.string(fixture.nineTomorrow))","days":1,"timeLimitSeconds":0.5,"apply":true,\#
                "requests":[\#(requests.joined(separator: ","))]}
                """#
            try await client.call("/api/v1/schedule/optimize", .post, token: token, json: json) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(PlanBody.self, from: Data(buffer: response.body))
                #expect(body.assigned == 8)
                #expect(body.unassigned.isEmpty)
                #expect(body.plan.allSatisfy { $0.onTime })
                #expect(body.plan.allSatisfy { $0.appointmentId != nil })
                #expect(body.score > 0.5)
            }
        }
        let booked = try await fixture.app.store.appointments(
            scope: .system(fixture.app.practiceA.id),
            overlapping: TimeRange(start: fixture.nineTomorrow, end: fixture.nineTomorrow.addingTimeInterval(86_400))!)
        #expect(booked.count == 9)
    }

    /// The practice's day (Europe/London) of `moment`, as the re-plan asks for it.
    static func londonDay(_ moment: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London")!
        let parts = calendar.dateComponents([.year, .month, .day], from: moment)
        return String(format: "%04ld-%02ld-%02ld", parts.year!, parts.month!, parts.day!)
    }

    @Test(
        """
        when a clinician is unavailable for a day their appointments move to a colleague, on time, and the day is \
        marked off
        """
    )
    func replan() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            for hour in 0..<3 {
                try await client.call(
                    "/api/v1/appointments", .post, token: token,
                    json: fixture.bookingJSON(start: fixture.nineTomorrow.addingTimeInterval(Double(hour) * 3600))
                ) { #expect($0.status == .created) }
            }
            let date = Self.londonDay(fixture.nineTomorrow)
            try await client.call(
                "/api/v1/schedule/replan", .post, token: token,
                json: #"{"clinicianId":"\#(fixture.clinician.id)","date":"\#(date)","apply":true}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(ReplanBody.self, from: Data(buffer: response.body))
                #expect(body.moved.count == 3)
                #expect(body.unplaced.isEmpty)
                #expect(body.moved.allSatisfy { $0.applied && $0.toClinicianId == fixture.surgeon.id.description })
            }
        }
        let day = try await fixture.app.store.appointments(
            scope: .system(fixture.app.practiceA.id),
            overlapping: TimeRange(
                start: fixture.nineTomorrow, end: fixture.nineTomorrow.addingTimeInterval(12 * 3600))!)
        #expect(day.allSatisfy { $0.value.clinicianID == fixture.surgeon.id.rawValue })
        let availability = try await fixture.app.store.availabilities(scope: .system(fixture.app.practiceA.id))[
            fixture.clinician.id]
        #expect(availability?.value.timeOff.count == 1)
    }

    @Test(
        """
        a day on which a retired clinician still has bookings can be re-planned for a colleague: those bookings stay \
        fixed
        """
    )
    func replanBesideRetired() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let retiredBooking = try await client.call(
                "/api/v1/appointments", .post, token: token, json: fixture.bookingJSON(start: fixture.nineTomorrow)
            ) { try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id }
            try await client.call(
                "/api/v1/appointments", .post, token: token,
                json: fixture.bookingJSON(
                    start: fixture.nineTomorrow.addingTimeInterval(3600), clinician: fixture.surgeon)
            ) { #expect($0.status == .created) }
            try await client.call("/api/v1/specialists/\(fixture.clinician.id)/retire", .post, token: token) {
                #expect($0.status == .ok)
            }
            let date = Self.londonDay(fixture.nineTomorrow)
            try await client.call(
                "/api/v1/schedule/replan", .post, token: token,
                json: #"{"clinicianId":"\#(fixture.surgeon.id)","date":"\#(date)"}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(ReplanBody.self, from: Data(buffer: response.body))
                // No colleague with hours is left: the surgeon's appointment is reported, and
                // nothing is moved onto the retired clinician nor is their booking moved.
                #expect(body.moved.isEmpty && body.unplaced.count == 1)
                #expect(!String(buffer: response.body).contains(retiredBooking))
            }
        }
    }
}

struct PlanBody: Decodable {
    struct Planned: Decodable {
        let reference: String
        let onTime: Bool
        let appointmentId: String?
    }
    let score: Double
    let assigned: Int
    let unassigned: [String]
    let plan: [Planned]
}
struct ReplanBody: Decodable {
    struct Moved: Decodable {
        let toClinicianId: String
        let applied: Bool
    }
    struct Unplaced: Decodable { let reason: String }
    let moved: [Moved]
    let unplaced: [Unplaced]
}
