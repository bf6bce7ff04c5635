import HTTPTypes
import Hummingbird
import NIOCore

/// Per-request context: Hummingbird's core storage plus the client's address, which the
/// sign-in throttle and the `/metrics` guard need.
public struct VetNetRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address when the request came over a socket (`nil` in router tests).
    public let remoteAddress: SocketAddress?
    /// Completes when the connection closes: a live stream ends its subscription at once
    /// instead of at its next failed write.
    public let connectionClosed: EventLoopFuture<Void>

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.connectionClosed = source.channel.closeFuture
    }

    /// The client's IP address as text, or `"unknown"`.
    public var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }

    /// Whether the client connects from this machine.
    public var isLoopback: Bool {
        guard let ip = remoteAddress?.ipAddress else { return false }
        return ip == "::1" || ip.hasPrefix("127.") || ip == "::ffff:127.0.0.1"
    }
}
