import Foundation

/// Counts of what ``VetNetStore/bulkLoadHistory(appointments:arrivals:weights:scope:progress:)`` wrote.
public struct HistoryLoadSummary: Sendable, Equatable {
    /// Appointments written.
    public let appointments: Int
    /// Triage arrivals written.
    public let arrivals: Int
    /// Weighings written.
    public let weights: Int

    /// Creates the value from its parts.
    public init(appointments: Int, arrivals: Int, weights: Int) {
        self.appointments = appointments
        self.arrivals = arrivals
        self.weights = weights
    }
}
