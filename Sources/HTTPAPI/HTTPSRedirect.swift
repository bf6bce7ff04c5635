import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The plain-HTTP listener beside a TLS server: it serves nothing and answers every request
/// with `308 Permanent Redirect` to the same path over HTTPS, so a bookmark or a typed
/// `http://` address reaches the app without a byte of it (or a cookie) crossing in the clear.
enum HTTPSRedirect {
    /// The HTTPS address of `request` on a server whose TLS port is `tlsPort`: the host the
    /// browser asked for (a name or an address; anything else gives `fallbackHost`), the port
    /// unless it is 443, and the same path and query.
    static func location(for request: Request, tlsPort: Int, fallbackHost: String) -> String {
        var host = fallbackHost
        if let asked = request.head.authority {
            let name: Substring
            if asked.hasPrefix("[") {
                name = asked.prefix { $0 != "]" } + "]"
            } else {
                name = asked.split(separator: ":", maxSplits: 1).first ?? ""
            }
            let allowed = CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-[]:")
            if !name.isEmpty, name.count <= 253, name.unicodeScalars.allSatisfy(allowed.contains) {
                host = String(name)
            }
        }
        let target = request.uri.string.hasPrefix("/") ? request.uri.string : "/"
        return "https://\(host)\(tlsPort == 443 ? "" : ":\(tlsPort)")\(target)"
    }

    /// The listener on `port` of `host`, redirecting to `tlsPort`.
    static func application(host: String, port: Int, tlsPort: Int, logger: Logger) -> some ApplicationProtocol {
        Application(
            responder: CallbackResponder { (request: Request, _: BasicRequestContext) in
                Response(
                    status: .permanentRedirect,
                    headers: [
                        .location: location(for: request, tlsPort: tlsPort, fallbackHost: host), .contentLength: "0",
                    ])
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "VetNet"), logger: logger)
    }
}
