import Foundation
import Logging

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

    /// Creates a configuration with VetNet's defaults.
    public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL = URL(fileURLWithPath: "vetnet-data"),
                auditKeyBase64: String? = nil, seedDemo: Bool = false, maxBodyBytes: Int = 1 << 20,
                idleTimeout: TimeInterval = 30 * 60, absoluteTimeout: TimeInterval = 12 * 3600, logLevel: Logger.Level = .info,
                metricsToken: String? = nil, eventRetentionDays: Int = 30, live: LiveEventHub.Configuration = .init()) {
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
