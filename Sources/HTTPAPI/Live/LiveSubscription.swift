import Synchronization

/// One subscriber's queue of live items, read in batches: everything that arrived since the
/// last read comes out at once, so a burst of events (a group of bookings committed together)
/// costs the stream one write and one wake-up instead of one per event.
///
/// Bounded: ``push(_:)`` refuses an item once `capacity` are waiting, and the hub then ends
/// the stream with a reset; ``finish(with:)`` always has room for that final item.
public final class LiveSubscription: AsyncSequence, Sendable {
    public typealias Element = [LiveItem]

    private struct State {
        var items: [LiveItem] = []
        var waiter: CheckedContinuation<[LiveItem]?, Never>?
        var finished = false
        var cancelled = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let onCancel: @Sendable () -> Void

    /// A queue of at most `capacity` waiting items; `onCancel` runs once when the reader goes
    /// away (the client disconnected) so the hub can forget the subscriber.
    init(capacity: Int, onCancel: @escaping @Sendable () -> Void) {
        self.capacity = capacity
        self.onCancel = onCancel
    }

    /// Queues `item`; `false` (and nothing queued) when the queue is full or closed.
    func push(_ item: LiveItem) -> Bool { push(contentsOf: [item]) }

    /// Queues `items` together, so that a reader waiting for them wakes once and writes them
    /// in one go; `false` (and nothing queued) when they do not fit or the queue is closed.
    func push(contentsOf items: [LiveItem]) -> Bool {
        if items.isEmpty { return true }
        let (waiter, accepted) = state.withLock { state -> (CheckedContinuation<[LiveItem]?, Never>?, Bool) in
            guard !state.finished, !state.cancelled, state.items.count + items.count <= capacity else {
                return (nil, false)
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, true)
            }
            state.items += items
            return (nil, true)
        }
        waiter?.resume(returning: items)
        return accepted
    }

    /// Queues the final item and closes the queue; the reader gets what is left, then the end.
    func finish(with last: LiveItem) {
        let waiter = state.withLock { state -> CheckedContinuation<[LiveItem]?, Never>? in
            guard !state.finished else { return nil }
            state.finished = true
            state.items.append(last)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        if let waiter {
            let items = state.withLock { state -> [LiveItem] in
                defer { state.items = [] }
                return state.items
            }
            waiter.resume(returning: items)
        }
    }

    /// Everything queued, waiting for at least one item; `nil` once finished and drained, or
    /// when the reading task is cancelled.
    func next() async -> [LiveItem]? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<[LiveItem]?, Never>) in
                let ready = state.withLock { state -> [LiveItem]?? in
                    if !state.items.isEmpty {
                        defer { state.items = [] }
                        return .some(state.items)
                    }
                    if state.finished || state.cancelled { return .some(nil) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The reader went away: wake it if it waits, and tell the hub once.
    func cancel() {
        let (waiter, first) = state.withLock { state -> (CheckedContinuation<[LiveItem]?, Never>?, Bool) in
            let first = !state.cancelled
            state.cancelled = true
            defer { state.waiter = nil }
            return (state.waiter, first)
        }
        waiter?.resume(returning: nil)
        if first { onCancel() }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let subscription: LiveSubscription
        public mutating func next() async -> [LiveItem]? { await subscription.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(subscription: self) }
}

/// Ends a subscription when the last reader holding it is gone, however it went.
final class ReaderLease: Sendable {
    private let subscription: LiveSubscription

    init(_ subscription: LiveSubscription) { self.subscription = subscription }

    deinit { subscription.cancel() }
}
