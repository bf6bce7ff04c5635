import Foundation
import PatientRecords
import SharedKernel

/// One entry added to a patient's medical record.
public enum RecordEntry: Sendable {
    case weight(WeightMeasurement)
    case problem(Problem)
    case allergy(Allergy)
    case medication(Medication)
    case vaccination(Vaccination)
    case note(ClinicalNote)
    case addendum(Addendum)

    /// The entry's identifier, as text.
    package var id: String {
        switch self {
        case .weight(let value): return value.id.description
        case .problem(let value): return value.id.description
        case .allergy(let value): return value.id.description
        case .medication(let value): return value.id.description
        case .vaccination(let value): return value.id.description
        case .note(let value): return value.id.description
        case .addendum(let value): return value.id.description
        }
    }

    /// The entry's sort as the live stream names it (`weight`, `note`, …).
    public var eventEntryType: String {
        auditAction.name.split(separator: ".").dropFirst().first.map(String.init) ?? "entry"
    }

    /// The audit action of adding it (also the action a refusal is audited under).
    public var auditAction: AuditAction {
        switch self {
        case .weight: return .recordWeightAdd
        case .problem: return .recordProblemAdd
        case .allergy: return .recordAllergyAdd
        case .medication: return .recordMedicationAdd
        case .vaccination: return .recordVaccinationAdd
        case .note: return .recordNoteAdd
        case .addendum: return .recordAddendumAdd
        }
    }
}
