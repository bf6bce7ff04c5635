import Analytics
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PatientRecords
import Scheduling
import SharedKernel
import Specialists
import StorageSQLite
import Testing
import Triage

@testable import HTTPAPI
@testable import PracticeServices

/// A week of practice A written through the real store, small enough to count by hand
/// (London is on UTC in early March, so local times are the instants below):
///
/// | appointment | when (2026) | type | outcome | booked |
/// |---|---|---|---|---|
/// | a1 Rex (dog) | Mon 02-03 09:00 | consultation 30 min | completed, 35 min | 02-20 10:00 |
/// | a2 Rex | Mon 10:00 | consultation | no-show | 02-25 10:00 |
/// | a3 Tom (cat) | Tue 09:00 | consultation | cancelled 03-02 20:00 (late) | 02-26 09:00 |
/// | a4 Rex | Wed 09:00 | surgery 60 min | completed, 50 min | 02-10 09:00 |
/// | a5 Tom | Thu 09:00 | consultation | cancelled 02-25 09:00 (early) | 02-20 09:00 |
/// | a6 Bella (dog) | Fri 09:00 | consultation | completed, 30 min | 03-05 09:00 |
///
/// Bella also came on 16 February (returning); Rex's first visit is a1 (new). Dr Hart works
/// weekdays 09:00–17:00 (2 400 min in the week); Dr "=SUM(A1)" has no hours. Triage: orange
/// Mon 18:00 seen after 10 min, orange Tue 18:00 after 25 min (a breach), red Wed 12:00 at once.
/// Practice B has three appointments the same week, never counted for A.
struct AnalyticsFixture: Sendable {
    let app: AppFixture
    let hart: Clinician
    let formula: Clinician
    let consultation: AppointmentType
    let surgery: AppointmentType
    let rex: Patient, tom: Patient, bella: Patient
    let room: Room

    static let week = "from=2026-03-02&to=2026-03-08"

    static func at(_ text: String) -> Date { Timestamp.date(text)! }

    static func make() async throws -> AnalyticsFixture {
        let app = try await AppFixture.make()
        let store = app.store
        let scope = AccessScope.system(app.practiceA.id)
        let hart = try await store.createClinician(
            Clinician(
                displayName: "Dr Hart", credentials: "BVSc",
                expertise: [Expertise(specialty: .generalPractice, proficiency: 4, years: 8)], species: [.dog, .cat],
                maxAppointmentsPerDay: 20, complexityCeiling: 1), scope: scope)
        let formula = try await store.createClinician(
            Clinician(
                displayName: "=SUM(A1)", credentials: "BVSc", expertise: [],
                species: [.dog], maxAppointmentsPerDay: 20, complexityCeiling: 1), scope: scope)
        _ = try await store.setAvailability(
            ClinicianAvailability(
                clinicianID: hart.id,
                weekly: (1...5).map { WeeklyInterval(weekday: $0, startMinute: 9 * 60, endMinute: 17 * 60) }),
            scope: scope, expectedVersion: nil)
        let room = try await store.createRoom(Room(name: "Consult 1", type: .exam), scope: scope)
        let consultation = try await store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 30,
                fee: Money(minorUnits: 4000, currency: "GBP")), scope: scope)
        let surgery = try await store.createAppointmentType(
            AppointmentType(
                name: "Surgery", defaultDurationMinutes: 60,
                fee: Money(minorUnits: 20000, currency: "GBP")), scope: scope)
        let owner = try await store.createOwner(Owner(firstName: "Jo", lastName: "Bloggs"), scope: scope)
        let rex = try await store.createPatient(Patient(name: "Rex", species: .dog, ownerID: owner.id), scope: scope)
        let tom = try await store.createPatient(Patient(name: "Tom", species: .cat, ownerID: owner.id), scope: scope)
        let bella = try await store.createPatient(
            Patient(name: "Bella", species: .dog, ownerID: owner.id), scope: scope)

        func visit(
            _ patient: Patient, _ type: AppointmentType, _ start: String, _ status: AppointmentStatus,
            actual: Int? = nil,
            booked: String, cancelled: String? = nil
        ) -> AppointmentRecord {
            let begin = at(start)
            let time = TimeRange(start: begin, end: begin.addingTimeInterval(Double(type.defaultDurationMinutes) * 60))!
            let appointment = Appointment(
                practiceID: app.practiceA.id, patientID: patient.id.rawValue, clinicianID: hart.id.rawValue,
                appointmentTypeID: type.id, roomType: .exam, roomID: room.id, time: time, status: status,
                completedAt: actual.map { time.start.addingTimeInterval(Double($0) * 60) }, actualMinutes: actual,
                cancellationReason: cancelled == nil ? nil : "owner rang")
            return AppointmentRecord(
                appointment, species: patient.species, bookedAt: at(booked), cancelledAt: cancelled.map(at))
        }
        let appointments = [
            visit(bella, consultation, "2026-02-16T09:00:00Z", .completed, actual: 30, booked: "2026-02-10T09:00:00Z"),
            visit(rex, consultation, "2026-03-02T09:00:00Z", .completed, actual: 35, booked: "2026-02-20T10:00:00Z"),
            visit(rex, consultation, "2026-03-02T10:00:00Z", .noShow, booked: "2026-02-25T10:00:00Z"),
            visit(
                tom, consultation, "2026-03-03T09:00:00Z", .cancelled, booked: "2026-02-26T09:00:00Z",
                cancelled: "2026-03-02T20:00:00Z"),
            visit(rex, surgery, "2026-03-04T09:00:00Z", .completed, actual: 50, booked: "2026-02-10T09:00:00Z"),
            visit(
                tom, consultation, "2026-03-05T09:00:00Z", .cancelled, booked: "2026-02-20T09:00:00Z",
                cancelled: "2026-02-25T09:00:00Z"),
            visit(bella, consultation, "2026-03-06T09:00:00Z", .completed, actual: 30, booked: "2026-03-05T09:00:00Z"),
        ]
        let arrivals = [
            TriageArrival(
                patientID: rex.id.rawValue, level: .orange, arrival: at("2026-03-02T18:00:00Z"),
                firstSeenAt: at("2026-03-02T18:10:00Z")),
            TriageArrival(
                patientID: tom.id.rawValue, level: .orange, arrival: at("2026-03-03T18:00:00Z"),
                firstSeenAt: at("2026-03-03T18:25:00Z")),
            TriageArrival(
                patientID: rex.id.rawValue, level: .red, arrival: at("2026-03-04T12:00:00Z"),
                firstSeenAt: at("2026-03-04T12:00:00Z")),
        ]
        try await store.bulkLoadHistory(appointments: appointments, arrivals: arrivals, weights: [], scope: scope)

        // Practice B, the same week.
        let b = AccessScope.system(app.practiceB.id)
        let theirs = try await store.createClinician(
            Clinician(
                displayName: "Dr Autre", credentials: "DVM", expertise: [], species: [.dog],
                maxAppointmentsPerDay: 20, complexityCeiling: 1), scope: b)
        let theirType = try await store.createAppointmentType(
            AppointmentType(
                name: "Consultation", defaultDurationMinutes: 30,
                fee: Money(minorUnits: 9900, currency: "EUR")), scope: b)
        let theirOwner = try await store.createOwner(Owner(firstName: "Luc", lastName: "Martin"), scope: b)
        let theirPatient = try await store.createPatient(
            Patient(name: "Milou", species: .dog, ownerID: theirOwner.id), scope: b)
        let theirVisits = ["2026-03-02T09:00:00Z", "2026-03-03T09:00:00Z", "2026-03-04T09:00:00Z"].map { start in
            AppointmentRecord(
                Appointment(
                    practiceID: app.practiceB.id, patientID: theirPatient.id.rawValue, clinicianID: theirs.id.rawValue,
                    appointmentTypeID: theirType.id,
                    time: TimeRange(start: at(start), end: at(start).addingTimeInterval(1800))!,
                    status: .completed, completedAt: at(start).addingTimeInterval(1800), actualMinutes: 30),
                species: .dog, bookedAt: at("2026-02-01T09:00:00Z"))
        }
        try await store.bulkLoadHistory(
            appointments: theirVisits,
            arrivals: [
                TriageArrival(
                    patientID: theirPatient.id.rawValue, level: .orange, arrival: at("2026-03-02T18:00:00Z"),
                    firstSeenAt: nil)
            ], weights: [], scope: b)
        return AnalyticsFixture(
            app: app, hart: hart, formula: formula, consultation: consultation, surgery: surgery, rex: rex, tom: tom,
            bella: bella, room: room)
    }
}

/// A response as the tests read it.
struct Answer: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
    /// The fields a problem names.
    var problemFields: [String] {
        ((json["errors"] as? [[String: Any]]) ?? []).compactMap { $0["field"] as? String }
    }
}

extension TestClientProtocol {
    func get(_ uri: String, token: String, headers: HTTPFields = [:]) async throws -> Answer {
        try await call(uri, token: token, headers: headers) {
            Answer(status: $0.status, headers: $0.headers, body: Data(buffer: $0.body))
        }
    }
}

private func figure(_ object: Any?, _ path: String...) -> Any? {
    var current = object
    for key in path {
        if let index = Int(key), let array = current as? [Any] {
            current = index < array.count ? array[index] : nil
        } else {
            current = (current as? [String: Any])?[key]
        }
    }
    return current
}

private func number(_ object: Any?, _ path: String...) -> Double? {
    var current = object
    for key in path {
        if let index = Int(key), let array = current as? [Any] {
            current = index < array.count ? array[index] : nil
        } else {
            current = (current as? [String: Any])?[key]
        }
    }
    return (current as? NSNumber)?.doubleValue
}

@Suite("Analytics over HTTP")
struct AnalyticsAPITests {
    // MARK: - Dashboard

    @Test("the dashboard's figures are the hand-counted ones, and practice B's week changes none of them")
    func dashboard() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let answer = try await client.get("/api/v1/analytics/dashboard?\(AnalyticsFixture.week)", token: token)
            #expect(answer.status == .ok)
            let body = answer.json
            #expect(body["timeZone"] as? String == "Europe/London")
            #expect(body["revenueIncluded"] as? Bool == true)
            let practice = body["practice"]
            #expect(number(practice, "appointments", "total") == 6)
            #expect(number(practice, "appointments", "completed") == 3)
            #expect(number(practice, "appointments", "cancelled") == 2)
            #expect(number(practice, "appointments", "noShow") == 1)
            #expect(number(practice, "noShows", "value") == 0.25)
            #expect(number(practice, "lateCancellations", "count") == 1)
            #expect(number(practice, "lateCancellations", "total") == 6)
            #expect(number(practice, "bookedMinutes") == 120)
            #expect(number(practice, "utilization", "availableMinutes") == 2400)
            #expect(number(practice, "utilization", "ratio") == 0.05)
            #expect(number(practice, "duration", "count") == 3)
            #expect(number(practice, "duration", "meanPlannedMinutes") == 40)
            #expect(abs((number(practice, "duration", "meanDifferenceMinutes") ?? 0) + 5.0 / 3) < 1e-9)
            #expect(number(practice, "patients", "new") == 1)
            #expect(number(practice, "patients", "returning") == 1)
            #expect(figure(practice, "revenue", "0", "currency") as? String == "GBP")
            #expect(number(practice, "revenue", "0", "minorUnits") == 28_000)
            #expect(number(body, "roomUtilization", "bookedMinutes") == 120)
            // VTL: orange 1 of 2 within 15 min, red 1 of 1; the one breach is Tom's.
            let levels = figure(body, "vtl", "levels") as? [[String: Any]] ?? []
            let orange = levels.first { $0["level"] as? String == "orange" }
            #expect(number(orange, "withinTarget", "value") == 0.5)
            #expect(number(orange, "medianWaitMinutes") == 10)
            #expect(number(body, "vtl", "overall", "count") == 2)
            #expect(number(body, "vtl", "overall", "total") == 3)
            #expect(number(body, "vtl", "breachCount") == 1)
            #expect(figure(body, "vtl", "breaches", "0", "patientId") as? String == fixture.tom.id.description)
            // Segments: the two clinicians (one without hours: no utilization), species, and no trace of practice B.
            let clinicians = body["clinicians"] as? [[String: Any]] ?? []
            #expect(
                clinicians.compactMap { figure($0, "segment", "name") as? String }.sorted() == ["=SUM(A1)", "Dr Hart"])
            let formula = clinicians.first { figure($0, "segment", "id") as? String == fixture.formula.id.description }
            #expect(number(formula, "utilization", "availableMinutes") == 0)
            #expect(figure(formula, "utilization", "ratio") == nil)
            let species = body["species"] as? [[String: Any]] ?? []
            #expect(
                number(species.first { figure($0, "segment", "id") as? String == "dog" }, "appointments", "total") == 4)
            #expect(
                number(species.first { figure($0, "segment", "id") as? String == "cat" }, "appointments", "total") == 2)
            #expect(number(body, "arrivals", "triage", "total") == 3)
            #expect(number(body, "arrivals", "appointments", "total") == 4)
            // The trend's daily appointment counts.
            let trend = figure(body, "trend", "series") as? [[String: Any]] ?? []
            let counts = trend.first { $0["metric"] as? String == "appointments" }?["values"] as? [Any] ?? []
            #expect(counts.map { ($0 as? NSNumber)?.intValue ?? -1 } == [2, 1, 1, 1, 1, 0, 0])
            #expect(figure(body, "trend", "bucket") as? String == "day")

            let tokenB = try await client.login("admin@beta.example")
            let theirs = try await client.get("/api/v1/analytics/dashboard?\(AnalyticsFixture.week)", token: tokenB)
                .json
            #expect(number(theirs, "practice", "appointments", "total") == 3)
            #expect(number(theirs, "vtl", "overall", "total") == 1)
            #expect(
                (theirs["clinicians"] as? [[String: Any]])?.compactMap { figure($0, "segment", "name") as? String } == [
                    "Dr Autre"
                ])
        }
        let audit = try await fixture.app.store.auditEntries(
            scope: .system(fixture.app.practiceA.id), limit: 50, before: nil
        ).items
        #expect(audit.contains { $0.action == "analytics.dashboard.read" && $0.outcome == .success })
    }

    @Test(
        "receptionists see the operational figures without revenue; technicians are refused, and the refusal is audited"
    )
    func roleScoping() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let reception = try await client.login("receptionist@alpha.example")
            let answer = try await client.get("/api/v1/analytics/dashboard?\(AnalyticsFixture.week)", token: reception)
            #expect(answer.status == .ok)
            #expect(answer.json["revenueIncluded"] as? Bool == false)
            #expect(number(answer.json, "practice", "appointments", "total") == 6)
            #expect(!answer.text.contains("minorUnits"))
            let trend = figure(answer.json, "trend", "series") as? [[String: Any]] ?? []
            #expect(!trend.contains { $0["metric"] as? String == "revenue" })
            #expect(
                try await client.get("/api/v1/analytics/metrics/revenue?\(AnalyticsFixture.week)", token: reception)
                    .status == .forbidden)
            let metrics =
                try await client.get("/api/v1/analytics/metrics", token: reception).json["items"] as? [[String: Any]]
                ?? []
            #expect(metrics.first { $0["metric"] as? String == "revenue" }?["readable"] as? Bool == false)
            #expect(metrics.first { $0["metric"] as? String == "noShowRate" }?["readable"] as? Bool == true)
            let csv = try await client.get(
                "/api/v1/analytics/reports/segments?\(AnalyticsFixture.week)&format=csv", token: reception
            ).text
            #expect(!csv.contains("revenue"))

            let technician = try await client.login("technician@alpha.example")
            for path in [
                "dashboard?\(AnalyticsFixture.week)", "metrics", "metrics/appointments?\(AnalyticsFixture.week)",
                "bottlenecks",
                "forecast", "insights?\(AnalyticsFixture.week)", "reports/vtl?\(AnalyticsFixture.week)",
            ] {
                #expect(
                    try await client.get("/api/v1/analytics/\(path)", token: technician).status == .forbidden, "\(path)"
                )
            }
            let vet = try await client.login("veterinarian@alpha.example")
            #expect(
                try await client.get("/api/v1/analytics/metrics/revenue?\(AnalyticsFixture.week)", token: vet).status
                    == .ok)
        }
        let audit = try await fixture.app.store.auditEntries(
            scope: .system(fixture.app.practiceA.id), limit: 100, before: nil
        ).items
        #expect(
            audit.contains {
                $0.action == "analytics.dashboard.read" && $0.outcome == .denied
                    && $0.detail?.contains("lacks=readAnalytics") == true
            })
        #expect(
            audit.contains {
                $0.action == "analytics.series.read" && $0.outcome == .denied
                    && $0.detail?.contains("lacks=readRevenue") == true
            })
    }

    // MARK: - Series

    @Test("a metric by day: counts, nulls where there is nothing to divide by, money in major units")
    func series() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("veterinarian@alpha.example")
            let counts = try await client.get(
                "/api/v1/analytics/metrics/appointments?\(AnalyticsFixture.week)&bucket=day", token: token
            ).json
            #expect(
                (counts["buckets"] as? [[String: Any]])?.compactMap { $0["label"] as? String }
                    == [
                        "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06", "2026-03-07",
                        "2026-03-08",
                    ])
            #expect(figure(counts, "series", "0", "values") as? [Int] == [2, 1, 1, 1, 1, 0, 0])
            #expect(counts["unit"] as? String == "count")

            let rate = try await client.get(
                "/api/v1/analytics/metrics/noShowRate?\(AnalyticsFixture.week)&bucket=day", token: token
            ).json
            let values = figure(rate, "series", "0", "values") as? [Any] ?? []
            #expect(values.map { ($0 as? NSNumber)?.doubleValue } == [0.5, nil, 0, nil, 0, nil, nil])

            let money = try await client.get("/api/v1/analytics/metrics/revenue?\(AnalyticsFixture.week)", token: token)
                .json
            #expect(figure(money, "series", "0", "currency") as? String == "GBP")
            #expect(figure(money, "series", "0", "values") as? [Double] == [40, 0, 200, 0, 40, 0, 0])
            #expect(money["bucket"] as? String == "day")

            let weekly = try await client.get(
                "/api/v1/analytics/metrics/vtlCompliance?\(AnalyticsFixture.week)&bucket=week&level=orange",
                token: token
            ).json
            #expect(figure(weekly, "series", "0", "values") as? [Double] == [0.5])
            #expect(weekly["level"] as? String == "orange")
        }
    }

    @Test("one series per segment of a dimension, or the segment named; an unknown one is not found")
    func segments() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let all = try await client.get(
                "/api/v1/analytics/metrics/utilization?\(AnalyticsFixture.week)&bucket=week&dimension=clinician",
                token: token
            ).json
            let series = all["series"] as? [[String: Any]] ?? []
            #expect(series.count == 2)
            let hart = series.first { figure($0, "segment", "id") as? String == fixture.hart.id.description }
            #expect(figure(hart, "values") as? [Double] == [0.05])
            let formula = series.first { figure($0, "segment", "id") as? String == fixture.formula.id.description }
            #expect((figure(formula, "values") as? [Any])?.first is NSNull)

            let one = try await client.get(
                """
                /api/v1/analytics/metrics/appointments?\(AnalyticsFixture.week)\
                &bucket=week&dimension=species&segmentId=cat
                """,
                token: token
            ).json
            #expect(figure(one, "series", "0", "values") as? [Int] == [2])
            #expect(figure(one, "series", "0", "segment", "name") as? String == "Cat")

            let upper = fixture.hart.id.description.uppercased()
            #expect(
                try await client.get(
                    """
                    /api/v1/analytics/metrics/appointments?\(AnalyticsFixture.week)\
                    &dimension=clinician&segmentId=\(upper)
                    """,
                    token: token
                ).status == .ok)
            let missing = try await client.get(
                """
                /api/v1/analytics/metrics/appointments?\(AnalyticsFixture.week)&dimension=clinician&segmentId=\(UUID())
                """,
                token: token)
            #expect(missing.status == .notFound)
            // Practice B's clinician is not a segment of A.
            let tokenB = try await client.login("admin@beta.example")
            let theirs = try await client.get(
                "/api/v1/analytics/metrics/utilization?\(AnalyticsFixture.week)&dimension=clinician", token: tokenB
            ).json
            let theirID = figure(theirs, "series", "0", "segment", "id") as? String ?? ""
            #expect(
                try await client.get(
                    """
                    /api/v1/analytics/metrics/appointments?\(AnalyticsFixture.week)\
                    &dimension=clinician&segmentId=\(theirID)
                    """,
                    token: token
                ).status == .notFound)
        }
    }

    // MARK: - Refusals

    @Test(
        "bad periods and parameters answer 422 naming the field",
        arguments: [
            ("dashboard?from=2026-03-08&to=2026-03-02", "to"),
            ("dashboard?from=2025-01-01&to=2026-02-05", "to"),
            ("dashboard?from=2026-02-30&to=2026-03-02", "from"),
            ("dashboard?from=0000-01-01&to=2026-03-02", "from"),
            ("insights?from=2026-03-02&to=2026-13-01", "to"),
            ("dashboard?from=2026-3-2&to=2026-03-08", "from"),
            ("metrics/medianWait?from=2026-03-02&to=2026-03-08", "level"),
            ("metrics/vtlCompliance?from=2026-03-02&to=2026-03-08&dimension=clinician", "dimension"),
            ("metrics/roomUtilization?from=2026-03-02&to=2026-03-08&dimension=room", "dimension"),
            ("metrics/appointments?from=2026-03-02&to=2026-03-08&level=red", "level"),
            ("metrics/appointments?from=2026-03-02&to=2026-03-08&segmentId=dog", "segmentId"),
            ("reports/trend?from=2026-03-09&to=2026-03-08", "to"),
        ])
    func refusals(path: String, field: String) async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let answer = try await client.get("/api/v1/analytics/\(path)", token: token)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.problemFields.contains(field), "\(answer.problemFields)")
        }
    }

    @Test("a year and a month is the longest period: 400 days are answered")
    func longestPeriod() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let answer = try await client.get(
                "/api/v1/analytics/metrics/appointments?from=2025-02-01&to=2026-03-07&bucket=month", token: token)
            #expect(answer.status == .ok)
            let values = figure(answer.json, "series", "0", "values") as? [Int] ?? []
            #expect(values.count == 14)
            #expect(values.reduce(0, +) == 7)
        }
    }

    // MARK: - Reports

    @Test("reports as CSV: header row, CRLF, an attachment, the hand-counted values, formulas defused")
    func csvReport() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let answer = try await client.get(
                "/api/v1/analytics/reports/segments?\(AnalyticsFixture.week)&format=csv", token: token)
            #expect(answer.status == .ok)
            #expect(answer.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(
                answer.headers[HTTPField.Name("Content-Disposition")!]
                    == "attachment; filename=\"vetnet-segments-2026-03-02-2026-03-08.csv\"")
            let lines = answer.text.components(separatedBy: "\r\n")
            #expect(lines.last == "")
            let header = lines[0].components(separatedBy: ",")
            let practice = lines[1].components(separatedBy: ",")
            func value(_ column: String) -> String? { header.firstIndex(of: column).map { practice[$0] } }
            #expect(value("segment") == "Practice")
            #expect(value("appointments") == "6")
            #expect(value("noShowRate") == "0.25")
            #expect(value("utilization") == "0.05")
            #expect(value("lateCancellationRate") == "0.1667")
            #expect(value("revenue_GBP") == "280")
            #expect(lines.allSatisfy { $0.isEmpty || $0.components(separatedBy: ",").count == header.count })
            #expect(answer.text.contains(",'=SUM(A1),"))

            // The same report chosen by Accept, and as JSON.
            let byAccept = try await client.get(
                "/api/v1/analytics/reports/vtl?\(AnalyticsFixture.week)", token: token, headers: [.accept: "text/csv"])
            #expect(byAccept.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(byAccept.text.hasPrefix("level,maxWaitMinutes,arrivals"))
            let refused = try await client.get(
                "/api/v1/analytics/reports/vtl?\(AnalyticsFixture.week)&format=csv", token: token,
                headers: [.accept: "application/json"])
            #expect(refused.status == .badRequest)

            let trend = try await client.get(
                "/api/v1/analytics/reports/trend?\(AnalyticsFixture.week)&bucket=day", token: token
            ).json
            let columns = (trend["columns"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            let rows = trend["rows"] as? [[Any]] ?? []
            #expect(rows.count == 7)
            #expect(rows.allSatisfy { $0.count == columns.count })
            let appointments = columns.firstIndex(of: "appointments") ?? 0
            #expect(rows.map { $0[appointments] as? String } == ["2", "1", "1", "1", "1", "0", "0"])
            let noShowRate = columns.firstIndex(of: "noShowRate") ?? 0
            #expect(rows[1][noShowRate] is NSNull)
            #expect(trend["timeZone"] as? String == "Europe/London")

            let breaches = try await client.get(
                "/api/v1/analytics/reports/breaches?\(AnalyticsFixture.week)&format=csv", token: token
            ).text
            let breachLines = breaches.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(breachLines.count == 2)
            #expect(
                breachLines[1].hasPrefix("\(fixture.tom.id),orange,2026-03-03T18:00:00Z,2026-03-03T18:25:00Z,25,10"))
        }
    }

    // MARK: - Reuse

    @Test(
        """
        an indexed history is reused while the records are unchanged; after any write the next request brings it up \
        to date
        """
    )
    func reuse() async throws {
        let fixture = try await AnalyticsFixture.make()
        let scope = AccessScope.system(fixture.app.practiceA.id)
        @Sendable func lastRead() async throws -> String? {
            try await fixture.app.store.auditEntries(scope: scope, limit: 50, before: nil).items
                .first { $0.action == "analytics.dashboard.read" }?.detail
        }
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let first = try await client.get("/api/v1/analytics/dashboard?\(AnalyticsFixture.week)", token: token).json
            #expect(number(first, "practice", "appointments", "total") == 6)
            #expect(try await lastRead()?.hasSuffix("reused") == false)
            let second = try await client.get("/api/v1/analytics/dashboard?\(AnalyticsFixture.week)", token: token).json
            #expect(number(second, "practice", "appointments", "total") == 6)
            #expect(try await lastRead()?.hasSuffix("reused") == true)

            // A Saturday appointment written by any path: the next request sees it.
            let start = AnalyticsFixture.at("2026-03-07T10:00:00Z")
            let saturday = Appointment(
                practiceID: fixture.app.practiceA.id, patientID: fixture.bella.id.rawValue,
                clinicianID: fixture.hart.id.rawValue,
                appointmentTypeID: fixture.consultation.id,
                time: TimeRange(start: start, end: start.addingTimeInterval(1800))!,
                status: .noShow)
            try await fixture.app.store.bulkLoadHistory(
                appointments: [AppointmentRecord(saturday, bookedAt: start.addingTimeInterval(-86_400))],
                arrivals: [], weights: [], scope: scope)
            let third = try await client.get("/api/v1/analytics/dashboard?\(AnalyticsFixture.week)", token: token).json
            #expect(number(third, "practice", "appointments", "total") == 7)
            #expect(number(third, "practice", "appointments", "noShow") == 2)
            // Brought up to date with the row written, not read afresh.
            #expect(try await lastRead()?.hasSuffix("updated") == true)
        }
        #expect(fixture.app.services.analyticsCache.count <= 4)
    }

    // MARK: - Insights and the look-ahead

    @Test("every insight links to the series of the metric it comes from, and the link answers")
    func insights() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("administrator@alpha.example")
            let items =
                try await client.get("/api/v1/analytics/insights?\(AnalyticsFixture.week)", token: token).json["items"]
                as? [[String: Any]] ?? []
            let underused = items.first { $0["kind"] as? String == "clinicianUnderused" }
            #expect(figure(underused, "source", "metric") as? String == "utilization")
            #expect(figure(underused, "source", "segment", "id") as? String == fixture.hart.id.description)
            #expect((underused?["message"] as? String)?.contains("Dr Hart was booked for only 5%") == true)
            for item in items {
                let href = try #require(figure(item, "source", "href") as? String)
                #expect(
                    href.hasPrefix(
                        """
                        /api/v1/analytics/metrics/\(figure(item, "source", "metric") as? String ?? "?")\
                        ?from=2026-03-02&to=2026-03-08
                        """
                    ))
                let followed = try await client.get(href, token: token)
                #expect(followed.status == .ok, "\(href)")
            }
            #expect(!items.isEmpty)
        }
    }

    @Test("bottlenecks and the forecast look ahead from today with the rota's real capacity")
    func lookAhead() async throws {
        let fixture = try await AnalyticsFixture.make()
        try await fixture.app.test { client in
            let token = try await client.login("receptionist@alpha.example")
            let report = try await client.get("/api/v1/analytics/bottlenecks?days=14", token: token).json
            #expect(number(report, "days") == 14)
            let general = (report["specialties"] as? [[String: Any]])?.first {
                $0["specialty"] as? String == "general_practice"
            }
            // Two weeks hold ten weekdays of 8 hours.
            #expect(number(general, "capacityMinutes") == 4800)
            #expect(figure(general, "bottleneck") as? Bool == false)
            let hart = (report["clinicians"] as? [[String: Any]])?.first {
                figure($0, "clinician", "id") as? String == fixture.hart.id.description
            }
            #expect(figure(hart, "band") as? String == "below")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "Europe/London")!
            let today = calendar.dateComponents([.year, .month, .day], from: Date())
            #expect(
                report["firstDay"] as? String == String(format: "%04d-%02d-%02d", today.year!, today.month!, today.day!)
            )

            let forecast = try await client.get("/api/v1/analytics/forecast?historyWeeks=8", token: token).json
            #expect(number(forecast, "weeksAveraged") == 4)
            #expect(forecast["weekStart"] as? String == report["firstDay"] as? String)
            #expect((forecast["specialties"] as? [Any])?.isEmpty == true)
            #expect(
                try await client.get("/api/v1/analytics/bottlenecks?days=91", token: token).status
                    == .unprocessableContent)
        }
    }
}
