import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import SharedKernel
import Testing

@testable import HTTPAPI
@testable import PracticeServices

/// What one caller must not be able to do to everyone else, and requests that must mean one
/// thing: duplicate keys, authorization before validation, one optimization per practice,
/// a cap on live streams per account, the client address behind trusted proxies.
@Suite("Availability and unambiguous requests")
struct AvailabilityTests {
    static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
    }

    @Test(
        "a duplicate key in any JSON body is refused with 400 naming the key, and nothing is created",
        arguments: [
            (
                "/api/v1/users",
                #"""
                {"email":"dup@alpha.example","displayName":"Dup","role":"technician","role":"veterinarian",\#
                "password":"otter-lantern-river-42"}
                """#,
                "role"
            ),
            ("/api/v1/triage/evaluate", #"{"species":"dog","species":"cat"}"#, "species"),
            ("/api/v1/owners", #"{"firstName":"Jo","lastName":"Bloggs","lastName":"Smith"}"#, "lastName"),
        ])
    func duplicateKeys(path: String, body: String, key: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let token = try await client.login("administrator@alpha.example")
            try await client.call(path, .post, token: token, json: body) { response in
                #expect(response.status == .badRequest)
                let detail = try #require(try Self.json(response)["detail"] as? String)
                #expect(detail.contains("duplicate key \"\(key)\""), "\(detail)")
            }
            try await client.call("/api/v1/users?limit=200", token: token) { response in
                #expect(!String(buffer: response.body).contains("dup@alpha.example"))
            }
        }
    }

    @Test(
        """
        authorization comes before validation: a receptionist's invalid and valid new user are both 403; an \
        administrator's invalid one 422
        """
    )
    func authorizeBeforeValidate() async throws {
        let fixture = try await AppFixture.make()
        let invalid = #"{"email":"x@alpha.example","displayName":"","role":"technician","password":"short"}"#
        let valid =
            #"{"email":"y@alpha.example","displayName":"Y","role":"technician","password":"otter-lantern-river-42"}"#
        try await fixture.test { client in
            let receptionist = try await client.login("receptionist@alpha.example")
            for body in [invalid, valid] {
                try await client.call("/api/v1/users", .post, token: receptionist, json: body) {
                    #expect($0.status == .forbidden)
                }
            }
            let admin = try await client.login("administrator@alpha.example")
            try await client.call("/api/v1/users", .post, token: admin, json: invalid) {
                #expect($0.status == .unprocessableContent)
            }
        }
    }

    @Test(
        """
        a second optimization of the same practice while one runs is refused with 429 and Retry-After; another \
        practice is not held up
        """
    )
    func oneOptimizationPerPractice() async throws {
        let gate = OptimizationGate()
        let a = PracticeID()
        let b = PracticeID()
        let started = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let running = Task {
            try await gate.run(for: a, limit: .seconds(20)) {
                started.continuation.yield()
                for await _ in release.stream { break }
                return 1
            }
        }
        for await _ in started.stream { break }
        do {
            _ = try await gate.run(for: a, limit: .seconds(1)) { 2 }
            Issue.record("a second optimization of the practice ran")
        } catch let ServiceRefusal.busy(detail, seconds) {
            #expect(detail.contains("already running"))
            #expect((1...21).contains(seconds))
        }
        #expect(try await gate.run(for: b, limit: .seconds(1)) { 3 } == 3)
        release.continuation.yield()
        #expect(try await running.value == 1)
        #expect(try await gate.run(for: a, limit: .seconds(1)) { 4 } == 4)
    }

    @Test("one account may hold at most its cap of live streams; one more is refused with 429 until one closes")
    func streamsPerAccount() async throws {
        let fixture = try await AppFixture.make()
        var configuration = LiveEventHub.Configuration()
        configuration.maxStreamsPerUser = 3
        let hub = LiveEventHub(store: fixture.store, configuration: configuration)
        let vet = try #require(fixture.accountsA[.veterinarian])
        var streams: [LiveSubscription] = []
        for _ in 0..<3 {
            streams.append(
                try await hub.subscribe(
                    practiceID: fixture.practiceA.id, role: .veterinarian, userID: vet.id, tokenHash: "t"))
        }
        await #expect(throws: ServiceRefusal.self) {
            _ = try await hub.subscribe(
                practiceID: fixture.practiceA.id, role: .veterinarian, userID: vet.id, tokenHash: "t")
        }
        // Someone else in the practice is not affected.
        let nurse = try #require(fixture.accountsA[.technician])
        _ = try await hub.subscribe(
            practiceID: fixture.practiceA.id, role: .technician, userID: nurse.id, tokenHash: "n")
        #expect(hub.subscriberCount(practiceID: fixture.practiceA.id) == 4)
    }

    @Test(
        "X-Forwarded-For names the client only when a trusted proxy sends it",
        arguments: [
            ("127.0.0.1", "203.0.113.7", "10.0.0.0/8, 127.0.0.1", "203.0.113.7"),
            ("127.0.0.1", "203.0.113.7, 10.1.2.3", "10.0.0.0/8, 127.0.0.1", "203.0.113.7"),
            ("198.51.100.9", "203.0.113.7", "10.0.0.0/8, 127.0.0.1", "198.51.100.9"),
            ("127.0.0.1", "not an address", "127.0.0.1", "127.0.0.1"),
            ("::1", "2001:db8::5", "::1", "2001:db8::5"),
            ("127.0.0.1", "203.0.113.7", "", "127.0.0.1"),
        ])
    func trustedProxies(peer: String, forwardedFor: String, trusted: String, client: String) throws {
        #expect(try TrustedProxies(parsing: trusted).client(peer: peer, forwardedFor: forwardedFor) == client)
    }

    @Test(
        "a trusted-proxy entry that is not a network is refused naming it",
        arguments: ["10.0.0.0/33", "example.org", "10.0.0.1/-1"])
    func badProxyEntry(entry: String) {
        #expect(throws: TrustedProxiesError.self) { try TrustedProxies(parsing: entry) }
    }

    @Test("the connection limiter sheds the connection idle the longest, and refuses a new one when all are busy")
    func connectionLimiter() async throws {
        let limiter = ConnectionLimiter(maximum: 2)
        let channels = (0..<4).map { _ in EmbeddedChannelStub() }
        let first = try #require(limiter.admit(channels[0].channel))
        let second = try #require(limiter.admit(channels[1].channel))
        limiter.requests(second, change: 1)
        // At the cap: the first (idle) goes, the new one stays.
        let third = try #require(limiter.admit(channels[2].channel))
        #expect(channels[0].closed)
        #expect(limiter.openConnections == 2)
        limiter.requests(third, change: 1)
        // Every connection busy: the new one is refused.
        #expect(limiter.admit(channels[3].channel) == nil)
        #expect(channels[3].closed && !channels[1].closed && !channels[2].closed)
        limiter.remove(first)
    }

    @Test(
        "at the cap, a connection seen sending part of a request head is shed before an older one not yet read")
    func connectionLimiterShedsTricklingFirst() throws {
        let limiter = ConnectionLimiter(maximum: 2)
        let channels = (0..<3).map { _ in EmbeddedChannelStub() }
        // The older connection has sent its request, but the server has not read it yet.
        _ = try #require(limiter.admit(channels[0].channel))
        // The newer one has been read: bytes that did not complete a request head.
        let trickling = try #require(limiter.admit(channels[1].channel))
        limiter.readEnded(trickling, completedHead: false)
        _ = try #require(limiter.admit(channels[2].channel))
        #expect(channels[1].closed && !channels[0].closed && !channels[2].closed)
        // A read that completes a head is no longer trickling (and, with its request, not idle).
        let reading = try #require(limiter.admit(EmbeddedChannelStub().channel))
        #expect(channels[0].closed, "with no trickler left, the oldest idle goes")
        limiter.requests(reading, change: 1)
        limiter.readEnded(reading, completedHead: true)
        #expect(limiter.openConnections == 2)
    }
}

/// An embedded channel, connected so that closing it shows.
struct EmbeddedChannelStub {
    let channel = EmbeddedChannel()

    init() { _ = try? channel.connect(to: try! SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait() }

    var closed: Bool { !channel.isActive }
}
