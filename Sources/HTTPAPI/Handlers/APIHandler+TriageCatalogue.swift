import Foundation
import SharedKernel
import Triage

extension APIHandler {
    /// The levels, desk findings and vocabularies from the domain: the one copy clients show.
    func getTriageCatalogue(_ input: Operations.GetTriageCatalogue.Input) async throws
        -> Operations.GetTriageCatalogue.Output
    {
        _ = try caller()
        return .ok(.init(body: .json(Self.triageCatalogue)))
    }

    /// Built once: it depends on the rules version only.
    static let triageCatalogue = Components.Schemas.TriageCatalogue(
        rulesVersion: TriageEngine.rulesVersion,
        levels: TriageLevel.allCases.map {
            .init(
                level: $0.rawValue, colour: $0.colour, name: $0.name, maxWaitMinutes: $0.maxWaitMinutes,
                emergency: $0.isEmergency,
                loweringNeedsConfirmation: $0.loweringNeedsConfirmation)
        },
        findings: DeskFindings.sections.map { section in
            .init(
                letter: section.letter?.rawValue, title: section.title,
                items: section.findings.map { .init(id: $0.id.rawValue, label: $0.label, level: $0.level.rawValue) })
        },
        species: Species.allCases.map(\.rawValue),
        sexes: Sex.allCases.map(\.rawValue),
        grades: Grade.allCases.map(\.rawValue),
        specialties: Specialty.allCases.map(\.rawValue))
}
