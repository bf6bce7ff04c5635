import Foundation
import SharedKernel
import Synchronization

/// A stretch of one practice's event log, oldest first.
public struct EventLogPage: Sendable, Equatable {
    /// Creates a page.
    public init(events: [DomainEvent], headSequence: Int64, prunedThrough: Int64) {
        self.events = events
        self.headSequence = headSequence
        self.prunedThrough = prunedThrough
    }

    /// The events after the requested position, at most the requested number.
    public let events: [DomainEvent]
    /// The practice's latest sequence number when the page was read.
    public let headSequence: Int64
    /// Events numbered up to this one have been pruned: a client resuming from below it has
    /// missed events and must reload.
    public let prunedThrough: Int64

    /// Whether the log holds events after the last one of this page.
    public var hasMore: Bool { (events.last?.sequence ?? headSequence) < headSequence }

    /// Whether resuming after `position` lost events to pruning, or names a position the log
    /// never reached (a store restored from an older backup): either way, reload.
    public func mustReset(after position: Int64) -> Bool {
        position < prunedThrough || position > headSequence
    }
}

/// Calls its observers after a transaction that appended events has committed, with the
/// practices concerned. It only says "look again": observers read the log itself, so a hint
/// for a savepoint that later rolled back costs one empty read and loses nothing.
public final class EventCommitSignal: Sendable {
    private let observers = Mutex<[UUID: @Sendable (PracticeID) -> Void]>([:])

    /// Creates a signal with no observers (each store owns one).
    package init() {}

    /// Registers `observer`; keep the token to remove it.
    public func observe(_ observer: @escaping @Sendable (PracticeID) -> Void) -> UUID {
        let token = UUID()
        observers.withLock { $0[token] = observer }
        return token
    }

    /// Stops calling the observer registered under `token`.
    public func removeObserver(_ token: UUID) {
        _ = observers.withLock { $0.removeValue(forKey: token) }
    }

    /// Calls every observer with `practiceID`.
    package func notify(_ practiceID: PracticeID) {
        for observer in observers.withLock({ Array($0.values) }) { observer(practiceID) }
    }
}

extension DomainEvent {
    /// An event of `practiceID` as a store keeps it: its payload is JSON text, an object of
    /// strings (refused naming `event_log.payload` otherwise), and its kind of resource is kept
    /// as stored — an event written by another version may name one this version does not.
    public static func stored(
        practiceID: PracticeID, sequence: Int64, kind: String, occurredAtMilliseconds: Int64, resourceType: String?,
        resourceID: String?, actorID: String?, payload: String
    ) throws -> DomainEvent {
        guard let payload = try? JSONDecoder().decode([String: String].self, from: Data(payload.utf8)) else {
            throw StoreCorruption(column: "event_log.payload", reason: "not a JSON object of strings")
        }
        var event = DomainEvent(
            practiceID: practiceID, kind: kind, occurredAt: Timestamp.date(milliseconds: occurredAtMilliseconds),
            resourceID: resourceID, actorID: actorID, payload: payload)
        event.resourceType = resourceType ?? event.resourceType
        event.sequence = sequence
        return event
    }
}
