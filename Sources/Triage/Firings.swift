// MARK: - Firing accumulator

/// The discriminators fired so far in one evaluation, with merged evidence.
///
/// A linear array, not a dictionary: a case fires a handful of discriminators, and the
/// evaluation must stay in the microseconds.
struct Firings {
    private(set) var items: [(id: DiscriminatorID, evidence: [Evidence], rule: String?)] = []

    init() { items.reserveCapacity(8) }

    /// Fires `id`; if it already fired (asserted and derived), the evidence is merged.
    mutating func fire(_ id: DiscriminatorID, _ evidence: [Evidence], rule: String? = nil) {
        if let index = items.firstIndex(where: { $0.id == id }) {
            items[index].evidence.append(contentsOf: evidence)
            if items[index].rule == nil { items[index].rule = rule }
        } else {
            items.append((id, evidence, rule))
        }
    }

    /// Fires `id` with one piece of evidence.
    mutating func fire(_ id: DiscriminatorID, field: String, value: String, rule: String? = nil) {
        fire(id, [Evidence(field: field, value: value)], rule: rule)
    }

    /// Whether `id` fired.
    func contains(_ id: DiscriminatorID) -> Bool { items.contains { $0.id == id } }

    /// The fired discriminators, most urgent first, catalogue order within a level.
    func sorted() -> [FiredDiscriminator] {
        items.map { FiredDiscriminator(discriminator: $0.id.discriminator, evidence: $0.evidence, rule: $0.rule) }
            .sorted { lhs, rhs in
                lhs.level != rhs.level ? lhs.level < rhs.level : lhs.discriminator.order < rhs.discriminator.order
            }
    }
}
