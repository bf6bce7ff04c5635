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

/// Refusals that close ways round the permission matrix, the sign-in throttle and routing.
@Suite("Security regressions")
struct SecurityRegressionTests {
    // MARK: - Re-planning needs the permissions of the changes it makes

    /// Three bookings with Dr General tomorrow from 09:00; returns tomorrow as `yyyy-MM-dd`.
    static func bookTomorrow(_ fixture: ScheduleFixture, client: some TestClientProtocol, token: String) async throws
        -> String
    {
        for hour in 0..<3 {
            try await client.call(
                "/api/v1/appointments", .post, token: token,
                json: fixture.bookingJSON(start: fixture.nineTomorrow.addingTimeInterval(Double(hour) * 3600))
            ) { #expect($0.status == .created) }
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
            try await client.call("/api/v1/schedule/replan", .post, token: vet, json: json + #","apply":true}"#) {
                response in
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
            try await client.call(
                "/api/v1/schedule/replan", .post, token: admin,
                json: #"{"clinicianId":"\#(fixture.clinician.id)","date":"\#(date)","apply":true}"#
            ) { response in
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

    // MARK: - The sign-in throttle cannot be raced

    /// `count` sign-ins sent at once; their statuses.
    static func concurrentLogins(
        _ client: some TestClientProtocol, count: Int, email: @escaping @Sendable (Int) -> String
    ) async throws -> [HTTPResponse.Status] {
        try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
            for index in 0..<count {
                let json = #"{"email":"\#(email(index))","password":"wrong-guess-\#(index)"}"#
                group.addTask {
                    try await client.call("/api/v1/auth/login", .post, token: nil, json: json) { $0.status }
                }
            }
            return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
        }
    }

    @Test(
        """
        30 wrong passwords for one account sent at once: only the 10 the limit allows are checked (401), the rest are \
        429
        """
    )
    func concurrentGuessesForOneAccount() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let statuses = try await Self.concurrentLogins(client, count: 30) { _ in "technician@alpha.example" }
            #expect(statuses.filter { $0 == .unauthorized }.count == 10)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 20)
            // Still locked, even with the right password.
            try await client.call(
                "/api/v1/auth/login", .post, token: nil,
                json: #"{"email":"technician@alpha.example","password":"\#(AppFixture.password)"}"#
            ) { #expect($0.status == .tooManyRequests) }
        }
        let checked = try await fixture.store.auditEntries(
            scope: .system(fixture.practiceA.id), limit: 200, before: nil
        ).items
            .filter { $0.action == "auth.login" && $0.outcome == .failure }
        #expect(checked.count == 10)
    }

    @Test(
        """
        wrong passwords for many accounts from one address sent at once: only the address's limit is checked, the \
        rest are 429
        """
    )
    func concurrentGuessesFromOneAddress() async throws {
        let fixture = try await AppFixture.make().withThrottle(accountLimit: 10, addressLimit: 12)
        try await fixture.test { client in
            let statuses = try await Self.concurrentLogins(client, count: 30) { "nobody-\($0)@alpha.example" }
            #expect(statuses.filter { $0 == .unauthorized }.count == 12)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 18)
        }
    }

    @Test("a successful sign-in frees its own place and clears the account's failures")
    func successSettlesTheReservation() async throws {
        let throttle = LoginThrottle(ledger: try VetNetStore.inMemory(), accountLimit: 3, addressLimit: 100)
        let now = Date()
        for _ in 0..<2 {
            guard
                case .proceed(let ticket, _) = try await throttle.reserve(
                    account: "a@x.example", address: "10.0.0.1", now: now)
            else {
                Issue.record("refused under the limit")
                return
            }
            await throttle.settle(ticket, as: .failed)
        }
        guard
            case .proceed(let ticket, _) = try await throttle.reserve(
                account: "A@x.example", address: "10.0.0.1", now: now)
        else {
            Issue.record("refused under the limit")
            return
        }
        await throttle.settle(ticket, as: .succeeded)
        for _ in 0..<3 {
            guard
                case .proceed(let ticket, _) = try await throttle.reserve(
                    account: "a@x.example", address: "10.0.0.1", now: now)
            else {
                Issue.record("the failures before the sign-in still counted")
                return
            }
            await throttle.settle(ticket, as: .failed)
        }
        guard case .refused = try await throttle.reserve(account: "a@x.example", address: "10.0.0.1", now: now) else {
            Issue.record("a fourth failure in the window was allowed")
            return
        }
    }
}

extension SecurityRegressionTests {
    // MARK: - Refused sign-ins cannot flood the audit trail

    /// Audit entries of refused (throttled) sign-ins, whatever their practice.
    static func throttledEntries(_ store: VetNetStore) async throws -> [String] {
        try await store.writer.read { db in
            try String.fetchAll(
                db,
                sql: "SELECT detail FROM audit_entry WHERE action = 'auth.login' AND outcome = 'denied' ORDER BY seq")
        }
    }

    @Test("200 refused sign-ins for a locked account write one audit entry, not 200")
    func throttledAttemptsForOneAccount() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            for index in 0..<10 {
                try await client.call(
                    "/api/v1/auth/login", .post, token: nil,
                    json: #"{"email":"technician@alpha.example","password":"wrong-guess-\#(index)"}"#
                ) { #expect($0.status == .unauthorized) }
            }
            for batch in 0..<4 {
                let statuses = try await Self.concurrentLogins(client, count: 50) { _ in "technician@alpha.example" }
                #expect(statuses.allSatisfy { $0 == .tooManyRequests }, "batch \(batch)")
            }
        }
        let entries = try await Self.throttledEntries(fixture.store)
        #expect(entries.count == 1)
        #expect(entries.first?.hasPrefix("throttled (account over its limit)") == true)
    }

    @Test("200 refused sign-ins for different accounts from a locked address write one audit entry")
    func throttledAttemptsFromOneAddress() async throws {
        let fixture = try await AppFixture.make().withThrottle(accountLimit: 10, addressLimit: 5)
        try await fixture.test { client in
            let first = try await Self.concurrentLogins(client, count: 5) { "first-\($0)@alpha.example" }
            #expect(first.allSatisfy { $0 == .unauthorized })
            let refused = try await Self.concurrentLogins(client, count: 200) { "spray-\($0)@alpha.example" }
            #expect(refused.allSatisfy { $0 == .tooManyRequests })
        }
        let entries = try await Self.throttledEntries(fixture.store)
        #expect(entries == ["throttled (address over its limit)"])
    }

    @Test("refusals without entries of their own are counted and reported once the window has passed")
    func unauditedRefusalsAreReported() async throws {
        let throttle = LoginThrottle(ledger: try VetNetStore.inMemory(), window: 60, accountLimit: 2, addressLimit: 100)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        for _ in 0..<2 {
            guard
                case .proceed(let ticket, nil) = try await throttle.reserve(
                    account: "a@x.example", address: "10.0.0.1", now: start)
            else {
                Issue.record("refused under the limit")
                return
            }
            await throttle.settle(ticket, as: .failed)
        }
        var audited: [String] = []
        for second in 0..<30 {
            guard
                case .refused(_, let audit) = try await throttle.reserve(
                    account: "a@x.example", address: "10.0.0.1", now: start.addingTimeInterval(Double(second)))
            else {
                Issue.record("allowed over the limit")
                return
            }
            if let audit { audited.append(audit) }
        }
        #expect(audited == ["throttled (account over its limit)"])
        guard
            case .proceed(_, let unreported?) = try await throttle.reserve(
                account: "a@x.example", address: "10.0.0.1", now: start.addingTimeInterval(61))
        else {
            Issue.record("the refusals in the window were not reported")
            return
        }
        #expect(
            unreported.contains(
                "throttled (account over its limit): 29 further attempts refused without entries of their own"))
    }
}

extension SecurityRegressionTests {
    // MARK: - Paths are canonical before anything reads them

    static let nonCanonicalPaths = [
        "//api/v1/me", "/api/v1//me", "/api//v1/me", "/api/v1/me/", "/api/v1/./me", "/api/v1/x/../me",
        "/api/v1/%2e%2E/v1/me", "//api/v1/users", "//health",
    ]

    @Test(
        """
        a path with empty, '.' or '..' segments is 404 with or without a session, before authentication or any handler
        """,
        arguments: nonCanonicalPaths)
    func nonCanonicalPath(_ path: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            for bearer in [nil, token] {
                try await client.call(path, token: bearer) { response in
                    #expect(
                        response.status == .notFound,
                        "\(path) with\(bearer == nil ? "out" : "") a token: \(String(buffer: response.body))")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(!String(buffer: response.body).contains("Alpha Vets"))
                }
            }
            try await client.call("/api/v1/me", token: token) { #expect($0.status == .ok) }
        }
    }

    @Test("canonical paths are exactly those without empty, '.' or '..' segments")
    func canonicalPaths() {
        for path in [
            "/", "/health", "/api/v1/me", "/api/v1/patients/3f1c/record", "/api/v1/.well", "/api/v1/..x",
            "/calendar/abc.ics",
        ] {
            #expect(PathNormalizationMiddleware.isCanonical(path), "\(path)")
        }
        for path in Self.nonCanonicalPaths + ["", "api/v1/me", "/api/v1/%2E", "/api/v1/.%2e/me"] {
            #expect(!PathNormalizationMiddleware.isCanonical(path), "\(path)")
        }
    }

    @Test("authentication alone treats //api/v1/… as under /api/v1 (defence in depth)")
    func authenticationSeesRouterSegments() async throws {
        let fixture = try await AppFixture.make()
        let router = Router(context: VetNetRequestContext.self)
        router.add(middleware: ProblemDetailsMiddleware())
        router.add(middleware: AuthenticationMiddleware(accounts: fixture.services.accounts))
        router.get("/api/v1/me") { _, _ in "reached the handler" }
        router.post("/api/v1/auth/login") { _, _ in "signing in" }
        try await Application(router: router).test(.router) { client in
            for path in ["//api/v1/me", "/api//v1/me", "/api/v1//me"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(path)")
                }
            }
            try await client.execute(uri: "//api/v1/auth/login", method: .post) { #expect($0.status == .ok) }
        }
    }
}

extension AppFixture {
    /// The same practices and store behind a sign-in throttle of its own.
    func withThrottle(accountLimit: Int, addressLimit: Int) -> AppFixture {
        let accounts = AccountService(
            store: store, hasher: services.accounts.hasher,
            throttle: LoginThrottle(ledger: store, accountLimit: accountLimit, addressLimit: addressLimit))
        return AppFixture(
            store: store, services: AppServices(store: store, accounts: accounts, live: services.live),
            configuration: configuration,
            practiceA: practiceA, practiceB: practiceB, accountsA: accountsA, adminB: adminB)
    }
}
