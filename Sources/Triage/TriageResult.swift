import Foundation
import SharedKernel

// MARK: - Result

/// The outcome of triaging one case: the level, and everything a veterinarian needs to see
/// which rule fired and why (spec §2.3). Encode it with ``TriageResult/encodedJSON(prettyPrinted:)``.
public struct TriageResult: Hashable, Sendable {
    /// The level: the most urgent fired discriminator, or the green/blue fall-through.
    public let level: TriageLevel
    /// Every fired discriminator, most urgent first (catalogue order within a level).
    public let fired: [FiredDiscriminator]
    /// Why the level was chosen when nothing fired (`nil` when something fired).
    public let fallThrough: String?
    /// ABCDE primary survey, `<C>` first.
    public let abcde: ABCDESummary
    /// Vital signs outside the species' reference range or otherwise abnormal (§5).
    public let abnormalVitals: [AbnormalVital]
    /// Case complexity in [0, 1] with every contribution.
    public let complexity: ComplexityScore
    /// Services to route to, best first, each with its reasons (§7).
    public let specialties: [SpecialtyRecommendation]
    /// The patient's species.
    public let species: Species
    /// `true` only for dogs and cats, the species the VTL was validated on.
    public let validatedForSpecies: Bool
    /// Caveats a clinician should read (e.g. temperature bands not applied to this species).
    public let notes: [String]
    /// The version of the rule set that produced this result, for audit and re-play.
    public let rulesVersion: String
    /// When the assessment was made (from the engine's clock).
    public let assessedAt: Date
    /// When the patient arrived; the target time counts from here.
    public let arrival: Date

    /// Colour word of the level.
    public var colour: String { level.colour }
    /// Name of the level.
    public var name: String { level.name }
    /// Maximum wait for the level, minutes.
    public var maxWaitMinutes: Int { level.maxWaitMinutes }
    /// Target time to be seen: arrival + maximum wait (§2.5).
    public var targetTime: Date { arrival.addingTimeInterval(level.maxWaitSeconds) }

    /// Whether discriminator `id` fired.
    public func didFire(_ id: DiscriminatorID) -> Bool { fired.contains { $0.id == id } }

    /// The fired entry for `id`, if it fired.
    public func firing(_ id: DiscriminatorID) -> FiredDiscriminator? { fired.first { $0.id == id } }
}

// MARK: - Fired discriminator

/// One input value that made a discriminator fire.
public struct Evidence: Hashable, Sendable, Codable {
    /// Wire path of the input (`vitals.temperature`, `findings`).
    public let field: String
    /// The value as the clinician should read it, with units (`41.2 °C`, `106.2 °F (41.22 °C)`).
    public let value: String

    /// Creates evidence.
    public init(field: String, value: String) {
        self.field = field
        self.value = value
    }
}

/// A discriminator that fired, with the evidence that made it fire.
public struct FiredDiscriminator: Hashable, Sendable {
    /// The catalogue entry.
    public let discriminator: Discriminator
    /// The input values that made it fire (an assertion in `findings` is evidence too).
    public let evidence: [Evidence]
    /// The rule in words, for derived discriminators whose rule is not obvious (shock, glucose).
    public let rule: String?

    /// Stable id.
    public var id: DiscriminatorID { discriminator.id }
    /// Level the discriminator imposes.
    public var level: TriageLevel { discriminator.level }
    /// Subcategory.
    public var subcategory: Subcategory { discriminator.subcategory }
    /// ABCDE letter, if any.
    public var abcde: ABCDELetter? { discriminator.abcde }
}

// MARK: - Abnormal vitals

/// A vital sign outside its reference range or otherwise abnormal (spec §5). Not itself a
/// VTL discriminator: it informs the ABCDE survey and the complexity score.
public struct AbnormalVital: Hashable, Sendable, Codable {
    /// Wire path (`vitals.heartRate`).
    public let field: String
    /// Value with unit.
    public let value: String
    /// Clinical reading (`tachycardia`, `hypotension`, `above reference range`).
    public let interpretation: String
    /// Reference range used, with the species, when one applies (`120–200 /min (cat)`).
    public let reference: String?
    /// The ABCDE letter the sign belongs to.
    public let abcde: ABCDELetter

    /// Creates an entry.
    public init(field: String, value: String, interpretation: String, reference: String?, abcde: ABCDELetter) {
        self.field = field
        self.value = value
        self.interpretation = interpretation
        self.reference = reference
        self.abcde = abcde
    }
}

// MARK: - Routing

/// A service the case should go to, with why.
public struct SpecialtyRecommendation: Hashable, Sendable {
    /// The service.
    public let specialty: Specialty
    /// 1 = first choice.
    public let rank: Int
    /// Relative weight of the evidence for this service (for ordering; not a probability).
    public let score: Double
    /// Human-readable reasons, strongest first.
    public let reasons: [String]
}

// MARK: - Context

/// What the engine may know beyond the case itself (from the medical record).
public struct TriageContext: Hashable, Sendable {
    /// Number of chronic conditions on the patient's problem list; raises complexity.
    public var chronicConditionCount: Int

    /// Creates a context; negative counts are treated as zero.
    public init(chronicConditionCount: Int = 0) {
        self.chronicConditionCount = max(0, chronicConditionCount)
    }
}
