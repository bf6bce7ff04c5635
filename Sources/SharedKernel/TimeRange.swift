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

// MARK: - Interval arithmetic

extension TimeRange {
    /// `ranges` sorted by start, overlapping or touching ones merged.
    public static func merged(_ ranges: [TimeRange]) -> [TimeRange] {
        var result: [TimeRange] = []
        for range in ranges.sorted(by: { $0.start < $1.start }) {
            if let last = result.last, range.start <= last.end {
                if range.end > last.end {
                    result[result.count - 1] = TimeRange(start: last.start, end: range.end) ?? last
                }
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// `base` minus `holes`: what remains of each range of `base` (sorted and disjoint) once
    /// every instant of `holes` is taken out.
    public static func subtracting(_ holes: [TimeRange], from base: [TimeRange]) -> [TimeRange] {
        let holes = merged(holes)
        guard !holes.isEmpty else { return base }
        var result: [TimeRange] = []
        for range in base {
            var cursor = range.start
            for hole in holes where hole.end > cursor && hole.start < range.end {
                if let piece = TimeRange(start: cursor, end: hole.start) { result.append(piece) }
                cursor = max(cursor, hole.end)
            }
            if let rest = TimeRange(start: cursor, end: range.end) { result.append(rest) }
        }
        return result
    }
}
