import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import PracticeServices
import Prometheus
import ServiceLifecycle
import SharedKernel
import StoragePorts

/// The running pieces the composition root hands back besides the application itself.
public struct AppServices<Store: PracticeStore>: Sendable {
    /// The open store.
    public let store: Store
    /// Sign-in and accounts.
    public let accounts: AccountService
    /// Fans the practice's event log out to live streams.
    public let live: LiveEventHub
    /// Indexed practice histories reused between analytics requests.
    public let analyticsCache: AnalyticsCache

    /// Bundles the running pieces.
    public init(
        store: Store, accounts: AccountService, live: LiveEventHub,
        analyticsCache: AnalyticsCache = AnalyticsCache()
    ) {
        self.store = store
        self.accounts = accounts
        self.live = live
        self.analyticsCache = analyticsCache
    }
}

/// The composition root: builds the whole server from configuration. No globals, no service
/// locator; every dependency is created here and passed down by initializer.
///
/// `storeServices` are the adapter's own (closing the embedded database, its audit checkpoint):
/// they start first and stop last, after in-flight requests have drained.
public func buildApplication<Store: PracticeStore>(
    configuration: AppConfiguration, store: Store, storeServices: [any Service] = [],
    metrics: PrometheusCollectorRegistry? = nil, logger: Logger
) async throws -> (some ApplicationProtocol, AppServices<Store>) {
    let accounts = AccountService(
        store: store,
        policy: SessionPolicy(
            idleTimeout: configuration.idleTimeout,
            absoluteTimeout: configuration.absoluteTimeout),
        deviceKey: configuration.signInDeviceKey)
    let services = AppServices(
        store: store, accounts: accounts,
        live: LiveEventHub(store: store, configuration: configuration.live, logger: logger))
    // Files left by uploads whose record never committed (a crash between the two) go now.
    let swept = try await store.sweepOrphanDocuments()
    if swept > 0 { logger.info("removed orphaned document files", metadata: ["count": "\(swept)"]) }
    let router = buildRouter(configuration: configuration, services: services, metrics: metrics)
    // Silent, slow and surplus connections are shed so they cannot use up the descriptors.
    let limiter = ConnectionLimiter(maximum: configuration.maxConnections)
    let idle = configuration.connectionIdleTimeout.components
    let http = HTTPServerBuilder.http1(
        configuration: .init(
            additionalChannelHandlers: [limiter.handler()],
            idleTimeout: .nanoseconds(idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000)))
    var app = Application(
        router: router,
        server: try configuration.tls.map { try HTTPServerBuilder.tls(http, tlsConfiguration: $0.configuration) }
            ?? http,
        // A deep accept queue: a burst of new connections waits to be accepted (and shed, if
        // surplus) rather than being dropped by the kernel, which makes clients retry after 1 s.
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "VetNet", backlog: 4096),
        logger: logger)
    // Added before the server starts, shut down after it has drained: in-flight requests
    // finish, then the services stop in reverse order (housekeeping first), then the store's own.
    for service in storeServices { app.addServices(service) }
    if let certificate = configuration.tls {
        app.addServices(CertificateReloadService(certificate: certificate, logger: logger))
        if let redirect = configuration.httpRedirectPort {
            app.addServices(
                HTTPSRedirect.application(
                    host: configuration.host, port: redirect, tlsPort: configuration.port, logger: logger))
        }
    }
    app.addServices(
        LiveEventService(hub: services.live),
        MetricsUpdateService(
            store: store, clock: store.clock, interval: configuration.metricsUpdateInterval,
            tick: configuration.metricsUpdateTick,
            logger: logger),
        BoardDeadlineService(store: store, interval: .seconds(30), logger: logger),
        HousekeepingService(
            store: store, policy: accounts.policy, interval: .seconds(60 * 60), logger: logger,
            eventRetentionDays: configuration.eventRetentionDays))
    return (app, services)
}

/// The router with every middleware and route; separate so tests can drive it directly.
func buildRouter<Store: PracticeStore>(
    configuration: AppConfiguration, services: AppServices<Store>, metrics: PrometheusCollectorRegistry?
) -> Router<VetNetRequestContext> {
    // HEAD works wherever GET does: the GET's answer without its body.
    let router = Router(context: VetNetRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost: over TLS, every answer tells the browser to come back only over TLS.
    if configuration.tls != nil { router.add(middleware: StrictTransportSecurityMiddleware()) }
    router.add(middleware: RequestIDMiddleware(trustedProxies: configuration.trustedProxies))
    // Outside the problem mapping, so a refused expired cookie is cleared on the 401 too.
    router.add(middleware: SessionCookieMiddleware())
    router.add(middleware: ProblemDetailsMiddleware())
    // Before anything that reads the path (metrics, authentication, the contract, handlers).
    router.add(middleware: PathNormalizationMiddleware())
    router.add(middleware: MetricsMiddleware())
    // Who is asking is settled before any body is read, so an anonymous client cannot make
    // the server buffer one; only the declared upload route takes a document-sized body.
    router.add(middleware: AuthenticationMiddleware(accounts: services.accounts))
    router.add(
        middleware: BodyLimitMiddleware(
            jsonLimit: configuration.maxBodyBytes, documentLimit: maxDocumentBytes + 1,
            contract: .bundled))
    router.add(middleware: ContractMiddleware(contract: .bundled, bodyLimit: configuration.maxBodyBytes))
    router.add(middleware: ProblemAcceptMiddleware())

    WebAppRoutes(assets: .bundled).register(on: router)
    router.get("/openapi.yaml") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/yaml"],
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.bytes)))
    }
    // The same document as JSON, which most tools ask for first.
    router.get("/openapi.json") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: OpenAPIDocument.json)))
    }
    router.get("/metrics") { request, context in
        try await MetricsEndpoint.respond(
            request: request, context: context, registry: metrics, operatorToken: configuration.metricsToken)
    }
    let handler = APIHandler(
        store: services.store, accounts: services.accounts, live: services.live, analyticsCache: services.analyticsCache
    )
    // Registration only fails on a malformed document, which the build already rejects.
    try! handler.registerHandlers(on: router, configuration: Configuration(dateTranscoder: FlexibleDateTranscoder()))
    return router
}
