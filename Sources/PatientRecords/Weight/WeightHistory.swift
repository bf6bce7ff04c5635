import Foundation
import SharedKernel

/// A patient's weighings in chronological order.
///
/// Weighings are never edited in place: a wrong entry is superseded by a new one, so the
/// history also shows what the clinician saw when a dose was computed.
public struct WeightHistory: Codable, Hashable, Sendable {
    /// Oldest first; ties broken by identifier (``WeightMeasurement/chronological(_:_:)``).
    public private(set) var measurements: [WeightMeasurement]

    /// Creates a history from weighings in any order.
    public init(_ measurements: [WeightMeasurement] = []) {
        self.measurements = measurements.sorted(by: WeightMeasurement.chronological)
    }

    /// Adds a weighing in its chronological place.
    public mutating func append(_ measurement: WeightMeasurement) {
        let index =
            measurements.firstIndex { WeightMeasurement.chronological(measurement, $0) } ?? measurements.endIndex
        measurements.insert(measurement, at: index)
    }

    /// The most recent weighing overall.
    public var latest: WeightMeasurement? { measurements.last }

    /// The most recent weighing taken at or before `date`; a weighing recorded with a future
    /// time (a clock slip) must not feed a dose computed now.
    public func latest(asOf date: Date) -> WeightMeasurement? {
        measurements.last { $0.measuredAt <= date }
    }

    /// Newest first, the order a weight chart's table is read in.
    public var newestFirst: [WeightMeasurement] { measurements.reversed() }
}
