import Foundation
import Triage

/// How often clinical judgement changed the engine's level in a period: raised (up-triage, a
/// quality signal: the engine under-called what staff saw) and lowered, as shares of the
/// assessments made, and per staff member.
public struct TriageOverrideRates: Hashable, Sendable {
    /// One staff member's part.
    public struct Staff: Hashable, Sendable {
        /// Their account id.
        public let userID: String
        /// Assessments they made in the period.
        public let assessments: Int
        /// Levels they raised.
        public let raised: Int
        /// Levels they lowered.
        public let lowered: Int
        /// Levels they raised, among the assessments they made.
        public var raisedRate: Rate { Rate(count: raised, total: assessments) }
    }

    /// Assessments made in the period.
    public let assessments: Int
    /// Overrides that raised a level, among the assessments.
    public let raised: Rate
    /// Overrides that lowered a level, among the assessments.
    public let lowered: Rate
    /// Everyone who assessed or overrode, most overrides first, then by id.
    public let staff: [Staff]

    /// Computes the rates from who assessed (`nil` for the system) and the overrides of the period.
    public init(assessors: [String?], overrides: [TriageOverride]) {
        var assessed: [String: Int] = [:]
        var raised: [String: Int] = [:]
        var lowered: [String: Int] = [:]
        for assessor in assessors { if let assessor { assessed[assessor, default: 0] += 1 } }
        for override in overrides {
            switch override.direction {
            case .raised: raised[override.overriddenBy, default: 0] += 1
            case .lowered: lowered[override.overriddenBy, default: 0] += 1
            }
        }
        let people = Set(assessed.keys).union(raised.keys).union(lowered.keys)
        self.assessments = assessors.count
        self.raised = Rate(count: raised.values.reduce(0, +), total: assessors.count)
        self.lowered = Rate(count: lowered.values.reduce(0, +), total: assessors.count)
        self.staff = people.map {
            Staff(userID: $0, assessments: assessed[$0] ?? 0, raised: raised[$0] ?? 0, lowered: lowered[$0] ?? 0)
        }
        .sorted { ($0.raised + $0.lowered, $1.userID) > ($1.raised + $1.lowered, $0.userID) }
    }
}
