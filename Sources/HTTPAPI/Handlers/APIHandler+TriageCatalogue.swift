import Foundation
import Scheduling
import SharedKernel
import Triage

extension APIHandler {
    /// The levels, desk findings and vocabularies from the domain (with the appointment and ER
    /// board statuses and actions): the one copy clients show.
    func getTriageCatalogue(_ input: Operations.GetTriageCatalogue.Input) async throws
        -> Operations.GetTriageCatalogue.Output
    {
        _ = try caller()
        return .ok(.init(body: .json(.current)))
    }
}

extension Components.Schemas.TriageCatalogue {
    /// Built once: it depends on the rules version only.
    static let current = Components.Schemas.TriageCatalogue(
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
        specialties: Specialty.allCases.map(\.rawValue),
        // The contract lists each vocabulary's words; a domain word it lacks would be left out
        // here (and the catalogue's test, which expects every one, fails).
        appointmentStatuses: AppointmentStatus.allCases.compactMap { status in
            Components.Schemas.TriageCatalogue.AppointmentStatusesPayloadPayload.StatusPayload(
                rawValue: status.rawValue
            ).map { .init(status: $0, label: status.label, holdsTime: status.holdsTime, terminal: status.isTerminal) }
        },
        appointmentActions: AppointmentAction.allCases.compactMap { action in
            guard
                let wire = Components.Schemas.TriageCatalogue.AppointmentActionsPayloadPayload.ActionPayload(
                    rawValue: action.rawValue),
                let resulting = Components.Schemas.TriageCatalogue.AppointmentActionsPayloadPayload
                    .ResultingStatusPayload(rawValue: action.targetStatus.rawValue)
            else { return nil }
            return .init(
                action: wire, label: action.label, resultingStatus: resulting,
                checksTheSchedule: action.checksTheSchedule)
        },
        boardStatuses: QueueStatus.allCases.compactMap { status in
            Components.Schemas.TriageCatalogue.BoardStatusesPayloadPayload.StatusPayload(rawValue: status.rawValue).map
            {
                .init(status: $0, label: status.label, onBoard: status.isActive)
            }
        })
}
