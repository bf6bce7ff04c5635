import Foundation

/// Where a practice's records stand: changes with every write to its appointments or triage
/// arrivals (`analytics`) and to its configuration (`configuration`), whatever statement makes
/// the write, so a picture computed from them is reused only while both are unchanged.
public struct AnalyticsDataVersion: Hashable, Sendable {
    /// `practice.analytics_version`.
    public let analytics: Int64
    /// `practice.config_version`.
    public let configuration: Int64

    /// Creates the value from its parts.
    public init(analytics: Int64, configuration: Int64) {
        self.analytics = analytics
        self.configuration = configuration
    }
}
