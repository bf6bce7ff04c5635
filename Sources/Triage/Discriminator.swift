import SharedKernel

// MARK: - Discriminator vocabulary

/// A body-system grouping of the VTL discriminator table (spec §3).
public enum Subcategory: String, CaseIterable, Codable, Sendable {
    case respiratory, circulatory, neurological, gastrointestinal, trauma, urogenital, generalised, obstetric
}

/// A letter of the ABCDE primary survey (spec §6).
///
/// `catastrophicBleeding` is the "(C)" that staff treat before A; the catalogue never assigns
/// it directly: the engine derives it from the haemorrhage discriminators (see ``ABCDESummary``).
public enum ABCDELetter: String, CaseIterable, Codable, Sendable {
    /// (C)atastrophic bleeding, treated first.
    case catastrophicBleeding = "<C>"
    /// Airway.
    case airway = "A"
    /// Breathing.
    case breathing = "B"
    /// Circulation.
    case circulation = "C"
    /// Disability (neurology).
    case disability = "D"
    /// Exposure / environment (temperature, wounds, fractures).
    case exposure = "E"

    /// Position in the treatment order, `<C>` first.
    var index: Int {
        switch self {
        case .catastrophicBleeding: return 0
        case .airway: return 1
        case .breathing: return 2
        case .circulation: return 3
        case .disability: return 4
        case .exposure: return 5
        }
    }
}

/// Where a catalogue entry comes from.
public enum DiscriminatorSource: String, Codable, Sendable {
    /// The published Veterinary Triage List (Ruys et al. 2012 and its teaching definitions).
    case vtl
    /// A project choice where the published list is silent (e.g. dystocia, urethral obstruction
    /// floor, the §4.4 vital-sign safety net compiled from the VTL, MTS and Animal Trauma Triage).
    case projectChoice = "project_choice"
}

/// How the engine can come to fire a discriminator.
public enum Derivation: String, Codable, Sendable {
    /// Only when the case asserts it in `findings`.
    case asserted
    /// Computed from vitals or observations (§4); may also be asserted.
    case derived
}

// MARK: - Discriminator

/// One row of the discriminator catalogue: a sign that, when present, sets a minimum level.
public struct Discriminator: Hashable, Sendable {
    /// Stable snake_case id; part of the wire format.
    public let id: DiscriminatorID
    /// The level the discriminator imposes.
    public let level: TriageLevel
    /// Body-system grouping.
    public let subcategory: Subcategory
    /// ABCDE letter, `nil` where the table has "–".
    public let abcde: ABCDELetter?
    /// The clinical definition a veterinarian can check the engine against.
    public let definition: String
    /// Published or project choice.
    public let source: DiscriminatorSource
    /// Asserted only, or also derived from structured input.
    public let derivation: Derivation
    /// Services this sign points to (spec §7), most specific first; used by routing.
    public let routing: [Specialty]
    /// Position in the catalogue; ties between fired discriminators of one level keep this order.
    public let order: Int
}
