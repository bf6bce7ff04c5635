import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Scheduling
import SharedKernel
import Specialists
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// Instants of London wall-clock times.
enum London {
    static let zone = TimeZone(identifier: "Europe/London")!
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// The instant of `hour:minute` London time on the day `days` after today.
    static func time(daysFromToday days: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        let day = calendar.date(byAdding: .day, value: days, to: calendar.startOfDay(for: Date()))!
        return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: day)!
    }

    /// `yyyy-MM-dd` of the day `days` after today.
    static func date(daysFromToday days: Int) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: time(daysFromToday: days, 12))
        return String(format: "%04ld-%02ld-%02ld", parts.year!, parts.month!, parts.day!)
    }

    /// The next spring daylight-saving day (last Sunday of March) after today, as `yyyy-MM-dd`
    /// and the number of days until it.
    static func nextSpringChange() -> (date: String, days: Int) {
        for days in 1...400 {
            let noon = time(daysFromToday: days, 12)
            let start = calendar.startOfDay(for: noon)
            let next = calendar.date(byAdding: .day, value: 1, to: start)!
            if next.timeIntervalSince(start) == 23 * 3600 { return (date(daysFromToday: days), days) }
        }
        fatalError("no daylight-saving change within 400 days")
    }
}

@Suite("Practice settings and closures over HTTP")
struct PracticeAdminAPITests {
    @Test("a closure removes slots and refuses bookings in it, in local time across a daylight-saving change")
    func closureAcrossDaylightSaving() async throws {
        let fixture = try await ScheduleFixture.make()
        let (day, offset) = London.nextSpringChange()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/practice/closures", .post, token: admin,
                json: #"{"firstDay":"\#(day)","from":"13:00","reason":"Staff training"}"#
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(ClosureAddedBody.self, from: Data(buffer: response.body))
                #expect(body.closure.from == "13:00" && body.closure.until == "24:00" && !body.closure.wholeDay)
            }
            let receptionist = try await client.login("receptionist@alpha.example")
            let from = Timestamp.string(London.time(daysFromToday: offset, 0))
            let to = Timestamp.string(London.time(daysFromToday: offset + 1, 0))
            try await client.call(
                """
                /api/v1/appointments/slots?from=\(from)&to=\(to)&appointmentTypeId=\(fixture.consultation.id)\
                &clinicianId=\(fixture.clinician.id)&limit=500
                """,
                token: receptionist
            ) { response in
                let starts = try JSONDecoder().decode(SlotsBody.self, from: Data(buffer: response.body)).items
                    .compactMap { Timestamp.date($0.start) }
                #expect(starts.first == London.time(daysFromToday: offset, 8))
                // 12:45 BST is the last 15-minute slot before the closure; 13:00 BST is 12:00Z.
                #expect(starts.last == London.time(daysFromToday: offset, 12, 45))
                #expect(!starts.contains { $0 >= London.time(daysFromToday: offset, 13) })
            }
            let lateMorning = London.time(daysFromToday: offset, 12)
            let afternoon = London.time(daysFromToday: offset, 13)
            // The afternoon is 12:00Z: a closure read in UTC would still let it through.
            var utc = Calendar(identifier: .gregorian)
            utc.timeZone = TimeZone(identifier: "UTC")!
            #expect(utc.component(.hour, from: afternoon) == 12)
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist, json: fixture.bookingJSON(start: afternoon)
            ) { response in
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(problem.detail?.contains("Staff training") == true)
            }
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist, json: fixture.bookingJSON(start: lateMorning)
            ) {
                #expect($0.status == .created)
            }
        }
    }

    @Test(
        """
        a booking that falls in a newly added closure is reported for re-planning and kept; removing the closure \
        reopens the time
        """
    )
    func newClosureReportsBookings() async throws {
        let fixture = try await ScheduleFixture.make()
        let start = London.time(daysFromToday: 3, 14)
        try await fixture.app.test { client in
            let receptionist = try await client.login("receptionist@alpha.example")
            let booked = try await client.call(
                "/api/v1/appointments", .post, token: receptionist, json: fixture.bookingJSON(start: start)
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            let admin = try await client.login("administrator@alpha.example")
            let closureID = try await client.call(
                "/api/v1/practice/closures", .post, token: admin,
                json: #"{"firstDay":"\#(London.date(daysFromToday: 3))","from":"12:00","reason":"Boiler replacement"}"#
            ) { response in
                #expect(response.status == .created)
                let body = try JSONDecoder().decode(ClosureAddedBody.self, from: Data(buffer: response.body))
                #expect(body.appointmentsToReplan.map(\.id) == [booked])
                return body.closure.id
            }
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist,
                json: fixture.bookingJSON(start: start.addingTimeInterval(3600))
            ) { #expect($0.status == .conflict) }
            try await client.call("/api/v1/practice/closures/\(closureID)", .delete, token: admin) {
                #expect($0.status == .noContent)
            }
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist,
                json: fixture.bookingJSON(start: start.addingTimeInterval(3600))
            ) { #expect($0.status == .created) }
            try await client.call("/api/v1/practice/closures/\(closureID)", .delete, token: admin) {
                #expect($0.status == .notFound)
            }
        }
        let kept = try await fixture.app.store.appointments(
            scope: .system(fixture.app.practiceA.id),
            overlapping: TimeRange(start: start, end: start.addingTimeInterval(60))!)
        #expect(kept.map(\.value.status) == [.booked])
        let actions = try await fixture.app.store.auditEntries(
            scope: .system(fixture.app.practiceA.id), limit: 200, before: nil
        ).items.map(\.action)
        #expect(actions.contains("practice.closure.add") && actions.contains("practice.closure.remove"))
        let kinds = try await fixture.app.store.events(practiceID: fixture.app.practiceA.id, after: 0, limit: 500)
            .events.map(\.kind)
        #expect(kinds.filter { $0.hasPrefix("practice.") } == ["practice.closure_added", "practice.closure_removed"])
    }

    @Test(
        """
        a retried closure with the same Idempotency-Key adds one closure and answers with it; yearly closures come back
        """
    )
    func idempotentYearlyClosure() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let json = #"{"firstDay":"\#(London.date(daysFromToday: 4))","recursYearly":true,"reason":"Founders' day"}"#
            var ids = Set<String>()
            for _ in 0..<3 {
                ids.insert(
                    try await client.call(
                        "/api/v1/practice/closures", .post, token: admin, json: json,
                        headers: [HTTPField.Name("Idempotency-Key")!: "founders-day"]
                    ) { response in
                        #expect(response.status == .created)
                        return try JSONDecoder().decode(ClosureAddedBody.self, from: Data(buffer: response.body))
                            .closure.id
                    })
            }
            #expect(ids.count == 1)
            try await client.call("/api/v1/practice/closures", token: admin) { response in
                #expect(String(buffer: response.body).components(separatedBy: "Founders' day").count == 2)
            }
            // A year later the day is closed again.
            let receptionist = try await client.login("receptionist@alpha.example")
            let nextYear = London.calendar.date(byAdding: .year, value: 1, to: London.time(daysFromToday: 4, 10))!
            try await client.call(
                "/api/v1/appointments", .post, token: receptionist, json: fixture.bookingJSON(start: nextYear)
            ) { response in
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(problem.detail?.contains("Founders' day") == true)
            }
        }
    }

    @Test("the optimizer plans nothing into a closed day")
    func optimizeAroundClosure() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            // Tomorrow is closed all day.
            try await client.call(
                "/api/v1/practice/closures", .post, token: admin,
                json: #"{"firstDay":"\#(London.date(daysFromToday: 1))","reason":"Bank holiday"}"#
            ) { #expect($0.status == .created) }
            let requests = (0..<3).map {
                #"""
                {"reference":"r\#($0)","patientId":"\#(fixture.patient.id)",\#
                "appointmentTypeId":"\#(fixture.consultation.id)","triageLevel":5,\#
                "earliestStart":"\#(Timestamp.string(fixture.nineTomorrow))",\#
                "deadline":"\#(Timestamp.string(London.time(daysFromToday: 2, 17)))"}
                """#
            }
            let json =
                #"""
                {"from":"\#(Timestamp.string(London.time(daysFromToday: 1, 0)))","days":2,"timeLimitSeconds":0.3,\#
                "requests":[\#(requests.joined(separator: ","))]}
                """#
            try await client.call("/api/v1/schedule/optimize", .post, token: admin, json: json) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(PlanStarts.self, from: Data(buffer: response.body))
                #expect(body.assigned == 3)
                #expect(
                    body.plan.allSatisfy {
                        (Timestamp.date($0.start) ?? .distantPast) >= London.time(daysFromToday: 2, 0)
                    })
            }
        }
    }

    @Test("intake offers no slot inside a closure")
    func intakeAroundClosure() async throws {
        // Ten o'clock the day after tomorrow, with a clinician working and nothing booked.
        let now = London.time(daysFromToday: 2, 10)
        let fixture = try await ScheduleFixture.make(clock: .fixed(now))
        let json =
            #"""
            {"patientId":"\#(fixture.patient.id)","case":{"species":"dog","onsetHoursAgo":30,"findings":["swelling"]}}
            """#
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            try await client.call("/api/v1/intake", .post, token: token, json: json) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let decoded = try JSONDecoder().decode(IntakeBody.self, from: Data(buffer: response.body))
                #expect(!decoded.offeredSlots.isEmpty)
            }
            let admin = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/practice/closures", .post, token: admin,
                json:
                    #"{"firstDay":"\#(London.date(daysFromToday: 2))","from":"10:00","reason":"Flooded waiting room"}"#
            ) {
                #expect($0.status == .created)
            }
            try await client.call("/api/v1/intake", .post, token: token, json: json) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(IntakeBody.self, from: Data(buffer: response.body))
                #expect(!body.emergency && !body.clinicians.isEmpty)
                #expect(body.offeredSlots.isEmpty)
            }
        }
    }

    @Test("re-planning an absent clinician's day never moves an appointment into a closure")
    func replanAroundClosure() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            for hour in [9, 10] {
                try await client.call(
                    "/api/v1/appointments", .post, token: admin,
                    json: fixture.bookingJSON(start: London.time(daysFromToday: 1, hour))
                ) {
                    #expect($0.status == .created)
                }
            }
            // From 09:30 the practice is closed: the colleague cannot take the 10:00 in its place.
            try await client.call(
                "/api/v1/practice/closures", .post, token: admin,
                json: #"{"firstDay":"\#(London.date(daysFromToday: 1))","from":"09:30","reason":"Power cut repairs"}"#
            ) { response in
                let decoded = try JSONDecoder().decode(ClosureAddedBody.self, from: Data(buffer: response.body))
                #expect(decoded.appointmentsToReplan.count == 1)
            }
            try await client.call(
                "/api/v1/schedule/replan", .post, token: admin,
                json: #"{"clinicianId":"\#(fixture.clinician.id)","date":"\#(London.date(daysFromToday: 1))"}"#
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(ReplanMoves.self, from: Data(buffer: response.body))
                let closedFrom = London.time(daysFromToday: 1, 9, 30)
                #expect(body.moved.count + body.unplaced.count == 2)
                #expect(body.unplaced.contains { $0.reason == "practice_closed" })
                #expect(!body.moved.isEmpty)
                // Nothing lands in the closure, even partly (15-minute consultations).
                #expect(
                    body.moved.allSatisfy {
                        (Timestamp.date($0.toStart) ?? .distantFuture).addingTimeInterval(15 * 60) <= closedFrom
                    })
            }
        }
    }

    @Test(
        """
        settings: If-Match, every bad field named, the grid shapes the slots, and changed hours report stranded bookings
        """
    )
    func settings() async throws {
        let fixture = try await ScheduleFixture.make()
        try await fixture.app.test { client in
            let admin = try await client.login("administrator@alpha.example")
            let version = try await client.call("/api/v1/practice", token: admin) { response in
                #expect(response.status == .ok)
                return response.headers[.eTag] ?? ""
            }
            let receptionist = try await client.login("receptionist@alpha.example")
            let booked = try await client.call(
                "/api/v1/appointments", .post, token: receptionist,
                json: fixture.bookingJSON(start: London.time(daysFromToday: 2, 17, 30))
            ) {
                try JSONDecoder().decode(IDBody.self, from: Data(buffer: $0.body)).id
            }
            try await client.call(
                "/api/v1/practice", .patch, token: admin,
                json:
                    #"""
                    {"slotGridMinutes":7,"retentionYears":0,"openingHours":[{"weekday":1,"opens":"19:00",\#
                    "closes":"08:00"}]}
                    """#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let fields = try Problem(response).errors?.map(\.field) ?? []
                #expect(fields.contains("retentionYears"))
            }
            try await client.call("/api/v1/practice", .patch, token: admin, json: #"{"slotGridMinutes":7}"#) {
                response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["slotGridMinutes"])
            }
            let hours = (1...7).map { #"{"weekday":\#($0),"opens":"08:00","closes":"17:30"}"# }.joined(separator: ",")
            try await client.call(
                "/api/v1/practice", .patch, token: admin,
                json:
                    #"""
                    {"slotGridMinutes":30,"openingHours":[\#(hours)],"retentionYears":10,\#
                    "services":["general_practice","cardiology"]}
                    """#,
                headers: [.ifMatch: version]
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try JSONDecoder().decode(PracticeChangeBody.self, from: Data(buffer: response.body))
                #expect(body.practice.slotGridMinutes == 30 && body.practice.retentionYears == 10)
                #expect(body.appointmentsToReplan.map(\.id) == [booked])
            }
            try await client.call(
                "/api/v1/practice", .patch, token: admin, json: #"{"name":"Stale"}"#, headers: [.ifMatch: version]
            ) {
                #expect($0.status == .preconditionFailed)
            }
            // The time zone cannot change under the booking still to come.
            try await client.call("/api/v1/practice", .patch, token: admin, json: #"{"timeZone":"America/New_York"}"#) {
                response in
                #expect(response.status == .conflict)
                let problem = try Problem(response)
                #expect(problem.detail?.contains("1 appointment") == true)
            }
            try await client.call("/api/v1/practice", .patch, token: receptionist, json: #"{"name":"Mine now"}"#) {
                #expect($0.status == .forbidden)
            }
            let from = Timestamp.string(London.time(daysFromToday: 3, 0))
            let to = Timestamp.string(London.time(daysFromToday: 4, 0))
            try await client.call(
                """
                /api/v1/appointments/slots?from=\(from)&to=\(to)&appointmentTypeId=\(fixture.consultation.id)&limit=500
                """,
                token: receptionist
            ) { response in
                let starts = try JSONDecoder().decode(SlotsBody.self, from: Data(buffer: response.body)).items
                    .compactMap { Timestamp.date($0.start) }
                #expect(!starts.isEmpty)
                #expect(starts.allSatisfy { London.calendar.component(.minute, from: $0) % 30 == 0 })
                #expect(starts.allSatisfy { $0 < London.time(daysFromToday: 3, 17, 30) })
            }
            // A type needing a service the practice does not offer is refused.
            try await client.call(
                "/api/v1/appointment-types", .post, token: admin,
                json: #"{"name":"Dental scale","defaultDurationMinutes":45,"requiredSpecialty":"dentistry"}"#
            ) { response in
                #expect(response.status == .unprocessableContent)
                let problem = try Problem(response)
                #expect(problem.errors?.map(\.field) == ["requiredSpecialty"])
            }
        }
        let practice = try await fixture.app.store.practice(scope: .system(fixture.app.practiceA.id))
        #expect(practice.name == "Alpha Vets" && practice.timeZone == "Europe/London" && practice.slotGridMinutes == 30)
    }
}

struct ClosureAddedBody: Decodable {
    struct Closure: Decodable {
        let id: String
        let from: String
        let until: String
        let wholeDay: Bool
    }
    let closure: Closure
    let appointmentsToReplan: [IDBody]
}
struct PracticeChangeBody: Decodable {
    struct Practice: Decodable {
        let slotGridMinutes: Int?
        let retentionYears: Int?
    }
    let practice: Practice
    let appointmentsToReplan: [IDBody]
}
struct PlanStarts: Decodable {
    struct Planned: Decodable { let start: String }
    let assigned: Int
    let plan: [Planned]
}
struct ReplanMoves: Decodable {
    struct Moved: Decodable { let toStart: String }
    struct Unplaced: Decodable {
        let appointmentId: String
        let reason: String
    }
    let moved: [Moved]
    let unplaced: [Unplaced]
}
