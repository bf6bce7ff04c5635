import Foundation

/// Percentiles by the **nearest-rank** method.
///
/// The p-th percentile of n values (0 < p ≤ 100) is the value at rank `⌈p/100 × n⌉` (1-based)
/// in ascending order: the smallest observed value such that at least p % of the values are
/// at or below it. It is always a value that actually occurred ("90 % of orange patients were
/// seen within 14 min" names a real wait), needs no interpolation rule, and the median is
/// the 50th percentile — for an even count, the lower of the two middle values.
///
/// Found by selection rather than a full sort, so a percentile of n values costs O(n).
public enum Percentile {
    /// The `p`-th percentile of `values` (any order); `nil` when there are no values or `p`
    /// is outside (0, 100].
    public static func nearestRank(_ p: Double, of values: [Double]) -> Double? {
        guard !values.isEmpty, p > 0, p <= 100 else { return nil }
        let rank = min(values.count, max(1, Int((p / 100 * Double(values.count)).rounded(.up))))
        var work = values
        return select(rank - 1, in: &work)
    }

    /// The median (nearest-rank 50th percentile) of `values`.
    public static func median(_ values: [Double]) -> Double? { nearestRank(50, of: values) }

    /// The element that would be at `index` if `values` were sorted (Hoare's quickselect,
    /// median-of-three pivot); reorders `values`.
    static func select(_ index: Int, in values: inout [Double]) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let mid = low + (high - low) / 2
            // Median of three as pivot keeps sorted and reverse-sorted input linear.
            if values[mid] < values[low] { values.swapAt(mid, low) }
            if values[high] < values[low] { values.swapAt(high, low) }
            if values[high] < values[mid] { values.swapAt(high, mid) }
            let pivot = values[mid]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while pivot < values[j] { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if index <= j { high = j } else if index >= i { low = i } else { return values[index] }
        }
        return values[index]
    }
}
