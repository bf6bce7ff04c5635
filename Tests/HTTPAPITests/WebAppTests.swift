import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import HTTPAPI

/// The staff web app as the server delivers it: the shell, its files, the headers that keep
/// it safe, and nothing else.
@Suite("The web app's files")
struct WebAppTests {
    @Test("the app shell is served at / as HTML with a strict Content-Security-Policy and no inline script")
    func shell() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                let policy = try #require(response.headers[.contentSecurityPolicy])
                #expect(policy.contains("default-src 'self'"))
                #expect(policy.contains("script-src 'self'"))
                #expect(policy.contains("frame-ancestors 'none'"))
                #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                #expect(response.headers[.cacheControl] == "no-cache")
                let html = String(buffer: response.body)
                #expect(html.contains(#"<script type="module" src="/app/main.js"></script>"#))
                // Every script element loads a file: the policy would block an inline one anyway.
                let scripts = html.components(separatedBy: "<script").dropFirst()
                #expect(!scripts.isEmpty && scripts.allSatisfy { $0.hasPrefix(" type=\"module\" src=\"/app/") })
            }
        }
    }

    @Test("modules and styles are served with their media types, and a current copy is answered 304")
    func files() async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            let etag = try await client.execute(uri: "/app/main.js", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] != nil)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/app/styles.css", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/css; charset=utf-8")
            }
            try await client.execute(uri: "/app/main.js", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test(
        "a path that names no file of the app is 404, and no path reaches outside it",
        arguments: [
            "/app/no-such-module.js", "/app/", "/app", "/index.html", "/app/../Package.swift",
            "/app/screens/../../openapi.yaml",
            "/app/%2e%2e/%2e%2e/Package.swift", "/app/..%2f..%2fPackage.swift", "/app/screens/%2E%2E/main.js",
            "/app//main.js",
            "/app/main.js%00.css", "/WebApp/index.html", "/app/./main.js",
        ])
    func notFound(_ path: String) async throws {
        let fixture = try await AppFixture.make()
        try await fixture.test { client in
            try await client.execute(uri: path, method: .get) { response in
                #expect(response.status == .notFound, "\(path)")
                #expect(!String(buffer: response.body).contains("import "), "\(path) must not leak a module")
            }
        }
    }

    @Test(
        """
        the total size of the app shell, screens and styles stays under 640 KB (about a quarter of that compressed on \
        the wire)
        """
    )
    func budget() {
        let total = WebAppAssets.bundled.files.values.reduce(0) { $0 + $1.body.readableBytes }
        #expect(WebAppAssets.bundled.files["/"] != nil)
        #expect(total > 0 && total < 640 * 1024, "the app is \(total) bytes")
    }
}
