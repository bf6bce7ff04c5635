import ArgumentParser
import Foundation
import HTTPAPI
import Hummingbird
import Logging
import Metrics
import PracticeServices
import Prometheus
import SharedKernel
import StorageSQLite

/// `vetnet serve`: runs the HTTP server on the configured store (the composition root picks
/// the adapter: the embedded SQLite store, or a PostgreSQL database shared by several instances).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the VetNet server.",
        discussion: """
            Environment: VETNET_HOST, VETNET_PORT, VETNET_DATA_DIR, VETNET_DEMO=1, VETNET_AUDIT_KEY (base64, ≥ 32 bytes; \
            otherwise audit.key in the data directory, created 0600 on first run), VETNET_DEMO_PASSWORD (password of the \
            demo accounts; random when unset), VETNET_LOG_LEVEL (trace…critical), VETNET_METRICS_TOKEN (bearer token for remote \
            /metrics scrapers; loopback only when unset), VETNET_AUDIT_CHECKPOINT (signed audit head, best on another volume), \
            VETNET_EVENT_RETENTION_DAYS (days the change feed keeps events; 30 when unset), VETNET_DATABASE_URL \
            (postgres://… to serve from a PostgreSQL database; every instance on it must have the same VETNET_AUDIT_KEY \
            and VETNET_RECORD_KEY).
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
            "Most connections held open at once, 16–100000 (env VETNET_MAX_CONNECTIONS; default from the descriptor limit)."
    )
    var maxConnections: Int =
        Int(ProcessInfo.processInfo.environment["VETNET_MAX_CONNECTIONS"] ?? "")
        ?? AppConfiguration.defaultMaxConnections()

    @Option(
        help:
            "Seconds a connection may stay without a complete request head or a request in progress, 1–3600 (env VETNET_CONNECTION_IDLE_SECONDS)."
    )
    var connectionIdleSeconds: Int =
        Int(ProcessInfo.processInfo.environment["VETNET_CONNECTION_IDLE_SECONDS"] ?? "") ?? 30

    @Option(
        help:
            "Reverse proxies whose X-Forwarded-For names the client, comma-separated networks (env VETNET_TRUSTED_PROXIES)."
    )
    var trustedProxies: String = ProcessInfo.processInfo.environment["VETNET_TRUSTED_PROXIES"] ?? ""

    @Option(help: "PEM certificate chain to serve HTTPS with, the server's certificate first (env VETNET_TLS_CERT).")
    var tlsCert: String? = ProcessInfo.processInfo.environment["VETNET_TLS_CERT"].flatMap { $0.isEmpty ? nil : $0 }

    @Option(help: "PEM private key of --tls-cert (env VETNET_TLS_KEY).")
    var tlsKey: String? = ProcessInfo.processInfo.environment["VETNET_TLS_KEY"].flatMap { $0.isEmpty ? nil : $0 }

    @Option(
        help:
            "With --tls-cert: a plain-HTTP port that only redirects to HTTPS, such as 80 (env VETNET_HTTP_REDIRECT_PORT)."
    )
    var httpRedirectPort: Int? = ProcessInfo.processInfo.environment["VETNET_HTTP_REDIRECT_PORT"].flatMap { Int($0) }

    @Option(help: "Live streams one account may hold open at once, 1–10000 (env VETNET_MAX_STREAMS_PER_USER).")
    var maxStreamsPerUser: Int = Int(ProcessInfo.processInfo.environment["VETNET_MAX_STREAMS_PER_USER"] ?? "") ?? 8

    func validate() throws {
        guard (1...3650).contains(eventRetentionDays) else {
            throw ArgumentParser.ValidationError(
                "--event-retention-days must be between 1 and 3650 (got \(eventRetentionDays))")
        }
        guard (16...100_000).contains(maxConnections) else {
            throw ArgumentParser.ValidationError(
                "--max-connections must be between 16 and 100000 (got \(maxConnections))")
        }
        guard (1...3600).contains(connectionIdleSeconds) else {
            throw ArgumentParser.ValidationError(
                "--connection-idle-seconds must be between 1 and 3600 (got \(connectionIdleSeconds))")
        }
        do { _ = try TrustedProxies(parsing: trustedProxies) } catch {
            throw ArgumentParser.ValidationError("--trusted-proxies: \(error)")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ArgumentParser.ValidationError(
                tlsCert == nil
                    ? "--tls-key needs --tls-cert" : "--tls-cert needs --tls-key (the certificate's private key)")
        }
        if let httpRedirectPort {
            guard tlsCert != nil else {
                throw ArgumentParser.ValidationError("--http-redirect-port needs --tls-cert and --tls-key")
            }
            guard (1...65_535).contains(httpRedirectPort), httpRedirectPort != port else {
                throw ArgumentParser.ValidationError(
                    "--http-redirect-port must be a port from 1 to 65535 other than --port")
            }
        }
        guard (1...10_000).contains(maxStreamsPerUser) else {
            throw ArgumentParser.ValidationError(
                "--max-streams-per-user must be between 1 and 10000 (got \(maxStreamsPerUser))")
        }
    }

    func run() async throws {
        let started = Date()
        let level =
            ProcessInfo.processInfo.environment["VETNET_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "vetnet")
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        var configuration = AppConfiguration(
            host: host, port: port, dataDirectory: store.dataURL,
            auditKeyBase64: ProcessInfo.processInfo.environment["VETNET_AUDIT_KEY"], seedDemo: demo, logLevel: level,
            metricsToken: ProcessInfo.processInfo.environment["VETNET_METRICS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 },
            eventRetentionDays: eventRetentionDays)
        configuration.maxConnections = maxConnections
        configuration.connectionIdleTimeout = .seconds(connectionIdleSeconds)
        configuration.live.maxStreamsPerUser = maxStreamsPerUser
        configuration.trustedProxies = try TrustedProxies(parsing: trustedProxies)
        if let tlsCert, let tlsKey {
            configuration.httpRedirectPort = httpRedirectPort
            do { configuration.tls = try ServerCertificate(certificatePath: tlsCert, keyPath: tlsKey) } catch {
                printError("Refusing to start: \(error)")
                throw ExitCode(1)
            }
        }
        configuration.signInDeviceKey = AppConfiguration.deriveSignInDeviceKey(fromAuditKey: try store.auditKey())
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
                    Refusing to start: the database role is a superuser or has BYPASSRLS, so row-level security would not keep \
                    practices apart. Serve as an ordinary runtime role (docs/postgresql.md).
                    """)
                throw ExitCode(1)
            }
            if role.ownsSchema {
                logger.warning(
                    """
                    serving as the schema's owner: this role could alter tables, triggers and policies and read every practice; \
                    serve as a runtime role granted by `vetnet migrate --runtime-role` (docs/postgresql.md)
                    """)
            }
        }
        let (app, services) = try await buildApplication(
            configuration: configuration, store: opened.store, storeServices: opened.services,
            metrics: registry, logger: logger)
        if demo {
            if let summary = try await DemoPractice.seedIfEmpty(
                store: opened.store, accounts: services.accounts,
                password: ProcessInfo.processInfo.environment["VETNET_DEMO_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 },
                now: Date())
            {
                printNow(DemoBanner.text(summary, host: host, port: port))
            } else {
                printNow(
                    "The store already holds a practice; the demo was not seeded again. Sign in with the accounts printed when it was seeded."
                )
            }
        }
        logger.info(
            "VetNet ready",
            metadata: [
                "address": "\(tlsCert == nil ? "http" : "https")://\(host):\(port)", "store": "\(opened.location)",
                "cold_start_ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
            ])
        try await app.runService()
    }
}

/// The sign-in instructions printed after seeding.
enum DemoBanner {
    static func text(_ summary: DemoPractice.Summary, host: String, port: Int) -> String {
        var lines = [
            "", "Seeded the demo practice \"\(summary.practice.name)\" (\(summary.practice.timeZone)):",
            "  \(summary.clinicians) clinicians, \(summary.accounts.count) staff accounts, \(summary.owners) owners, \(summary.patients) patients.",
            "Sign in with any of these accounts and the password  \(summary.password)",
        ]
        for role in Role.allCases {
            let emails = summary.accounts.filter { $0.role == role }.map(\.email)
            guard let first = emails.first else { continue }
            lines.append(
                "  \(role.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)) \(first)\(emails.count > 1 ? "  (+\(emails.count - 1) more)" : "")"
            )
        }
        if let admin = summary.accounts.first(where: { $0.role == .administrator }) {
            lines.append("For example:")
            lines.append("  curl -s http://\(host):\(port)/api/v1/auth/login -H 'content-type: application/json' \\")
            lines.append("       -d '{\"email\":\"\(admin.email)\",\"password\":\"\(summary.password)\"}'")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }
}
