import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharedKernel
import StorageSQLite
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// Two practices with staff of every role, behind the real router (every middleware), on an
/// in-memory store. All accounts share `password`.
struct AppFixture: Sendable {
    static let password = "river-otter-lantern-42"
    let store: VetNetStore
    let services: AppServices<VetNetStore>
    let configuration: AppConfiguration
    let practiceA: PracticeProfile
    let practiceB: PracticeProfile
    let accountsA: [Role: StaffAccount]
    let adminB: StaffAccount

    static func make(
        maxBodyBytes: Int = 64 * 1024, documentsDirectory: URL? = nil, clock: Clock = .system,
        store given: VetNetStore? = nil
    ) async throws -> AppFixture {
        let store = try given ?? VetNetStore.inMemory(clock: clock, documentsDirectory: documentsDirectory)
        let service = AccountService(store: store, hasher: .fastForTests)
        // The fixture's administrators sign in with a password alone, so the tests of everything
        // else start at once; the second factor has its own tests (SecondFactorAPITests).
        let a = PracticeProfile(
            id: PracticeID(), name: "Alpha Vets", timeZone: "Europe/London",
            openingHours: (1...7).map { OpeningHours(weekday: $0, opensMinute: 7 * 60, closesMinute: 20 * 60) },
            secondFactorRoles: [])
        let b = PracticeProfile(
            id: PracticeID(), name: "Beta Vets", timeZone: "Europe/Paris", openingHours: [], secondFactorRoles: [])
        try await store.createPractice(a)
        try await store.createPractice(b)
        let hash = await service.hasher.hash(password)
        var accounts: [Role: StaffAccount] = [:]
        for role in Role.allCases {
            accounts[role] = try await store.createUser(
                scope: .system(a.id), email: "\(role.rawValue)@alpha.example",
                displayName: role.rawValue.capitalized, role: role, passwordHash: hash)
        }
        let adminB = try await store.createUser(
            scope: .system(b.id), email: "admin@beta.example", displayName: "Beta Admin",
            role: .administrator, passwordHash: hash)
        let services = AppServices(store: store, accounts: service, live: LiveEventHub(store: store))
        return AppFixture(
            store: store, services: services, configuration: AppConfiguration(maxBodyBytes: maxBodyBytes), practiceA: a,
            practiceB: b, accountsA: accounts, adminB: adminB)
    }

    /// Practice A asks a second factor of `roles` from now on.
    func requireSecondFactor(of roles: [Role]) async throws {
        _ = try await store.updatePractice(
            PracticeSettingsChange(secondFactorRoles: roles), scope: .system(practiceA.id), expectedVersion: nil)
    }

    func test(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let app = Application(router: buildRouter(configuration: configuration, services: services, metrics: nil))
        try await app.test(.router, body)
    }
}

extension PasswordHasher {
    /// bcrypt at cost 4 (the server never goes below 12): the suites sign in hundreds of times.
    static let fastForTests = PasswordHasher(testingCost: 4)
}

extension TestClientProtocol {
    /// Signs in and returns the bearer token.
    func login(_ email: String, password: String = AppFixture.password) async throws -> String {
        try await execute(
            uri: "/api/v1/auth/login", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: #"{"email":"\#(email)","password":"\#(password)"}"#)
        ) { response in
            #expect(response.status == .ok)
            return try JSONDecoder().decode(LoginBody.self, from: Data(buffer: response.body)).token
        }
    }

    /// A request with a bearer token and an optional JSON body.
    @discardableResult
    func call<T: Sendable>(
        _ uri: String, _ method: HTTPRequest.Method = .get, token: String?, json: String? = nil,
        headers extra: HTTPFields = [:],
        check: @escaping @Sendable (TestResponse) throws -> T
    ) async throws -> T {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        { try check($0) }
    }
}

struct LoginBody: Decodable {
    let token: String
    let expiresAt: String
}

/// A decoded problem document.
struct Problem: Decodable {
    let status: Int
    let title: String
    let detail: String?
    let requestId: String?
    let errors: [FieldError]?

    init(_ response: TestResponse) throws {
        self = try JSONDecoder().decode(Problem.self, from: Data(buffer: response.body))
    }
}

extension Data {
    init(buffer: ByteBuffer) { self.init(buffer.readableBytesView) }
}
