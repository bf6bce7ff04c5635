import Foundation
import SharedKernel

/// A half-open interval of whole seconds since 1970, `[start, end)`.
///
/// The free-slot finder converts every `Date` once and then works only on sorted arrays of
/// these, so its inner loops are integer comparisons rather than Foundation date math.
struct SecondRange: Hashable, Sendable {
    var start: Int64
    var end: Int64

    /// The seconds inside `range`, rounded inwards so a fractional edge never widens free time.
    static func inner(_ range: TimeRange) -> SecondRange {
        SecondRange(
            start: Int64(range.start.timeIntervalSince1970.rounded(.up)),
            end: Int64(range.end.timeIntervalSince1970.rounded(.down)))
    }

    /// The seconds touched by `range`, rounded outwards so a fractional edge never shrinks busy time.
    static func outer(_ range: TimeRange) -> SecondRange {
        SecondRange(
            start: Int64(range.start.timeIntervalSince1970.rounded(.down)),
            end: Int64(range.end.timeIntervalSince1970.rounded(.up)))
    }

    /// Sorted by start, overlapping or touching intervals merged, empty ones dropped.
    static func normalized(_ ranges: [SecondRange]) -> [SecondRange] {
        var result: [SecondRange] = []
        result.reserveCapacity(ranges.count)
        for range in ranges.sorted(by: { $0.start < $1.start }) where range.start < range.end {
            if let last = result.last, range.start <= last.end {
                result[result.count - 1].end = max(last.end, range.end)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Intersection of two sorted lists of disjoint intervals (touching allowed).
    static func intersect(_ a: [SecondRange], _ b: [SecondRange]) -> [SecondRange] {
        var result: [SecondRange] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            let start = max(a[i].start, b[j].start)
            let end = min(a[i].end, b[j].end)
            if start < end { result.append(SecondRange(start: start, end: end)) }
            if a[i].end < b[j].end { i += 1 } else { j += 1 }
        }
        return result
    }

    /// `base` minus `holes`; `base` sorted and disjoint, `holes` normalized.
    static func subtract(_ holes: [SecondRange], from base: [SecondRange]) -> [SecondRange] {
        guard !holes.isEmpty else { return base }
        var result: [SecondRange] = []
        var first = 0
        for range in base {
            // Holes are merged, so their ends are sorted too: skip those wholly before this range.
            while first < holes.count, holes[first].end <= range.start { first += 1 }
            var cursor = range.start
            var k = first
            while k < holes.count, holes[k].start < range.end {
                if holes[k].start > cursor { result.append(SecondRange(start: cursor, end: holes[k].start)) }
                cursor = max(cursor, holes[k].end)
                k += 1
            }
            if cursor < range.end { result.append(SecondRange(start: cursor, end: range.end)) }
        }
        return result
    }

    /// Index of the last element of sorted `values` that is `<= value`, or -1.
    static func lastIndex(in values: [Int64], notAfter value: Int64) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low - 1
    }
}
