import Foundation
import PatientRecords
import Scheduling
import SharedKernel
import StoragePorts
import Testing
import Triage

@testable import HTTPAPI

/// The handlers turn the contract's enumerations into the domain's, and back, by raw value:
/// each pair must name the same words, or a request would be refused that the contract allows,
/// or an answer would carry a word the contract does not know. A word added on one side and not
/// the other fails here, not in a clinic.
@Suite("Wire vocabulary: every contract enumeration names the domain's words")
struct WireVocabularyTests {
    static func words<Vocabulary: CaseIterable & RawRepresentable>(_: Vocabulary.Type) -> Set<String>
    where Vocabulary.RawValue == String {
        Set(Vocabulary.allCases.map(\.rawValue))
    }

    @Test("shared vocabularies: species, roles, rooms, appointment statuses and actions, board statuses")
    func shared() {
        #expect(Self.words(Components.Schemas.Species.self) == Self.words(Species.self))
        #expect(Self.words(Components.Schemas.Role.self) == Self.words(Role.self))
        #expect(Self.words(Components.Schemas.RoomType.self) == Self.words(RoomType.self))
        #expect(Self.words(Components.Schemas.QueueStatus.self) == Self.words(QueueStatus.self))
        #expect(Self.words(Components.Schemas.Appointment.StatusPayload.self) == Self.words(AppointmentStatus.self))
        #expect(
            Self.words(Components.Schemas.Appointment.AllowedActionsPayloadPayload.self)
                == Self.words(AppointmentAction.self))
    }

    @Test("record vocabularies: weight units, allergy severities, routes, contact channels, overrides, audit outcomes")
    func records() {
        #expect(Self.words(Components.Schemas.NewWeight.UnitPayload.self) == Self.words(WeightUnit.self))
        #expect(Self.words(Components.Schemas.NewAllergy.SeverityPayload.self) == Self.words(Allergy.Severity.self))
        #expect(Self.words(Components.Schemas.NewMedication.RoutePayload.self) == Self.words(Medication.Route.self))
        #expect(Self.words(Components.Schemas.PrescriptionInput.RoutePayload.self) == Self.words(Medication.Route.self))
        #expect(
            Self.words(Components.Schemas.Communication.PreferredChannelPayload.self)
                == Self.words(CommunicationPreferences.Channel.self))
        #expect(
            Self.words(Components.Schemas.TriageOverride.DirectionPayload.self) == Self.words(OverrideDirection.self))
        #expect(
            Self.words(Components.Schemas.AuditEntry.OutcomePayload.self)
                == Self.words(AuditOutcome.self))
    }
}
