import Foundation

// MARK: - JSON encoding (wire format of the result, spec §9)

extension TriageResult: Encodable {
    private enum CodingKeys: String, CodingKey {
        case level, colour, name, maxWaitMinutes, fired, fallThrough, abcde, abnormalVitals, complexity, specialties
        case species, validatedForSpecies, notes, rulesVersion, assessedAt, arrival, targetTime
    }

    /// Encodes with camelCase keys; dates as ISO 8601 strings whatever the encoder's strategy,
    /// so every client reads the same text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(level.rawValue, forKey: .level)
        try container.encode(colour, forKey: .colour)
        try container.encode(name, forKey: .name)
        try container.encode(maxWaitMinutes, forKey: .maxWaitMinutes)
        try container.encode(fired, forKey: .fired)
        try container.encodeIfPresent(fallThrough, forKey: .fallThrough)
        try container.encode(abcde, forKey: .abcde)
        try container.encode(abnormalVitals, forKey: .abnormalVitals)
        try container.encode(complexity, forKey: .complexity)
        try container.encode(specialties, forKey: .specialties)
        try container.encode(species, forKey: .species)
        try container.encode(validatedForSpecies, forKey: .validatedForSpecies)
        try container.encode(notes, forKey: .notes)
        try container.encode(rulesVersion, forKey: .rulesVersion)
        try container.encode(assessedAt.ISO8601Format(), forKey: .assessedAt)
        try container.encode(arrival.ISO8601Format(), forKey: .arrival)
        try container.encode(targetTime.ISO8601Format(), forKey: .targetTime)
    }

    /// The result as JSON with sorted keys (stable for diffs and golden files).
    public func encodedJSON(prettyPrinted: Bool = true) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            prettyPrinted
            ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Every member is a plain string, number, bool, array or keyed container: encoding cannot fail.
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }
}

/// Rounds for output: scores and weights to 4 decimals so JSON shows 0.3, not 0.30000000000000004.
private func rounded(_ value: Double) -> Double { (value * 10_000).rounded() / 10_000 }

extension FiredDiscriminator: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, level, colour, subcategory, abcde, evidence, rule, definition, source
    }

    /// `{id, level, colour, subcategory, abcde, evidence, rule?, definition, source}`; `abcde` is null for "–".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.rawValue, forKey: .id)
        try container.encode(level.rawValue, forKey: .level)
        try container.encode(level.colour, forKey: .colour)
        try container.encode(subcategory.rawValue, forKey: .subcategory)
        if let abcde {
            try container.encode(abcde.rawValue, forKey: .abcde)
        } else {
            try container.encodeNil(forKey: .abcde)
        }
        try container.encode(evidence, forKey: .evidence)
        try container.encodeIfPresent(rule, forKey: .rule)
        try container.encode(discriminator.definition, forKey: .definition)
        try container.encode(discriminator.source.rawValue, forKey: .source)
    }
}

extension ABCDESummary: Encodable {
    private struct LetterKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// An object letter → status: `{"<C>": "normal", "A": "normal", "B": "critical", …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: LetterKey.self)
        for (letter, status) in entries {
            try container.encode(status.rawValue, forKey: LetterKey(stringValue: letter.rawValue))
        }
    }
}

extension ComplexityScore: Encodable {
    private enum CodingKeys: String, CodingKey { case score, contributions }

    /// `{score, contributions: [{factor, input, feature, weight, points}]}`, rounded to 4 decimals.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rounded(score), forKey: .score)
        try container.encode(
            contributions.map {
                ComplexityContribution(
                    factor: $0.factor, input: $0.input, feature: rounded($0.feature),
                    weight: rounded($0.weight), points: rounded($0.points))
            }, forKey: .contributions)
    }
}

extension SpecialtyRecommendation: Encodable {
    private enum CodingKeys: String, CodingKey { case specialty, displayName, rank, score, reasons }

    /// `{specialty, displayName, rank, score, reasons}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(specialty.rawValue, forKey: .specialty)
        try container.encode(specialty.displayName, forKey: .displayName)
        try container.encode(rank, forKey: .rank)
        try container.encode(rounded(score), forKey: .score)
        try container.encode(reasons, forKey: .reasons)
    }
}
