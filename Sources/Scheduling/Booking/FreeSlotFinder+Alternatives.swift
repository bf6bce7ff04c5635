import Foundation
import SharedKernel

// MARK: - Nearest alternatives (for 409 answers)

/// The free slots closest to a requested start that could not be booked.
public struct NearestAlternatives: Hashable, Codable, Sendable {
    /// The start that was asked for.
    public var requested: Date
    /// Whether the requested start is itself free (the refusal came from elsewhere, e.g. a race in the store).
    public var requestedIsFree: Bool
    /// The latest free slot starting before the requested start, if any in the search window.
    public var before: FreeSlot?
    /// The earliest free slot starting after the requested start, if any in the search window.
    public var after: FreeSlot?

    /// Creates an answer.
    public init(requested: Date, requestedIsFree: Bool, before: FreeSlot?, after: FreeSlot?) {
        self.requested = requested
        self.requestedIsFree = requestedIsFree
        self.before = before
        self.after = after
    }
}

extension FreeSlotFinder {
    /// The nearest free slots before and after `requested` for the same kind of appointment
    /// (and the same clinician, if the query names one), looking `searchDays` days either side.
    ///
    /// - Parameters:
    ///   - query: describes the appointment; its `range` and `limit` are replaced by the search window.
    ///   - notBefore: earliest start worth offering (usually now), so the "before" answer is never in the past.
    public func nearestAlternatives(
        to requested: Date, for query: SlotQuery, notBefore: Date? = nil,
        searchDays: Int = 7
    ) throws(ValidationError) -> NearestAlternatives {
        guard (1...31).contains(searchDays) else {
            throw ValidationError(field: "searchDays", message: "must be 1 to 31")
        }
        let span = TimeInterval(searchDays * 86_400)
        let lower = max(requested.addingTimeInterval(-span), notBefore ?? .distantPast)
        var window = query
        window.limit = nil
        var before: FreeSlot?
        var after: FreeSlot?
        var exact = false

        if let range = TimeRange(start: lower, end: requested) {
            window.range = range
            let earlier = try slots(for: window)
            // Several clinicians may share the latest start; take the first listed, as for `after`.
            before = earlier.last.flatMap { last in earlier.first { $0.start == last.start } }
        }
        if let range = TimeRange(start: requested, end: requested.addingTimeInterval(span)) {
            window.range = range
            // Slots come earliest first, so the first one past the requested start is the answer.
            for slot in try slots(for: window) {
                if slot.start == requested {
                    exact = true
                } else {
                    after = slot
                    break
                }
            }
        }
        return NearestAlternatives(requested: requested, requestedIsFree: exact, before: before, after: after)
    }

    /// Whether `start` is offered as a slot for `query` (with the query's clinician if it names one).
    public func isFree(_ start: Date, for query: SlotQuery) throws(ValidationError) -> Bool {
        var window = query
        window.limit = nil
        // An instant so far out that adding a second does not change it has no one-second window.
        guard let range = TimeRange(start: start, end: start.addingTimeInterval(1)) else {
            throw ValidationError(field: "start", message: "must be a date in the years 1 to 9999")
        }
        window.range = range
        return try slots(for: window).contains { $0.start == start }
    }
}
