import Foundation

/// A half-open interval of time `[start, end)`.
///
/// Half-open so that an appointment ending at 10:00 and one starting at 10:00 do not overlap.
public struct TimeRange: Hashable, Codable, Sendable {
    /// Inclusive start.
    public let start: Date
    /// Exclusive end.
    public let end: Date

    /// Creates a range; `nil` unless `start < end`.
    public init?(start: Date, end: Date) {
        guard start < end else { return nil }
        self.start = start
        self.end = end
    }

    /// Length in seconds.
    public var duration: TimeInterval { end.timeIntervalSince(start) }

    /// Whether the two ranges share any instant.
    public func overlaps(_ other: TimeRange) -> Bool { start < other.end && other.start < end }

    /// Whether `date` lies inside the range.
    public func contains(_ date: Date) -> Bool { start <= date && date < end }

    /// Whether `other` lies entirely inside this range.
    public func contains(_ other: TimeRange) -> Bool { start <= other.start && other.end <= end }
}
