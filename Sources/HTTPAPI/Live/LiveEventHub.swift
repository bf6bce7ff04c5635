import Foundation
import Logging
import PracticeServices
import ServiceLifecycle
import SharedKernel
import StoragePorts
import Synchronization

/// What a live subscriber receives, in order.
public enum LiveItem: Sendable, Equatable {
    /// The stream is open; the practice's log had reached `headSequence` (a client that
    /// asked to resume gets everything after its position before anything newer).
    case ready(headSequence: Int64)
    /// An event of the practice the subscriber may see, with its stream frame.
    case event(LiveEventFrame)
    /// Nothing happened for a while; proxies and the client know the stream is alive.
    case heartbeat
    /// The stream ends here: the client must reload (`reset`) or sign in again.
    case ended(LiveStreamEnd)
}

/// An event and its `text/event-stream` frame, encoded once however many subscribers get it.
public struct LiveEventFrame: Sendable, Equatable {
    /// The event.
    public let event: DomainEvent
    /// `id:`, `event:` and `data:` lines of the frame.
    let bytes: ArraySlice<UInt8>

    init(_ event: DomainEvent) {
        self.event = event
        bytes = ServerSentEventStream.frame(
            id: event.sequence, event: event.kind, data: ServerSentEventStream.json(event))
    }

    public static func == (lhs: LiveEventFrame, rhs: LiveEventFrame) -> Bool { lhs.event == rhs.event }
}

extension LiveItem {
    /// The event frame of an `.event` item.
    var frame: LiveEventFrame? {
        if case .event(let frame) = self { return frame }
        return nil
    }
}

/// Why a live stream ended.
public enum LiveStreamEnd: Sendable, Equatable {
    /// The client's position can no longer be continued (pruned, unknown, or the client
    /// fell too far behind): reload everything, then stream from the new head.
    case reset(reason: String, headSequence: Int64)
    /// The session was signed out, revoked or expired.
    case sessionEnded
    /// The server is shutting down; reconnect with the last id seen.
    case shutdown
}

/// Fans a practice's durable event log out to its live subscribers (Server-Sent Events).
///
/// One reader per practice: when a transaction appending events commits (the store's
/// ``EventCommitSignal``), or at the latest every `pollInterval` (events written by another
/// process on the same store), the practice's reader fetches what follows its cursor once and
/// hands each event to every subscriber, so the store sees one query per burst of changes
/// however many devices listen. Each subscriber has a bounded buffer: a client that stops
/// reading is cut off with a `reset` instead of holding memory without limit.
///
/// With a database shared by several instances (PostgreSQL), the commit signal is the
/// database's `LISTEN/NOTIFY` instead of an in-process callback; the sequence lives in the
/// database, so every instance streams the same numbers (docs/live-updates.md).
public final class LiveEventHub: Sendable {
    /// Tuning; the defaults are the production values.
    public struct Configuration: Sendable {
        /// Items a subscriber may have waiting before it is cut off with a reset.
        public var subscriberBuffer = 1024
        /// Live streams one staff account may hold open at once (a device or two per person,
        /// and tabs); one more is refused (429) rather than let one caller hold hundreds.
        public var maxStreamsPerUser = 8
        /// How often each practice's log is checked without a commit signal.
        public var pollInterval: Duration = .seconds(1)
        /// How often an idle stream gets a heartbeat comment.
        public var heartbeatInterval: Duration = .seconds(15)
        /// Events read from the store at once.
        public var pageSize = 500
        /// A resuming client further behind than this reloads instead of replaying.
        public var maxReplay: Int64 = 10_000
        /// How long a woken reader waits before reading, so the commits of a busy moment go
        /// out together: each subscriber then gets one write for the lot instead of one per
        /// event, which is most of what a delivery costs.
        public var coalescingWindow: Duration = .milliseconds(50)

        /// The production configuration.
        public init() {}
    }

    /// One subscriber's filter and buffer.
    private struct Subscriber {
        let subscription: LiveSubscription
        let role: Role
        let kinds: Set<String>?
        let tokenHash: String
        let userID: UserID
        /// Events that arrived while the subscriber was still replaying its backlog (`nil`
        /// once it is live).
        var pending: [LiveEventFrame]?

        func wants(_ event: DomainEvent) -> Bool {
            event.isVisible(to: role) && (kinds?.contains(event.kind) ?? true)
        }

        /// What decides which events the subscriber gets.
        struct Filter: Hashable {
            let role: Role
            let kinds: Set<String>?
        }

        var filter: Filter { Filter(role: role, kinds: kinds) }
    }

    /// One practice's subscribers and the position of its reader.
    private struct Channel {
        var cursor: Int64
        var subscribers: [UUID: Subscriber] = [:]
        var reading = false
        var readAgain = false
    }

    private let store: any EventLogRepository
    private let configuration: Configuration
    private let logger: Logger
    private let channels = Mutex<[PracticeID: Channel]>([:])
    private let signalToken = Mutex<UUID?>(nil)

    /// Creates the hub over `store`'s event log and starts listening to its commits.
    public init(
        store: any EventLogRepository, configuration: Configuration = Configuration(),
        logger: Logger = Logger(label: "vetnet.live")
    ) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        let token = store.eventCommits.observe { [weak self] practiceID in self?.wake(practiceID) }
        signalToken.withLock { $0 = token }
    }

    deinit {
        if let token = signalToken.withLock({ $0 }) { store.eventCommits.removeObserver(token) }
    }

    // MARK: - Subscribing

    /// Opens a live stream of `practiceID`'s events that `role` may see (of `kinds` only, when
    /// given). With `after`, every event following that position comes first, exactly once
    /// and in order — across restarts, since the log is durable — or a reset when the
    /// position is pruned, unknown or too far behind.
    public func subscribe(
        practiceID: PracticeID, role: Role, userID: UserID, tokenHash: String, kinds: Set<String>? = nil,
        after position: Int64? = nil
    ) async throws -> LiveSubscription {
        let head = try await store.eventHead(practiceID: practiceID)
        let id = UUID()
        let subscription = LiveSubscription(capacity: configuration.subscriberBuffer) { [weak self] in
            self?.remove(id, from: practiceID)
        }
        let limit = configuration.maxStreamsPerUser
        // A stream whose client went away is noticed at the latest at its next heartbeat.
        let retry = Int(configuration.heartbeatInterval.components.seconds) + 1
        let start = try channels.withLock { channels throws(ServiceRefusal) -> Int64 in
            var channel = channels[practiceID] ?? Channel(cursor: head)
            if channel.subscribers.values.count(where: { $0.userID == userID }) >= limit {
                throw ServiceRefusal.busy(
                    detail:
                        "This account already has \(limit) live streams open; close one (another tab or device) first.",
                    retryAfterSeconds: retry)
            }
            channel.subscribers[id] = Subscriber(
                subscription: subscription, role: role, kinds: kinds, tokenHash: tokenHash, userID: userID,
                pending: position == nil ? nil : [])
            channels[practiceID] = channel
            return channel.cursor
        }
        _ = subscription.push(.ready(headSequence: start))
        if let position {
            await replay(subscriber: id, practiceID: practiceID, after: position, through: start)
        }
        // A commit between reading the head and joining the channel is picked up now.
        wake(practiceID)
        return subscription
    }

    /// Ends every stream of the session whose token hashes to `tokenHash` (sign-out).
    public func endSession(tokenHash: String) {
        end(where: { $0.tokenHash == tokenHash }, reason: .sessionEnded)
    }

    /// Ends every stream of `userID` (account disabled or its role changed: the stream was
    /// filtered for the old role).
    public func endSessions(userID: UserID) {
        end(where: { $0.userID == userID }, reason: .sessionEnded)
    }

    /// Live subscribers of `practiceID` (diagnostics and tests).
    public func subscriberCount(practiceID: PracticeID) -> Int {
        channels.withLock { $0[practiceID]?.subscribers.count ?? 0 }
    }

    // MARK: - Reading the log

    /// Asks the practice's reader to look at the log; starts it when it is idle.
    func wake(_ practiceID: PracticeID) {
        let start = channels.withLock { channels -> Bool in
            guard var channel = channels[practiceID], !channel.subscribers.isEmpty else { return false }
            defer { channels[practiceID] = channel }
            if channel.reading {
                channel.readAgain = true
                return false
            }
            channel.reading = true
            return true
        }
        if start { Task { await self.read(practiceID) } }
    }

    /// The practice's reader: fetches what follows its cursor and delivers it, until caught up.
    private func read(_ practiceID: PracticeID) async {
        var caughtUp = true
        while true {
            if caughtUp, configuration.coalescingWindow > .zero {
                try? await Task.sleep(for: configuration.coalescingWindow)
            }
            guard
                let cursor = channels.withLock({ channels -> Int64? in
                    channels[practiceID]?.readAgain = false
                    return channels[practiceID]?.cursor
                })
            else { return }
            let page: EventLogPage
            do {
                page = try await store.events(practiceID: practiceID, after: cursor, limit: configuration.pageSize)
            } catch {
                // The next poll tries again; subscribers keep their place.
                logger.error(
                    "reading the event log failed", metadata: ["practice": "\(practiceID)", "error": "\(error)"])
                channels.withLock { $0[practiceID]?.reading = false }
                return
            }
            var closing: [Closing] = []
            // Encoded here, outside the lock, once for every subscriber.
            let frames = page.events.map(LiveEventFrame.init)
            let again = channels.withLock { channels -> Bool in
                guard var channel = channels[practiceID] else { return false }
                defer { channels[practiceID] = channel }
                let cursor = channel.cursor
                let fresh = frames.filter { $0.event.sequence > cursor }
                // Each subscriber gets the whole page's events it may see in one push, so its
                // stream wakes once and writes them in one go; subscribers with the same filter
                // (most of a practice: a few roles) share one list.
                var wantedBy: [Subscriber.Filter: [LiveItem]] = [:]
                for (id, subscriber) in channel.subscribers {
                    let wanted: [LiveItem]
                    if let known = wantedBy[subscriber.filter] {
                        wanted = known
                    } else {
                        wanted = fresh.filter { subscriber.wants($0.event) }.map(LiveItem.event)
                        wantedBy[subscriber.filter] = wanted
                    }
                    if wanted.isEmpty { continue }
                    let accepted: Bool
                    if subscriber.pending != nil {
                        channel.subscribers[id]?.pending?.append(contentsOf: wanted.compactMap(\.frame))
                        accepted = (channel.subscribers[id]?.pending?.count ?? 0) <= configuration.subscriberBuffer
                    } else {
                        accepted = subscriber.subscription.push(contentsOf: wanted)
                    }
                    if !accepted {
                        finish(
                            &channel, id,
                            .reset(
                                reason: "The client fell behind the practice's changes.",
                                headSequence: page.headSequence),
                            into: &closing)
                    }
                }
                channel.cursor = fresh.last?.event.sequence ?? cursor
                let more = page.hasMore || channel.readAgain
                if !more || channel.subscribers.isEmpty { channel.reading = false }
                return more && !channel.subscribers.isEmpty
            }
            // The last subscriber left while this read ran: forget the channel, so the next
            // one starts from the head rather than from this stale position.
            channels.withLock { channels in
                if channels[practiceID]?.subscribers.isEmpty == true, channels[practiceID]?.reading == false {
                    channels[practiceID] = nil
                }
            }
            close(closing)
            if !again { return }
            caughtUp = !page.hasMore
        }
    }

    /// Sends the backlog after `position` up to `target` (where live delivery began), then
    /// whatever arrived meanwhile, and makes the subscriber live.
    private func replay(subscriber id: UUID, practiceID: PracticeID, after position: Int64, through target: Int64) async
    {
        var cursor = position
        var resetReason: String?
        do {
            if target - position > configuration.maxReplay {
                resetReason = "More changes happened since then than a stream replays."
            }
            while resetReason == nil, cursor < target {
                let page = try await store.events(practiceID: practiceID, after: cursor, limit: configuration.pageSize)
                if cursor == position, page.mustReset(after: position) {
                    resetReason =
                        position > page.headSequence
                        ? "The log never reached that position." : "Changes since then are no longer kept."
                    break
                }
                let subscriber = channels.withLock { $0[practiceID]?.subscribers[id] }
                guard let subscriber else { return }
                for event in page.events where event.sequence <= target {
                    if subscriber.wants(event), !deliver(.event(LiveEventFrame(event)), to: subscriber) {
                        resetReason = "The client fell behind the practice's changes."
                        break
                    }
                    cursor = event.sequence
                }
                if page.events.isEmpty { break }
            }
            if resetReason == nil, position > target {
                resetReason = "The log never reached that position."
            }
        } catch {
            logger.error(
                "replaying the event log failed", metadata: ["practice": "\(practiceID)", "error": "\(error)"])
            resetReason = "The changes could not be read."
        }
        let closing = channels.withLock { channels -> [Closing] in
            var closing: [Closing] = []
            guard var channel = channels[practiceID], let subscriber = channel.subscribers[id] else { return closing }
            defer { channels[practiceID] = channel }
            if let resetReason {
                finish(&channel, id, .reset(reason: resetReason, headSequence: channel.cursor), into: &closing)
                return closing
            }
            if !subscriber.subscription.push(contentsOf: (subscriber.pending ?? []).map(LiveItem.event)) {
                finish(
                    &channel, id,
                    .reset(reason: "The client fell behind the practice's changes.", headSequence: channel.cursor),
                    into: &closing)
                return closing
            }
            channel.subscribers[id]?.pending = nil
            return closing
        }
        close(closing)
    }

    // MARK: - Delivery

    /// Queues `item`; `false` when the subscriber's queue is full (the stream must then be
    /// closed with a reset).
    private func deliver(_ item: LiveItem, to subscriber: Subscriber) -> Bool {
        subscriber.subscription.push(item)
    }

    /// A stream to close once the lock is released: finishing a stream runs its termination
    /// handler, which takes the lock to remove the subscriber.
    private typealias Closing = (subscription: LiveSubscription, reason: LiveStreamEnd)

    /// Removes the subscriber and notes its stream for ``close(_:)``.
    private func finish(_ channel: inout Channel, _ id: UUID, _ reason: LiveStreamEnd, into closing: inout [Closing]) {
        guard let subscriber = channel.subscribers.removeValue(forKey: id) else { return }
        closing.append((subscriber.subscription, reason))
    }

    /// Sends each stream its final item and closes it (outside the lock).
    private func close(_ closing: [Closing]) {
        for (subscription, reason) in closing { subscription.finish(with: .ended(reason)) }
    }

    private func end(where matches: (Subscriber) -> Bool, reason: LiveStreamEnd) {
        let closing = channels.withLock { channels -> [Closing] in
            var closing: [Closing] = []
            for (practiceID, var channel) in channels {
                for (id, subscriber) in channel.subscribers where matches(subscriber) {
                    finish(&channel, id, reason, into: &closing)
                }
                channels[practiceID] = channel
            }
            return closing
        }
        close(closing)
    }

    private func remove(_ id: UUID, from practiceID: PracticeID) {
        channels.withLock { channels in
            channels[practiceID]?.subscribers[id] = nil
            if channels[practiceID]?.subscribers.isEmpty == true, channels[practiceID]?.reading == false {
                channels[practiceID] = nil
            }
        }
    }

    // MARK: - Background work

    /// Polls every practice with subscribers (changes written by another process) and sends
    /// heartbeats, until cancelled; then ends every stream so clients reconnect elsewhere.
    public func run() async {
        var sinceHeartbeat: Duration = .zero
        while !Task.isCancelled {
            do { try await Task.sleep(for: configuration.pollInterval) } catch { break }
            sinceHeartbeat += configuration.pollInterval
            let practices = channels.withLock { Array($0.keys) }
            for practiceID in practices { wake(practiceID) }
            if sinceHeartbeat >= configuration.heartbeatInterval {
                sinceHeartbeat = .zero
                let closing = channels.withLock { channels -> [Closing] in
                    var closing: [Closing] = []
                    for (practiceID, var channel) in channels {
                        for (id, subscriber) in channel.subscribers
                        where subscriber.pending == nil && !deliver(.heartbeat, to: subscriber) {
                            finish(
                                &channel, id,
                                .reset(reason: "The client stopped reading.", headSequence: channel.cursor),
                                into: &closing)
                        }
                        channels[practiceID] = channel
                    }
                    return closing
                }
                close(closing)
            }
        }
        end(where: { _ in true }, reason: .shutdown)
    }
}

/// Runs the hub's polling and heartbeats for the life of the server.
struct LiveEventService: Service {
    let hub: LiveEventHub

    func run() async throws {
        // Its loop only ends when cancelled; on the way out it ends every stream.
        await cancelWhenGracefulShutdown { await hub.run() }
        hub.endAll()
    }
}

extension LiveEventHub {
    /// Ends every stream (server shutdown): clients reconnect with their last id.
    func endAll() {
        end(where: { _ in true }, reason: .shutdown)
    }
}
