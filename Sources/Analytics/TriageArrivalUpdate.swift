import Foundation
import Triage

/// What a change on the ER board means for the practice's record of triaged arrivals (the
/// history VTL compliance is measured on). The board keeps one entry per patient and only
/// its latest status change; the arrival record keeps every visit and the moment the
/// patient was first seen, which the board overwrites.
///
/// A store applies the update in the same transaction as the board change, so the record
/// can never disagree with the board.
public enum TriageArrivalUpdate: Hashable, Sendable {
    /// A new visit: the patient arrived at `arrival` and was triaged at `level`.
    case arrived(patientID: UUID, level: TriageLevel, arrival: Date)
    /// The patient, still waiting, was re-triaged: the visit counts at the new level (the
    /// level a patient is seen under is the latest assessment before first contact).
    case retriaged(patientID: UUID, arrival: Date, level: TriageLevel)
    /// A clinician first saw the patient at `at`. Only the first time counts: a later move
    /// never changes it (the store writes it only while none is recorded).
    case firstSeen(patientID: UUID, arrival: Date, at: Date)
    /// The patient left without being seen at `at`: their wait stops there.
    case left(patientID: UUID, arrival: Date, at: Date)

    /// The update `change` implies; `nil` for changes that do not touch the record (treatment
    /// ending, an announcement: the visit's times stay as they were).
    public init?(_ change: QueueChange) {
        switch change {
        case .admitted(let entry):
            self = .arrived(patientID: entry.patientID, level: entry.level, arrival: entry.arrival)
        case .retriaged(_, let current), .overridden(_, let current):
            guard current.status == .waiting else { return nil }
            self = .retriaged(patientID: current.patientID, arrival: current.arrival, level: current.level)
        case .statusChanged(let previous, let current):
            guard previous.status == .waiting else { return nil }
            switch current.status {
            case .inTreatment:
                self = .firstSeen(patientID: current.patientID, arrival: current.arrival, at: current.statusChangedAt)
            case .leftWithoutBeingSeen:
                self = .left(patientID: current.patientID, arrival: current.arrival, at: current.statusChangedAt)
            case .waiting, .done: return nil
            }
        case .announced: return nil
        }
    }
}
