import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HTTPAPI

/// Browser sessions: the token in an HttpOnly cookie, writes guarded by the CSRF header.
@Suite("Cookie sessions for the web app")
struct CookieSessionTests {
    /// The two cookies a cookie sign-in set, as `name=value` pairs for a `Cookie` header, and
    /// the raw `Set-Cookie` fields.
    struct BrowserSession: Sendable {
        let session: String
        let csrf: String
        let setCookie: [String]
        /// The `Cookie` header a browser would send.
        var cookieHeader: String { "vetnet_session=\(session); vetnet_csrf=\(csrf)" }
    }

    static func cookieLogin(
        _ client: some TestClientProtocol, email: String = "administrator@alpha.example",
        headers extra: HTTPFields = [:]
    ) async throws -> BrowserSession {
        var headers = extra
        headers[.contentType] = "application/json"
        return try await client.execute(
            uri: "/api/v1/auth/login", method: .post, headers: headers,
            body: ByteBuffer(string: #"{"email":"\#(email)","password":"\#(AppFixture.password)","session":"cookie"}"#)
        ) { response in
            #expect(response.status == .ok)
            let body = String(buffer: response.body)
            #expect(!body.contains("\"token\""), "a cookie sign-in must not hand the token to scripts")
            let fields = response.headers[values: .setCookie]
            func value(_ name: String) -> String {
                fields.first { $0.hasPrefix(name + "=") }.map {
                    String($0.dropFirst(name.count + 1).prefix { $0 != ";" })
                } ?? ""
            }
            return BrowserSession(session: value("vetnet_session"), csrf: value("vetnet_csrf"), setCookie: fields)
        }
    }

    static func roomNames(_ client: some TestClientProtocol, _ browser: BrowserSession) async throws -> [String] {
        try await client.execute(uri: "/api/v1/rooms", method: .get, headers: [.cookie: browser.cookieHeader]) {
            response in
            #expect(response.status == .ok)
            return try JSONDecoder().decode(RoomList.self, from: Data(buffer: response.body)).items.map(\.name)
        }
    }

    @Test(
        """
        a cookie sign-in sets an HttpOnly, SameSite=Strict session cookie and a readable CSRF cookie; GETs work with \
        the cookie alone
        """
    )
    func signInAndRead() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let browser = try await Self.cookieLogin(client)
            #expect(browser.session.count >= 40)
            #expect(browser.csrf.count == 43)
            let session = try #require(browser.setCookie.first { $0.hasPrefix("vetnet_session=") })
            #expect(session.contains("HttpOnly") && session.contains("SameSite=Strict") && session.contains("Path=/"))
            #expect(!session.contains("Secure"), "plain HTTP: a Secure cookie would never come back")
            let csrf = try #require(browser.setCookie.first { $0.hasPrefix("vetnet_csrf=") })
            #expect(!csrf.contains("HttpOnly") && csrf.contains("SameSite=Strict"))

            try await client.execute(uri: "/api/v1/me", method: .get, headers: [.cookie: browser.cookieHeader]) {
                response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Alpha Vets"))
            }
            // A bearer sign-in: the token in the answer, no session cookies (only the device
            // cookie every sign-in gives: SignInDeviceTests).
            try await client.execute(
                uri: "/api/v1/auth/login", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string: #"{"email":"receptionist@alpha.example","password":"\#(AppFixture.password)"}"#)
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("\"token\""))
                #expect(response.headers[values: .setCookie].map { $0.prefix { $0 != "=" } } == ["vetnet_device"])
            }
        }
    }

    @Test("behind a TLS proxy (X-Forwarded-Proto: https) the session, CSRF and device cookies are Secure")
    func secureBehindTLS() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let browser = try await Self.cookieLogin(client, headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(
                browser.setCookie.map { $0.prefix { $0 != "=" } }.sorted() == [
                    "vetnet_csrf", "vetnet_device", "vetnet_session",
                ])
            #expect(browser.setCookie.allSatisfy { $0.contains("; Secure") })
        }
    }

    @Test(
        """
        a cookie-authenticated change without the CSRF header, or with another one, is 403 and changes nothing; with \
        it, it succeeds
        """
    )
    func csrf() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let browser = try await Self.cookieLogin(client)
            let other = try await Self.cookieLogin(client, email: "veterinarian@alpha.example")
            let room = #"{"name":"Cookie consult","type":"exam"}"#
            let attempts: [(String, HTTPFields)] = [
                ("no header", [:]),
                ("the CSRF cookie of another session", [SessionCookie.csrfHeader: other.csrf]),
                ("a made-up value", [SessionCookie.csrfHeader: String(repeating: "A", count: 43)]),
            ]
            for (label, extra) in attempts {
                var headers = extra
                headers[.cookie] = browser.cookieHeader
                headers[.contentType] = "application/json"
                try await client.execute(
                    uri: "/api/v1/rooms", method: .post, headers: headers, body: ByteBuffer(string: room)
                ) { response in
                    #expect(response.status == .forbidden, "\(label)")
                    #expect(response.headers[.contentType] == "application/problem+json")
                    let problem = try Problem(response)
                    #expect(problem.errors?.map(\.field) == ["X-CSRF-Token"], "\(label)")
                }
            }
            #expect(try await Self.roomNames(client, browser).contains("Cookie consult") == false)

            try await client.execute(
                uri: "/api/v1/rooms", method: .post,
                headers: [
                    .cookie: browser.cookieHeader, SessionCookie.csrfHeader: browser.csrf,
                    .contentType: "application/json",
                ],
                body: ByteBuffer(string: room)
            ) { response in
                #expect(response.status == .created, "\(String(buffer: response.body))")
            }
            #expect(try await Self.roomNames(client, browser).contains("Cookie consult"))
        }
    }

    @Test("sign-out clears both cookies and the old cookie no longer opens anything")
    func signOut() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let browser = try await Self.cookieLogin(client)
            // Sign-out is a change like any other: refused without the CSRF header.
            try await client.execute(
                uri: "/api/v1/auth/logout", method: .post, headers: [.cookie: browser.cookieHeader]
            ) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/api/v1/me", method: .get, headers: [.cookie: browser.cookieHeader]) {
                #expect($0.status == .ok)
            }
            try await client.execute(
                uri: "/api/v1/auth/logout", method: .post,
                headers: [.cookie: browser.cookieHeader, SessionCookie.csrfHeader: browser.csrf]
            ) { response in
                #expect(response.status == .noContent)
                let fields = response.headers[values: .setCookie]
                #expect(fields.count == 2)
                #expect(fields.contains { $0.hasPrefix("vetnet_session=;") && $0.contains("Max-Age=0") })
                #expect(fields.contains { $0.hasPrefix("vetnet_csrf=;") && $0.contains("Max-Age=0") })
            }
            try await client.execute(uri: "/api/v1/me", method: .get, headers: [.cookie: browser.cookieHeader]) {
                response in
                #expect(response.status == .unauthorized)
                // The browser is told to drop the dead cookie.
                #expect(response.headers[values: .setCookie].contains { $0.hasPrefix("vetnet_session=;") })
            }
        }
    }

    @Test("an Authorization header wins over a cookie: a bearer client is never asked for a CSRF token")
    func bearerWins() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let browser = try await Self.cookieLogin(client)
            let token = try await client.login("administrator@alpha.example")
            try await client.call(
                "/api/v1/rooms", .post, token: token, json: #"{"name":"Bearer consult","type":"exam"}"#,
                headers: [.cookie: browser.cookieHeader]
            ) { #expect($0.status == .created) }
            try await client.call("/api/v1/me", token: "not-a-token", headers: [.cookie: browser.cookieHeader]) {
                #expect($0.status == .unauthorized)
            }
        }
    }
}

/// The room names of `GET /api/v1/rooms`.
private struct RoomList: Decodable {
    struct Room: Decodable { let name: String }
    let items: [Room]
}
