/// Sex and neuter status: the patient record's words, which a triage case takes unchanged
/// (triage specification §9), so a stored patient's sex is always a valid case value.
public enum Sex: String, CaseIterable, Codable, Sendable {
    case maleIntact = "male_intact"
    case femaleIntact = "female_intact"
    case maleNeutered = "male_neutered"
    case femaleSpayed = "female_spayed"
    case unknown

    /// Words accepted on input beside the canonical ones: `male` and `female` name an intact
    /// animal (the wire format before specification 1.2 used them).
    public static let acceptedAliases: [String: Sex] = ["male": .maleIntact, "female": .femaleIntact]

    /// The sex a word names: a canonical word or an accepted alias; `nil` for anything else.
    public init?(word: String) {
        if let canonical = Sex(rawValue: word) {
            self = canonical
        } else if let alias = Self.acceptedAliases[word] {
            self = alias
        } else {
            return nil
        }
    }

}
