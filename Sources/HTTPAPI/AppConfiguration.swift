import Crypto
import Foundation
import Logging
import PracticeServices
import StoragePorts
import StorageSupport

/// Everything the server needs to start, gathered by the command line from flags and
/// `VETNET_*` environment variables.
public struct AppConfiguration: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on (0 picks a free port).
    public var port: Int
    /// Directory of the SQLite store, the audit key and documents.
    public var dataDirectory: URL
    /// Base64 audit-chain key from the environment; when `nil` the key file in the data directory is used.
    public var auditKeyBase64: String?
    /// Signs the sign-in device cookies (``SignInDevices``): the composition root derives it
    /// from the audit key (``deriveSignInDeviceKey(fromAuditKey:)``) so every instance on one
    /// store, and every restart, knows the same browsers; random for the process when `nil`.
    public var signInDeviceKey: [UInt8]?
    /// The server's certificate and key when it speaks TLS itself (`vetnet serve --tls-cert
    /// --tls-key`); `nil` for plain HTTP behind a TLS-terminating proxy. With it every
    /// response carries `Strict-Transport-Security` and every cookie is `Secure`.
    public var tls: ServerCertificate?
    /// With ``tls``: a plain-HTTP port that only redirects to HTTPS (``HTTPSRedirect``).
    public var httpRedirectPort: Int?
    /// Seed the demo practice when the store is empty.
    public var seedDemo: Bool
    /// Largest accepted request body, in bytes.
    public var maxBodyBytes: Int
    /// Session lifetimes.
    public var idleTimeout: TimeInterval
    /// Absolute session lifetime.
    public var absoluteTimeout: TimeInterval
    /// Log level.
    public var logLevel: Logger.Level
    /// The bearer token a remote Prometheus scraper presents for `/metrics` (`nil`: loopback
    /// scrapers only). Metrics cover every practice on the machine, so no practice's staff
    /// account may read them.
    public var metricsToken: String?
    /// Days the event log keeps changes for clients catching up (1–3650, default 30).
    public var eventRetentionDays: Int
    /// Tuning of the live streams (heartbeat, polling, buffers).
    public var live: LiveEventHub.Configuration
    /// Shortest time between two `metrics.updated` events of a practice (default 30 s).
    public var metricsUpdateInterval: Duration = .seconds(30)
    /// How often the event logs are looked at for changes that move the figures (default 1 s).
    public var metricsUpdateTick: Duration = .seconds(1)
    /// Reverse proxies believed when they name the client in `X-Forwarded-For` (default none).
    public var trustedProxies: TrustedProxies = .none
    /// How long a connection may stay without a complete request head or any request in
    /// progress before it is closed: the idle and the header-read limit (default 30 s).
    public var connectionIdleTimeout: Duration = .seconds(30)
    /// The most connections held open at once (default: what the process's file-descriptor
    /// limit leaves after a reserve for the store, documents and logs; see ``ConnectionLimiter``).
    public var maxConnections: Int = AppConfiguration.defaultMaxConnections()

    /// The connection maximum the file-descriptor limit allows: the soft limit less 256 for
    /// everything else the process opens, at most 4,096 and at least 64.
    public static func defaultMaxConnections() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        let soft = limit.rlim_cur > 1 << 20 ? 65_536 : Int(clamping: limit.rlim_cur)
        return min(4_096, max(64, soft - 256))
    }

    /// Creates a configuration with VetNet's defaults.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL = URL(fileURLWithPath: "vetnet-data"),
        auditKeyBase64: String? = nil, seedDemo: Bool = false, maxBodyBytes: Int = 1 << 20,
        idleTimeout: TimeInterval = 30 * 60, absoluteTimeout: TimeInterval = 12 * 3600, logLevel: Logger.Level = .info,
        metricsToken: String? = nil, eventRetentionDays: Int = 30, live: LiveEventHub.Configuration = .init()
    ) {
        self.metricsToken = metricsToken
        self.eventRetentionDays = eventRetentionDays
        self.live = live
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.auditKeyBase64 = auditKeyBase64
        self.seedDemo = seedDemo
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.absoluteTimeout = absoluteTimeout
        self.logLevel = logLevel
    }
}

extension AppConfiguration {
    /// The sign-in device key of an installation whose audit chain is keyed with `auditKey`.
    public static func deriveSignInDeviceKey(fromAuditKey auditKey: AuditKey) -> [UInt8] {
        SignInDevices.deriveKey(fromAuditKey: auditKey.symmetricKey)
    }
}
