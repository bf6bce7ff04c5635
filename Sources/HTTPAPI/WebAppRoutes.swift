import HTTPTypes
import Hummingbird

/// Serves the staff web app: the shell at `/`, its files under `/app/`. These routes are not
/// API operations: they are outside the OpenAPI document, so the contract middleware lets
/// them pass, and they need no session (the app signs in through the API).
struct WebAppRoutes: Sendable {
    let assets: WebAppAssets

    /// The policy every app response carries: scripts, styles and connections from this origin
    /// only, no inline script or `eval`, no plug-ins, never framed.
    static let contentSecurityPolicy = [
        "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' blob:", "connect-src 'self'",
        "font-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// Adds the routes to `router`.
    func register(on router: Router<VetNetRequestContext>) {
        router.get("/") { request, _ in try respond(to: request) }
        router.get("/app/**") { request, _ in try respond(to: request) }
        router.get("/sw.js") { request, _ in try respond(to: request) }
    }

    /// The file for the request's path, `304 Not Modified` when the browser's copy is current,
    /// or 404 for a path that names no file of the app.
    func respond(to request: Request) throws -> Response {
        guard let asset = assets.files[request.uri.path] else {
            throw HTTPError(.notFound, message: "The web app has no file at this path.")
        }
        var headers = Self.securityHeaders
        headers[.contentType] = asset.contentType
        headers[.eTag] = asset.etag
        // Revalidated on every load (a 304 costs one round trip): the files have no content
        // hashes in their names, so a stale cached module could outlive an upgrade.
        headers[.cacheControl] = "no-cache"
        if let known = request.headers[.ifNoneMatch],
            known.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag })
        {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: asset.body))
    }

    /// Headers of every app response.
    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: contentSecurityPolicy,
        HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "no-referrer",
        HTTPField.Name("X-Frame-Options")!: "DENY",
        HTTPField.Name("Cross-Origin-Opener-Policy")!: "same-origin",
        HTTPField.Name("Cross-Origin-Resource-Policy")!: "same-origin",
        HTTPField.Name("Permissions-Policy")!: "camera=(), microphone=(), geolocation=(), payment=()",
    ]
}
