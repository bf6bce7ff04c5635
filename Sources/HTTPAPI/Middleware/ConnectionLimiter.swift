import NIOCore
import NIOHTTPTypes
import Synchronization

/// Holds the number of open connections under a maximum, so that thousands of silent or
/// slow connections cannot use up the process's file descriptors.
///
/// At the maximum, a new connection takes the place of the connection that has been idle
/// longest — one with no request in progress, including one still sending its request head
/// byte by byte (a slowloris) — among the connections of the client address holding the most:
/// a flood from one address sheds its own connections, not another client's. Connections
/// seen sending part of a request head go first: under a flood the server may not yet have
/// read a connection that sent its whole request at once, and that one must not be taken
/// for a slowloris. A client that
/// sends a real request is served while such connections are shed. When every connection has
/// a request in progress, the new one is closed at once. (Idle and header-read time limits
/// are the HTTP server's `idleTimeout`.)
final class ConnectionLimiter: Sendable {
    private struct Entry: Sendable {
        let channel: any Channel
        /// The peer's address (without its port), `nil` when the channel has none.
        let address: String?
        var requestsInProgress = 0
        var lastActive: ContinuousClock.Instant
        /// Bytes arrived with no request in progress and no request head completed by them.
        var trickling = false
    }

    private struct State: Sendable {
        var next = 0
        var entries: [Int: Entry] = [:]
    }

    /// The most connections held open at once.
    let maximum: Int
    private let state = Mutex(State())
    private let clock = ContinuousClock()

    /// A limiter of `maximum` connections.
    init(maximum: Int) { self.maximum = max(1, maximum) }

    /// Open connections now.
    var openConnections: Int { state.withLock { $0.entries.count } }

    /// Registers `channel`; returns its ticket, or `nil` when it was refused (closed).
    func admit(_ channel: any Channel) -> Int? {
        let now = clock.now
        let (ticket, evicted) = state.withLock { state -> (Int?, (any Channel)?) in
            var evicted: (any Channel)?
            if state.entries.count >= maximum {
                guard let oldest = Self.evictionCandidate(in: state.entries) else { return (nil, nil) }
                evicted = state.entries[oldest]?.channel
                state.entries.removeValue(forKey: oldest)
            }
            state.next += 1
            state.entries[state.next] = Entry(
                channel: channel, address: channel.remoteAddress?.ipAddress, lastActive: now)
            return (state.next, evicted)
        }
        evicted?.close(promise: nil)
        if ticket == nil { channel.close(promise: nil) }
        return ticket
    }

    /// The connection to shed at the maximum: the longest idle of the address holding the most
    /// connections, else the longest idle of any — in each, one seen trickling first; `nil` when
    /// every one has a request in progress.
    private static func evictionCandidate(in entries: [Int: Entry]) -> Int? {
        let idle = entries.filter { $0.value.requestsInProgress == 0 }
        let oldest = { (candidates: [Int: Entry]) in
            candidates.filter(\.value.trickling).min { $0.value.lastActive < $1.value.lastActive }?.key
                ?? candidates.min { $0.value.lastActive < $1.value.lastActive }?.key
        }
        var counts: [String: Int] = [:]
        for entry in entries.values { if let address = entry.address { counts[address, default: 0] += 1 } }
        if let busiest = counts.max(by: { $0.value < $1.value })?.key,
            let candidate = oldest(idle.filter { $0.value.address == busiest })
        {
            return candidate
        }
        return oldest(idle)
    }

    /// A read of the connection of `ticket` ended; `completedHead` when it completed a request head.
    func readEnded(_ ticket: Int, completedHead: Bool) {
        state.withLock { state in
            guard var entry = state.entries[ticket] else { return }
            entry.trickling = !completedHead && entry.requestsInProgress == 0
            state.entries[ticket] = entry
        }
    }

    /// A request head arrived (`+1`) or a response ended (`-1`) on the connection of `ticket`.
    func requests(_ ticket: Int, change: Int) {
        let now = clock.now
        state.withLock { state in
            guard var entry = state.entries[ticket] else { return }
            entry.requestsInProgress = max(0, entry.requestsInProgress + change)
            entry.lastActive = now
            state.entries[ticket] = entry
        }
    }

    /// The connection of `ticket` closed.
    func remove(_ ticket: Int) {
        state.withLock { _ = $0.entries.removeValue(forKey: ticket) }
    }

    /// The handler that reports one connection to the limiter (a new one per connection).
    func handler() -> any RemovableChannelHandler { ConnectionLimitHandler(limiter: self) }
}

/// Reports its connection's requests to a ``ConnectionLimiter``.
private final class ConnectionLimitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limiter: ConnectionLimiter
    private var ticket: Int?
    /// Whether the read in progress delivered a request head.
    private var headInRead = false

    init(limiter: ConnectionLimiter) { self.limiter = limiter }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard ticket == nil else { return }
        ticket = limiter.admit(context.channel)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let ticket, case .head = unwrapInboundIn(data) {
            headInRead = true
            limiter.requests(ticket, change: 1)
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let ticket { limiter.readEnded(ticket, completedHead: headInRead) }
        headInRead = false
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if let ticket, case .end = unwrapOutboundIn(data) { limiter.requests(ticket, change: -1) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let ticket { limiter.remove(ticket) }
        ticket = nil
        context.fireChannelInactive()
    }
}
