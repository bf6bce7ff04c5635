// MARK: - Human-readable explanation

extension TriageResult {
    /// A plain-text explanation for the CLI's `--explain` and for printing: level and target,
    /// each fired discriminator with its evidence, the ABCDE survey, abnormal vitals,
    /// complexity contributions, routing and caveats.
    public var explanationText: String {
        var lines: [String] = []
        lines.append(
            """
            Level \(level.rawValue) \(colour.uppercased()) (\(name)): to be seen within \(maxWaitMinutes) min, by \
            \(targetTime.ISO8601Format())
            """
        )
        lines.append(
            "Species: \(species.rawValue)"
                + (validatedForSpecies ? " (VTL validated)" : " (VTL not validated for this species)"))
        if let fallThrough { lines.append("Why: " + fallThrough) }

        if !fired.isEmpty {
            lines.append("")
            lines.append("Fired discriminators (most urgent first):")
            for firing in fired {
                let letter = firing.abcde?.rawValue ?? "-"
                lines.append(
                    """
                      [\(firing.level.rawValue) \(firing.level.colour)] \(firing.id.rawValue): \
                    \(firing.subcategory.rawValue), ABCDE \(letter)
                    """
                )
                if let rule = firing.rule { lines.append("      rule: " + rule) }
                for evidence in firing.evidence { lines.append("      \(evidence.field) = \(evidence.value)") }
            }
        }

        lines.append("")
        lines.append(
            "ABCDE: " + abcde.entries.map { "\($0.letter.rawValue) \($0.status.rawValue)" }.joined(separator: " | "))

        if !abnormalVitals.isEmpty {
            lines.append("")
            lines.append("Abnormal vitals:")
            for vital in abnormalVitals {
                lines.append(
                    "  \(vital.field) = \(vital.value): \(vital.interpretation)"
                        + (vital.reference.map { " (reference \($0))" } ?? ""))
            }
        }

        lines.append("")
        lines.append("Complexity \(Format.decimal(complexity.score, places: 3)):")
        for contribution in complexity.contributions {
            lines.append(
                """
                  \(contribution.factor.rawValue): \(contribution.input) -> \
                +\(Format.decimal(contribution.points, places: 3)) (weight \
                \(Format.decimal(contribution.weight, places: 3)))
                """
            )
        }

        lines.append("")
        lines.append("Route to:")
        for recommendation in specialties {
            lines.append(
                "  \(recommendation.rank). \(recommendation.specialty.displayName) "
                    + "[\(recommendation.specialty.rawValue)]: "
                    + recommendation.reasons.joined(separator: "; "))
        }

        if !notes.isEmpty {
            lines.append("")
            lines.append("Notes:")
            for note in notes { lines.append("  - " + note) }
        }
        lines.append("")
        lines.append("Rules version: " + rulesVersion)
        return lines.joined(separator: "\n") + "\n"
    }
}
