// MARK: - Triage level

/// A Veterinary Triage List level (Ruys et al. 2012, adapted from the Manchester Triage System).
///
/// The raw value is the wire number: 1 is the most urgent. `Comparable` orders by urgency
/// rank, so `.red < .orange` ("red is seen before orange") and `min()` picks the most urgent.
public enum TriageLevel: Int, CaseIterable, Codable, Sendable, Comparable {
    /// Level 1: immediate.
    case red = 1
    /// Level 2: very urgent.
    case orange = 2
    /// Level 3: urgent.
    case yellow = 3
    /// Level 4: standard.
    case green = 4
    /// Level 5: non-urgent.
    case blue = 5

    /// The colour word used on the wire and on the board (`red`, `orange`, …).
    public var colour: String {
        switch self {
        case .red: return "red"
        case .orange: return "orange"
        case .yellow: return "yellow"
        case .green: return "green"
        case .blue: return "blue"
        }
    }

    /// The MTS/VTL name of the level (`immediate`, `very urgent`, …).
    public var name: String {
        switch self {
        case .red: return "immediate"
        case .orange: return "very urgent"
        case .yellow: return "urgent"
        case .green: return "standard"
        case .blue: return "non-urgent"
        }
    }

    /// Maximum wait before the patient must be seen (spec §1). Yellow uses the upper bound of
    /// the VTL's 30–60 min range because the spec's table states 60 min as the target.
    public var maxWaitMinutes: Int {
        switch self {
        case .red: return 0
        case .orange: return 15
        case .yellow: return 60
        case .green: return 120
        case .blue: return 240
        }
    }

    /// Maximum wait in seconds, for date arithmetic.
    public var maxWaitSeconds: Double { Double(maxWaitMinutes) * 60 }

    /// Urgency in [0, 1]: red 1, orange 0.75, yellow 0.5, green 0.25, blue 0.
    /// Used by the complexity score and routing so that "more urgent" always weighs more.
    public var urgency: Double { Double(TriageLevel.blue.rawValue - rawValue) / 4 }

    /// An emergency: red or orange. The patient joins the ER board at once with the clinician
    /// on duty, instead of being offered a later slot.
    public var isEmergency: Bool { self <= .orange }

    /// Whether lowering an assessment the engine put at this level needs an explicit
    /// confirmation: red, reached only when a red discriminator fired (spec §2).
    public var loweringNeedsConfirmation: Bool { self == .red }

    /// Orders by urgency: the more urgent level is the smaller one.
    public static func < (lhs: TriageLevel, rhs: TriageLevel) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Parses a colour word (`"orange"`); `nil` for anything else.
    public init?(colour: String) {
        guard let level = TriageLevel.allCases.first(where: { $0.colour == colour }) else { return nil }
        self = level
    }
}
