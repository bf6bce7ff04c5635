import Foundation
import ServiceLifecycle
import SharedKernel

/// The bytes of a live stream in the `text/event-stream` format: each ``LiveItem`` becomes
/// one frame (`id:`, `event:`, `data:`), a heartbeat a comment line; the items that were
/// waiting together go out in one write. At each heartbeat the session is checked (without
/// counting as activity), so a revoked or expired session's stream ends within one heartbeat
/// even when it was ended on another instance.
struct ServerSentEventStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    /// The subscriber's items from ``LiveEventHub``.
    let items: LiveSubscription
    /// Whether the session behind the stream is still live.
    let sessionIsActive: @Sendable () async -> Bool

    /// How long a browser waits before reconnecting after the stream drops.
    static let retryMilliseconds = 2000

    struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: LiveSubscription
        /// Tells the hub the reader is gone when the iterator is dropped — the client closed the
        /// connection and a write failed, which ends the iteration without cancelling it — so
        /// the stream's place (the account's stream cap) is free at once.
        let lease: ReaderLease
        var items: LiveSubscription.AsyncIterator
        let sessionIsActive: @Sendable () async -> Bool
        var finished = false

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard !finished else { return nil }
            // A stream never ends on its own, and the server drains open requests before it
            // stops: when shutdown begins, the stream ends at once (clients reconnect).
            let subscription = self.subscription
            var items = self.items
            let next = await withGracefulShutdownHandler {
                await items.next()
            } onGracefulShutdown: {
                subscription.finish(with: .ended(.shutdown))
            }
            self.items = items
            guard let batch = next else { return nil }
            var bytes = ArraySlice<UInt8>()
            for item in batch {
                switch item {
                case .ready(let head):
                    bytes += ServerSentEventStream.frame(
                        id: nil, event: EventStreamKind.ready,
                        data: #"{"headSequence":\#(head),"kinds":\#(LiveEventKinds.json)}"#,
                        retry: ServerSentEventStream.retryMilliseconds)
                case .event(let frame):
                    bytes += frame.bytes
                case .heartbeat:
                    if await sessionIsActive() {
                        bytes += ": heartbeat\n\n".utf8
                    } else {
                        finished = true
                        return bytes + ServerSentEventStream.end(.sessionEnded)
                    }
                case .ended(let reason):
                    finished = true
                    return bytes + ServerSentEventStream.end(reason)
                }
            }
            return bytes
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            subscription: items, lease: ReaderLease(items), items: items.makeAsyncIterator(),
            sessionIsActive: sessionIsActive)
    }

    /// The final frame for `reason`.
    static func end(_ reason: LiveStreamEnd) -> ArraySlice<UInt8> {
        switch reason {
        case .reset(let why, let head):
            let data =
                (try? encoder.encode(Components.Schemas.StreamReset(reason: why, headSequence: head))).map {
                    String(decoding: $0, as: UTF8.self)
                } ?? "{}"
            return frame(id: nil, event: EventStreamKind.reset, data: data)
        case .sessionEnded:
            return frame(
                id: nil, event: EventStreamKind.sessionEnded, data: #"{"reason":"The session ended; sign in again."}"#)
        case .shutdown:
            return frame(
                id: nil, event: EventStreamKind.shutdown,
                data: #"{"reason":"The server is restarting; reconnect with the last id."}"#)
        }
    }

    /// One frame. `data` is single-line JSON, so it needs one `data:` line.
    static func frame(id: Int64?, event: String, data: String, retry: Int? = nil) -> ArraySlice<UInt8> {
        var text = ""
        if let retry { text += "retry: \(retry)\n" }
        if let id { text += "id: \(id)\n" }
        text += "event: \(event)\ndata: \(data)\n\n"
        return ArraySlice(text.utf8)
    }

    /// The event as the `LiveEvent` schema, on one line.
    static func json(_ event: DomainEvent) -> String {
        (try? encoder.encode(Components.Schemas.LiveEvent(event))).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        }
        return encoder
    }()
}

extension Components.Schemas.LiveEvent {
    /// The wire form of a logged event.
    init(_ event: DomainEvent) {
        self.init(
            sequence: event.sequence, kind: event.kind, occurredAt: event.occurredAt, resourceType: event.resourceType,
            resourceId: event.resourceID, actorId: event.actorID, payload: .init(additionalProperties: event.payload))
    }
}
