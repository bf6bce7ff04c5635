// MARK: - ABCDE primary survey

/// The state of one ABCDE letter (spec §6).
public enum ABCDEStatus: String, CaseIterable, Codable, Sendable, Comparable {
    /// Nothing fired and no vital of the letter is abnormal.
    case normal
    /// A non-red discriminator of the letter fired, or one of its vitals is abnormal.
    case abnormal
    /// A red discriminator of the letter fired.
    case critical

    private var rank: Int {
        switch self {
        case .normal: return 0
        case .abnormal: return 1
        case .critical: return 2
        }
    }

    /// Orders by severity: normal < abnormal < critical.
    public static func < (lhs: ABCDEStatus, rhs: ABCDEStatus) -> Bool { lhs.rank < rhs.rank }
}

/// The primary survey in treatment order: `<C>` (catastrophic bleeding), A, B, C, D, E.
///
/// `<C>` is derived from the haemorrhage discriminators: exsanguinating haemorrhage makes it
/// critical, uncontrollable major haemorrhage abnormal. Minor oozing is not catastrophic and
/// only shows under C. An abnormal vital of a letter raises it to at least abnormal, so a
/// rabbit's fever (no VTL discriminator) still shows under E.
public struct ABCDESummary: Hashable, Sendable {
    private var statuses: [ABCDEStatus] = Array(repeating: .normal, count: ABCDELetter.allCases.count)

    /// All letters normal.
    public init() {}

    /// The status of `letter`.
    public subscript(letter: ABCDELetter) -> ABCDEStatus { statuses[letter.index] }

    /// Letters and statuses in treatment order.
    public var entries: [(letter: ABCDELetter, status: ABCDEStatus)] {
        ABCDELetter.allCases.map { ($0, statuses[$0.index]) }
    }

    /// Letters that are not normal.
    public var involvedLetters: [ABCDELetter] { ABCDELetter.allCases.filter { statuses[$0.index] != .normal } }

    /// Raises `letter` to `status` if that is worse; a letter never improves.
    mutating func raise(_ letter: ABCDELetter, to status: ABCDEStatus) {
        if statuses[letter.index] < status { statuses[letter.index] = status }
    }

    /// Builds the survey from fired discriminators and abnormal vitals.
    static func survey(fired: [FiredDiscriminator], abnormalVitals: [AbnormalVital]) -> ABCDESummary {
        var summary = ABCDESummary()
        for firing in fired {
            if let letter = firing.abcde { summary.raise(letter, to: firing.level == .red ? .critical : .abnormal) }
            switch firing.id {
            case .exsanguinatingHemorrhage: summary.raise(.catastrophicBleeding, to: .critical)
            case .uncontrollableMajorHemorrhage: summary.raise(.catastrophicBleeding, to: .abnormal)
            default: break
            }
        }
        for vital in abnormalVitals { summary.raise(vital.abcde, to: .abnormal) }
        return summary
    }
}
