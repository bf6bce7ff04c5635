import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PracticeServices
import Synchronization

/// Browser sessions: the same session token a bearer client holds, kept in an HttpOnly cookie
/// the page's scripts cannot read, plus a CSRF token for the double-submit check.
///
/// The CSRF token is derived from the session token (a one-way hash), not stored: a request
/// proves it was written by a page of this origin by sending, in `X-CSRF-Token`, the value of
/// the `vetnet_csrf` cookie that only such a page can read. Because the value is bound to the
/// session, a cookie planted by another site (cookie tossing) does not match a real session.
enum SessionCookie {
    /// The session cookie: HttpOnly, so no script (and no injected one) can read the token.
    static let sessionName = "vetnet_session"
    /// The CSRF cookie: readable by the page, which copies it into ``csrfHeader``.
    static let csrfName = "vetnet_csrf"
    /// The header that carries the CSRF token on unsafe requests.
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    /// `X-Forwarded-Proto`, set by a TLS-terminating proxy.
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!

    /// The CSRF token of a session: base64url of SHA-256 over a label and the session token
    /// (43 characters).
    static func csrfToken(for sessionToken: String) -> String {
        let digest = SHA256.hash(data: Data(("vetnet-csrf-v1:" + sessionToken).utf8))
        return TokenText.base64url(Data(digest))
    }

    /// Whether `header` is the CSRF token of `sessionToken`, compared in constant time.
    static func csrfMatches(_ header: String?, sessionToken: String) -> Bool {
        guard let header else { return false }
        return TokenText.constantTimeEqual(header, csrfToken(for: sessionToken))
    }

    /// The value of the cookie `name` in the request's `Cookie` fields, if sent once or more
    /// (the first wins, as browsers send the most specific path first).
    static func value(named name: String, in headers: HTTPFields) -> String? {
        for field in headers[values: .cookie] {
            for pair in field.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// Whether the browser reached the server over TLS: this server's own TLS, the request's
    /// scheme, or the proxy's `X-Forwarded-Proto`. Cookies set over TLS are marked `Secure`.
    static func isSecure(_ request: Request) -> Bool {
        if RequestState.servedOverTLS || request.head.scheme?.lowercased() == "https" { return true }
        let proto = request.headers[forwardedProto]?.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
            .lowercased()
        return proto == "https"
    }

    /// The `Set-Cookie` values that start a browser session.
    static func startFields(token: String, secure: Bool) -> [String] {
        [
            cookie(sessionName, token, httpOnly: true, secure: secure, clear: false),
            cookie(csrfName, csrfToken(for: token), httpOnly: false, secure: secure, clear: false),
        ]
    }

    /// The `Set-Cookie` values that make the browser forget both cookies.
    static func clearFields(secure: Bool) -> [String] {
        [
            cookie(sessionName, "", httpOnly: true, secure: secure, clear: true),
            cookie(csrfName, "", httpOnly: false, secure: secure, clear: true),
        ]
    }

    // No Max-Age on a live session: the cookie ends with the browser, and the server's idle
    // and absolute limits end the session itself whatever the cookie says.
    private static func cookie(_ name: String, _ value: String, httpOnly: Bool, secure: Bool, clear: Bool) -> String {
        var text = "\(name)=\(value); Path=/; SameSite=Strict"
        if clear { text += "; Max-Age=0" }
        if httpOnly { text += "; HttpOnly" }
        if secure { text += "; Secure" }
        return text
    }
}

/// What the handlers of this request asked for the browser's session cookies: set them
/// (a cookie sign-in) or clear them (sign-out, or a cookie whose session is over). Generated
/// handlers cannot add response fields the document does not let them set one by one, so
/// they leave the instruction here and ``SessionCookieMiddleware`` writes the fields.
final class SessionCookieInstructions: Sendable {
    /// One instruction; the last one given wins.
    enum Instruction: Sendable, Equatable {
        /// Start a browser session holding this token.
        case start(token: String)
        /// Clear both cookies.
        case clear
    }

    /// The instructions of the request being handled, bound by ``SessionCookieMiddleware``.
    @TaskLocal static var current: SessionCookieInstructions?

    private let state = Mutex<Instruction?>(nil)
    private let device = Mutex<SignInDevices.Cookie?>(nil)
    private let workstation = Mutex<String?>(nil)

    /// The request's device cookie (``SignInDevices``), as sent.
    let deviceCookie: String?
    /// The request's shared-device cookie (``WorkstationCookie``), as sent.
    let workstationCookie: String?

    /// Instructions for a request that sent `deviceCookie` and `workstationCookie`.
    init(deviceCookie: String? = nil, workstationCookie: String? = nil) {
        self.deviceCookie = deviceCookie
        self.workstationCookie = workstationCookie
    }

    /// Asks for the browser to hold `value` as its shared-device cookie (a registration).
    func register(workstation value: String) { workstation.withLock { $0 = value } }
    /// The shared-device cookie to write, if any.
    var workstationToSet: String? { workstation.withLock { $0 } }

    /// Asks for the browser's device cookie to be `cookie` (after a sign-in).
    func remember(device cookie: SignInDevices.Cookie) { device.withLock { $0 = cookie } }
    /// The device cookie to write, if any.
    var deviceToRemember: SignInDevices.Cookie? { device.withLock { $0 } }

    /// Asks for a browser session holding `token`.
    func start(token: String) { state.withLock { $0 = .start(token: token) } }
    /// Asks for both cookies to be cleared.
    func clear() { state.withLock { $0 = .clear } }
    /// The instruction given, if any.
    var instruction: Instruction? { state.withLock { $0 } }
}

/// Writes the `Set-Cookie` fields the request's handlers asked for, on whatever response the
/// request ends with (a problem document included, so a refused expired cookie is cleared).
struct SessionCookieMiddleware: RouterMiddleware {
    typealias Context = VetNetRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let instructions = SessionCookieInstructions(
            deviceCookie: SessionCookie.value(named: SignInDevices.cookieName, in: request.headers),
            workstationCookie: SessionCookie.value(named: WorkstationCookie.name, in: request.headers))
        var response = try await SessionCookieInstructions.$current.withValue(instructions) {
            try await next(request, context)
        }
        let secure = SessionCookie.isSecure(request)
        switch instructions.instruction {
        case .start(let token)?:
            for field in SessionCookie.startFields(token: token, secure: secure) {
                response.headers.append(HTTPField(name: .setCookie, value: field))
            }
            response.headers[.cacheControl] = "no-store"
        case .clear?:
            for field in SessionCookie.clearFields(secure: secure) {
                response.headers.append(HTTPField(name: .setCookie, value: field))
            }
        case nil:
            break
        }
        if let workstation = instructions.workstationToSet {
            response.headers.append(
                HTTPField(name: .setCookie, value: WorkstationCookie.setCookieField(workstation, secure: secure)))
        }
        if let device = instructions.deviceToRemember {
            response.headers.append(
                HTTPField(name: .setCookie, value: SignInDevices.setCookieField(device, secure: secure)))
        }
        return response
    }
}

/// The cookie that marks a browser as a registered shared device: sent only to the sign-in
/// endpoints (`/api/v1/auth`), never readable by the page, kept across sign-outs.
enum WorkstationCookie {
    /// Its name.
    static let name = "vetnet_workstation"
    /// 400 days, the longest a browser keeps a cookie.
    static let maxAge = 400 * 24 * 60 * 60

    /// The `Set-Cookie` value holding `value`.
    static func setCookieField(_ value: String, secure: Bool) -> String {
        "\(name)=\(value); Path=/api/v1/auth; Max-Age=\(maxAge); SameSite=Strict; HttpOnly" + (secure ? "; Secure" : "")
    }
}
