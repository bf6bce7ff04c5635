import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import StorageSQLite
import VetNetServer

/// `vetnet serve`: runs the HTTP server on the configured store (the composition root picks
/// the adapter: the embedded SQLite store, or a PostgreSQL database shared by several instances).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the VetNet server.",
        discussion: """
            Environment: VETNET_HOST, VETNET_PORT, VETNET_DATA_DIR, VETNET_DEMO=1, VETNET_AUDIT_KEY (base64, ≥ 32 \
            bytes; otherwise audit.key in the data directory, created 0600 on first run), VETNET_DEMO_PASSWORD \
            (password of the demo accounts; random when unset), VETNET_LOG_LEVEL (trace…critical), \
            VETNET_METRICS_TOKEN (bearer token for remote /metrics scrapers; loopback only when unset), \
            VETNET_AUDIT_CHECKPOINT (signed audit head, best on another volume), VETNET_EVENT_RETENTION_DAYS (days \
            the change feed keeps events; 30 when unset), VETNET_DATABASE_URL (postgres://… to serve from a \
            PostgreSQL database; every instance on it must have the same VETNET_AUDIT_KEY and VETNET_RECORD_KEY).
            A variable that is set but cannot be read (a port that is not a number, an unknown log level) stops \
            the server naming it, rather than being passed over for a default.
            SIGINT/SIGTERM finish in-flight requests, then close the store.
            """)

    @Option(help: "Address to listen on (env VETNET_HOST).")
    var host: String = ProcessInfo.processInfo.environment["VETNET_HOST"] ?? "127.0.0.1"

    @Option(help: "Port to listen on (env VETNET_PORT).")
    var port: Int = Int(ProcessInfo.processInfo.environment["VETNET_PORT"] ?? "") ?? 8080

    @OptionGroup var store: StoreOptions

    @Option(help: "Days the event log keeps changes for clients catching up, 1–3650 (env VETNET_EVENT_RETENTION_DAYS).")
    var eventRetentionDays: Int = Int(ProcessInfo.processInfo.environment["VETNET_EVENT_RETENTION_DAYS"] ?? "") ?? 30

    @Flag(help: "Seed the demo practice first if the store is empty (env VETNET_DEMO=1).")
    var demo: Bool = ProcessInfo.processInfo.environment["VETNET_DEMO"] == "1"

    @Option(
        help:
            """
            Most connections held open at once, 16–100000 (env VETNET_MAX_CONNECTIONS; default from the descriptor \
            limit).
            """
    )
    var maxConnections: Int =
        Int(ProcessInfo.processInfo.environment["VETNET_MAX_CONNECTIONS"] ?? "")
        ?? ServerSettings.defaultMaxConnections()

    @Option(
        help:
            """
            Seconds a connection may stay without a complete request head or a request in progress, 1–3600 (env \
            VETNET_CONNECTION_IDLE_SECONDS).
            """
    )
    var connectionIdleSeconds: Int =
        Int(ProcessInfo.processInfo.environment["VETNET_CONNECTION_IDLE_SECONDS"] ?? "") ?? 30

    @Option(
        help:
            """
            Reverse proxies whose X-Forwarded-For names the client, comma-separated networks (env \
            VETNET_TRUSTED_PROXIES).
            """
    )
    var trustedProxies: String = ProcessInfo.processInfo.environment["VETNET_TRUSTED_PROXIES"] ?? ""

    @Option(help: "PEM certificate chain to serve HTTPS with, the server's certificate first (env VETNET_TLS_CERT).")
    var tlsCert: String = ProcessInfo.processInfo.environment["VETNET_TLS_CERT"] ?? ""

    @Option(help: "PEM private key of --tls-cert (env VETNET_TLS_KEY).")
    var tlsKey: String = ProcessInfo.processInfo.environment["VETNET_TLS_KEY"] ?? ""

    @Option(
        help:
            """
            With --tls-cert: a plain-HTTP port that only redirects to HTTPS, such as 80 (env VETNET_HTTP_REDIRECT_PORT).
            """
    )
    var httpRedirectPort: Int?

    @Option(help: "Live streams one account may hold open at once, 1–10000 (env VETNET_MAX_STREAMS_PER_USER).")
    var maxStreamsPerUser: Int = Int(ProcessInfo.processInfo.environment["VETNET_MAX_STREAMS_PER_USER"] ?? "") ?? 8

    /// The options as the server's settings.
    var settings: ServerSettings {
        var settings = ServerSettings(dataDirectory: store.dataURL)
        settings.host = host
        settings.port = port
        settings.auditKeyBase64 = ProcessInfo.processInfo.environment["VETNET_AUDIT_KEY"]
        settings.seedDemo = demo
        settings.demoPassword = ProcessInfo.processInfo.environment["VETNET_DEMO_PASSWORD"].flatMap {
            $0.isEmpty ? nil : $0
        }
        settings.logLevel =
            ProcessInfo.processInfo.environment["VETNET_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        settings.metricsToken = ProcessInfo.processInfo.environment["VETNET_METRICS_TOKEN"].flatMap {
            $0.isEmpty ? nil : $0
        }
        settings.eventRetentionDays = eventRetentionDays
        settings.maxConnections = maxConnections
        settings.connectionIdleSeconds = connectionIdleSeconds
        settings.trustedProxies = trustedProxies
        settings.tlsCertificatePath = tlsCert.isEmpty ? nil : tlsCert
        settings.tlsKeyPath = tlsKey.isEmpty ? nil : tlsKey
        settings.httpRedirectPort =
            httpRedirectPort ?? ProcessInfo.processInfo.environment["VETNET_HTTP_REDIRECT_PORT"].flatMap { Int($0) }
        settings.maxStreamsPerUser = maxStreamsPerUser
        return settings
    }

    /// The variables that hold a whole number when set.
    static let wholeNumberVariables = [
        "VETNET_PORT", "VETNET_EVENT_RETENTION_DAYS", "VETNET_MAX_CONNECTIONS", "VETNET_CONNECTION_IDLE_SECONDS",
        "VETNET_HTTP_REDIRECT_PORT", "VETNET_MAX_STREAMS_PER_USER",
    ]

    func validate() throws {
        let environment = ProcessInfo.processInfo.environment
        for name in Self.wholeNumberVariables {
            if let value = environment[name], !value.isEmpty, Int(value) == nil {
                throw ArgumentParser.ValidationError("\(name): '\(value)' is not a whole number")
            }
        }
        if let level = environment["VETNET_LOG_LEVEL"], !level.isEmpty, Logger.Level(rawValue: level) == nil {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ArgumentParser.ValidationError("VETNET_LOG_LEVEL: '\(level)' is not one of \(levels)")
        }
        do { try settings.validate() } catch { throw ArgumentParser.ValidationError(error.description) }
    }

    func run() async throws {
        let started = Date()
        let settings = self.settings
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = settings.logLevel
            return handler
        }
        let logger = Logger(label: "vetnet")
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        let launch: ServerLaunch
        do { launch = try ServerLaunch(settings, auditKey: try store.auditKey()) } catch let refusal
            as ServerLaunch.Refusal
        {
            printError("Refusing to start: \(refusal)")
            throw ExitCode(1)
        }
        // Migrations run as the store opens, before the server accepts any request.
        let opened = try await store.openPracticeStore(logger: logger)
        // A trail that lost its anchor (entries deleted from the end, the checkpoint deleted or
        // rewritten) is never served on: starting would write new entries after the gap.
        if let refusal = try opened.embedded?.auditAnchor()?.refusal(recovery: store.reanchorCommand) {
            opened.close()
            printError(refusal)
            throw ExitCode(1)
        }
        if let role = opened.servingRole {
            // Row-level security is what keeps practices apart on PostgreSQL: a role it does not
            // bind must never serve.
            if role.bypassesRowLevelSecurity {
                opened.close()
                printError(
                    """
                    Refusing to start: the database role is a superuser or has BYPASSRLS, so row-level security would \
                    not keep \
                    practices apart. Serve as an ordinary runtime role (docs/postgresql.md).
                    """)
                throw ExitCode(1)
            }
            if role.ownsSchema {
                logger.warning(
                    """
                    serving as the schema's owner: this role could alter tables, triggers and policies and read every \
                    practice; \
                    serve as a runtime role granted by `vetnet migrate --runtime-role` (docs/postgresql.md)
                    """)
            }
        }
        try await launch.run(
            store: opened.store, storeServices: opened.services, location: opened.location, metrics: registry,
            logger: logger, startedAt: started, announce: printNow)
    }
}
