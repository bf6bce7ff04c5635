import Foundation
import SharedKernel

/// Sorted, disjoint time intervals (seconds since 1970) with running totals, so the time
/// they cover inside any window is two binary searches rather than a scan. Time series ask
/// this once per bucket, for every clinician and room.
struct IntervalSet: Sendable {
    private(set) var starts: [Double] = []
    private(set) var ends: [Double] = []
    /// `prefix[i]` = total length of intervals `0..<i`.
    private var prefix: [Double] = [0]

    /// The union of `ranges`.
    init(_ ranges: [TimeRange]) {
        let sorted = ranges.map { ($0.start.timeIntervalSince1970, $0.end.timeIntervalSince1970) }
            .filter { $0.0 < $0.1 }
            .sorted { $0.0 < $1.0 }
        for (start, end) in sorted {
            if let last = ends.last, start <= last {
                ends[ends.count - 1] = max(last, end)
            } else {
                starts.append(start)
                ends.append(end)
            }
        }
        prefix.reserveCapacity(starts.count + 1)
        for index in starts.indices { prefix.append(prefix[index] + (ends[index] - starts[index])) }
    }

    /// Total seconds covered.
    var totalSeconds: Double { prefix[prefix.count - 1] }

    /// Seconds covered inside `[from, to)`.
    func seconds(from: Double, to: Double) -> Double {
        guard from < to, !starts.isEmpty else { return 0 }
        // First interval ending after `from`, and first starting at or after `to`.
        let first = Self.firstIndex(in: ends) { $0 > from }
        let last = Self.firstIndex(in: starts) { $0 >= to }
        guard first < last else { return 0 }
        var total = prefix[last] - prefix[first]
        total -= max(0, from - starts[first])
        total -= max(0, ends[last - 1] - to)
        return max(0, total)
    }

    /// Whether `instant` lies inside one of the intervals.
    func contains(_ instant: Double) -> Bool {
        let index = Self.firstIndex(in: starts) { $0 > instant } - 1
        return index >= 0 && instant < ends[index]
    }

    /// First index whose value satisfies `predicate`, which must be false then true along the
    /// sorted array; `values.count` when none does.
    static func firstIndex(in values: [Double], where predicate: (Double) -> Bool) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) / 2
            if predicate(values[mid]) { high = mid } else { low = mid + 1 }
        }
        return low
    }
}
