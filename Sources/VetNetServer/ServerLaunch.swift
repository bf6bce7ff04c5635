import Foundation
import HTTPAPI
import Hummingbird
import Logging
import PracticeServices
import Prometheus
import ServiceLifecycle
import SharedKernel
import StoragePorts
import StorageSupport

/// Starts the HTTP server over a store the caller has opened and checked: the composition
/// root of a serving process. The command line decides which store; this decides how it is
/// served.
public struct ServerLaunch: Sendable {
    private let settings: ServerSettings
    private let configuration: AppConfiguration

    /// The server's configuration from `settings` (already validated): reads the TLS
    /// certificate and key, so a bad pair stops the start before any store is opened.
    public init(_ settings: ServerSettings, auditKey: AuditKey) throws(Refusal) {
        self.settings = settings
        var configuration = AppConfiguration(
            host: settings.host, port: settings.port, dataDirectory: settings.dataDirectory,
            auditKeyBase64: settings.auditKeyBase64, seedDemo: settings.seedDemo, logLevel: settings.logLevel,
            metricsToken: settings.metricsToken, eventRetentionDays: settings.eventRetentionDays)
        configuration.maxConnections = settings.maxConnections
        configuration.connectionIdleTimeout = .seconds(settings.connectionIdleSeconds)
        configuration.live.maxStreamsPerUser = settings.maxStreamsPerUser
        do { configuration.trustedProxies = try TrustedProxies(parsing: settings.trustedProxies) } catch {
            throw Refusal(description: "--trusted-proxies: \(error)")
        }
        if let certificatePath = settings.tlsCertificatePath, let keyPath = settings.tlsKeyPath {
            configuration.httpRedirectPort = settings.httpRedirectPort
            do { configuration.tls = try ServerCertificate(certificatePath: certificatePath, keyPath: keyPath) } catch {
                throw Refusal(description: "\(error)")
            }
        }
        configuration.signInDeviceKey = AppConfiguration.deriveSignInDeviceKey(fromAuditKey: auditKey)
        self.configuration = configuration
    }

    /// Why the server will not start.
    public struct Refusal: Error, CustomStringConvertible {
        /// What is wrong, for the operator.
        public let description: String
    }

    /// Serves `store` until SIGINT/SIGTERM, then finishes in-flight requests and stops
    /// `storeServices` (the adapter's own) last. Seeds the demo practice first when asked and
    /// the store holds none, and hands its sign-in instructions to `announce`.
    public func run(
        store: some PracticeStore, storeServices: [any Service], location: String,
        metrics: PrometheusCollectorRegistry, logger: Logger, startedAt: Date,
        announce: @Sendable (String) -> Void
    ) async throws {
        let (app, services) = try await buildApplication(
            configuration: configuration, store: store, storeServices: storeServices, metrics: metrics, logger: logger)
        if settings.seedDemo {
            if let summary = try await DemoPractice.seedIfEmpty(
                store: store, accounts: services.accounts, password: settings.demoPassword, now: Date())
            {
                announce(summary.banner(host: settings.host, port: settings.port))
            } else {
                announce(
                    """
                    The store already holds a practice; the demo was not seeded again. Sign in with the accounts \
                    printed when it was seeded.
                    """
                )
            }
        }
        logger.info(
            "VetNet ready",
            metadata: [
                "address": "\(configuration.tls == nil ? "http" : "https")://\(settings.host):\(settings.port)",
                "store": "\(location)",
                "cold_start_ms": "\(Int(Date().timeIntervalSince(startedAt) * 1000))",
            ])
        try await app.runService()
    }
}
