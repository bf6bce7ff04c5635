import Foundation

/// Something that happened in a practice, published in-process so that the ER board,
/// analytics and the live stream can follow without the publisher knowing them.
public struct DomainEvent: Codable, Hashable, Sendable {
    /// Monotonic sequence within the process; the live stream uses it as the event id.
    public var sequence: Int
    /// The practice the event belongs to; subscribers only ever see their own practice.
    public var practiceID: PracticeID
    /// Dotted event kind, e.g. `appointment.booked`, `triage.queue_changed`.
    public var kind: String
    /// When it happened.
    public var occurredAt: Date
    /// The resource concerned.
    public var resourceID: String?
    /// Small JSON-compatible payload (no medical detail beyond what the board shows).
    public var payload: [String: String]

    /// Creates an event; the bus assigns the sequence.
    public init(practiceID: PracticeID, kind: String, occurredAt: Date, resourceID: String? = nil, payload: [String: String] = [:]) {
        self.sequence = 0
        self.practiceID = practiceID
        self.kind = kind
        self.occurredAt = occurredAt
        self.resourceID = resourceID
        self.payload = payload
    }
}

/// An in-process publish/subscribe hub for ``DomainEvent``s with a bounded replay buffer,
/// so a subscriber that reconnects with the last id it saw misses nothing still retained.
public actor EventBus {
    private var nextSequence = 1
    private var retained: [DomainEvent] = []
    private let retention: Int
    private var subscribers: [UUID: (PracticeID, AsyncStream<DomainEvent>.Continuation)] = [:]

    /// Creates a bus that keeps the last `retention` events for replay.
    public init(retention: Int = 1000) { self.retention = retention }

    /// Publishes an event to every subscriber of its practice and returns it with its sequence.
    @discardableResult
    public func publish(_ event: DomainEvent) -> DomainEvent {
        var event = event
        event.sequence = nextSequence
        nextSequence += 1
        retained.append(event)
        if retained.count > retention { retained.removeFirst(retained.count - retention) }
        for (_, (practice, continuation)) in subscribers where practice == event.practiceID {
            continuation.yield(event)
        }
        return event
    }

    /// Subscribes to one practice's events, first replaying retained events after `lastSequence`.
    public func subscribe(practiceID: PracticeID, after lastSequence: Int? = nil) -> AsyncStream<DomainEvent> {
        let (stream, continuation) = AsyncStream<DomainEvent>.makeStream(bufferingPolicy: .bufferingNewest(retention))
        if let lastSequence {
            for event in retained where event.practiceID == practiceID && event.sequence > lastSequence {
                continuation.yield(event)
            }
        }
        let token = UUID()
        subscribers[token] = (practiceID, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(token) }
        }
        return stream
    }

    private func unsubscribe(_ token: UUID) { subscribers[token] = nil }

    /// Events retained for a practice, oldest first (for tests and diagnostics).
    public func retainedEvents(practiceID: PracticeID) -> [DomainEvent] {
        retained.filter { $0.practiceID == practiceID }
    }
}
