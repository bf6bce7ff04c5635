import Analytics
import Foundation
import SharedKernel

/// The stretches a ``HistoryWindow`` loads, in the milliseconds both stores keep, so that a
/// row written since a read is judged in or out exactly as the read judged it, by either
/// store: appointments start in a stretch (some stretches load completed ones only), arrivals
/// arrive in one. Each range includes its start and excludes its end.
public struct HistoryWindowBounds: Sendable {
    /// Where each appointment stretch starts.
    public private(set) var starts: [Int64] = []
    /// Where each appointment stretch ends.
    public private(set) var ends: [Int64] = []
    /// Whether each appointment stretch loads completed appointments only.
    public private(set) var completedOnly: [Bool] = []
    /// Where each arrival stretch starts.
    public private(set) var arrivalStarts: [Int64] = []
    /// Where each arrival stretch ends.
    public private(set) var arrivalEnds: [Int64] = []

    /// The bounds of what `window` loads.
    public init(_ window: HistoryWindow) {
        for stretch in window.appointmentStretches {
            starts.append(Timestamp.milliseconds(stretch.range.start))
            ends.append(Timestamp.milliseconds(stretch.range.end))
            completedOnly.append(stretch.completedOnly)
        }
        for range in window.arrivalRanges {
            arrivalStarts.append(Timestamp.milliseconds(range.start))
            arrivalEnds.append(Timestamp.milliseconds(range.end))
        }
    }

    /// The appointment stretches, one by one.
    public var stretches: [(start: Int64, end: Int64, completedOnly: Bool)] {
        starts.indices.map { (starts[$0], ends[$0], completedOnly[$0]) }
    }

    /// Whether the read loads an appointment starting at `startMs`.
    public func appointment(startMs: Int64, completed: Bool) -> Bool {
        starts.indices.contains { startMs >= starts[$0] && startMs < ends[$0] && (completed || !completedOnly[$0]) }
    }

    /// Whether the read loads an arrival at `atMs`.
    public func arrival(atMs: Int64) -> Bool {
        arrivalStarts.indices.contains { atMs >= arrivalStarts[$0] && atMs < arrivalEnds[$0] }
    }
}
