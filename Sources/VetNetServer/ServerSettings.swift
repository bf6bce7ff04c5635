import Foundation
import HTTPAPI
import Logging

/// What the server is told to be, as plain values (`vetnet serve`'s options and `VETNET_*`
/// variables): ``validate()`` refuses what it cannot start with, naming the option and why,
/// before anything is opened.
public struct ServerSettings: Sendable {
    /// Address to listen on.
    public var host = "127.0.0.1"
    /// Port to listen on.
    public var port = 8080
    /// The data directory: the embedded store, the audit key, uploads.
    public var dataDirectory: URL
    /// The audit key from the environment (base64); `nil` reads the data directory's key file.
    public var auditKeyBase64: String?
    /// Seed the demo practice first if the store holds none.
    public var seedDemo = false
    /// The demo accounts' password; random when `nil`.
    public var demoPassword: String?
    /// Lowest level logged.
    public var logLevel: Logger.Level = .info
    /// Bearer token of remote `/metrics` scrapers; loopback only when `nil`.
    public var metricsToken: String?
    /// Days the event log keeps changes for clients catching up, 1–3650.
    public var eventRetentionDays = 30
    /// Most connections held open at once, 16–100000.
    public var maxConnections = ServerSettings.defaultMaxConnections()
    /// Seconds a connection may stay without a complete request head or a request in
    /// progress, 1–3600.
    public var connectionIdleSeconds = 30
    /// Reverse proxies whose `X-Forwarded-For` names the client, comma-separated networks.
    public var trustedProxies = ""
    /// PEM certificate chain to serve HTTPS with, the server's certificate first.
    public var tlsCertificatePath: String?
    /// PEM private key of ``tlsCertificatePath``.
    public var tlsKeyPath: String?
    /// With TLS: a plain-HTTP port that only redirects to HTTPS.
    public var httpRedirectPort: Int?
    /// Live streams one account may hold open at once, 1–10000.
    public var maxStreamsPerUser = 8

    /// Settings with the defaults, over `dataDirectory`.
    public init(dataDirectory: URL) {
        self.dataDirectory = dataDirectory
    }

    /// The connection maximum the process's file-descriptor limit allows.
    public static func defaultMaxConnections() -> Int { AppConfiguration.defaultMaxConnections() }

    /// A value the server cannot start with, named by its option.
    public struct Problem: Error, CustomStringConvertible {
        /// The option and what is wrong with its value.
        public let description: String
    }

    /// Refuses the first value the server cannot start with.
    public func validate() throws(Problem) {
        guard (1...3650).contains(eventRetentionDays) else {
            throw Problem(description: "--event-retention-days must be between 1 and 3650 (got \(eventRetentionDays))")
        }
        guard (16...100_000).contains(maxConnections) else {
            throw Problem(description: "--max-connections must be between 16 and 100000 (got \(maxConnections))")
        }
        guard (1...3600).contains(connectionIdleSeconds) else {
            throw Problem(
                description: "--connection-idle-seconds must be between 1 and 3600 (got \(connectionIdleSeconds))")
        }
        do { _ = try TrustedProxies(parsing: trustedProxies) } catch {
            throw Problem(description: "--trusted-proxies: \(error)")
        }
        if (tlsCertificatePath == nil) != (tlsKeyPath == nil) {
            throw Problem(
                description: tlsCertificatePath == nil
                    ? "--tls-key needs --tls-cert" : "--tls-cert needs --tls-key (the certificate's private key)")
        }
        if let httpRedirectPort {
            guard tlsCertificatePath != nil else {
                throw Problem(description: "--http-redirect-port needs --tls-cert and --tls-key")
            }
            guard (1...65_535).contains(httpRedirectPort), httpRedirectPort != port else {
                throw Problem(description: "--http-redirect-port must be a port from 1 to 65535 other than --port")
            }
        }
        guard (1...10_000).contains(maxStreamsPerUser) else {
            throw Problem(
                description: "--max-streams-per-user must be between 1 and 10000 (got \(maxStreamsPerUser))")
        }
    }
}
