import Foundation
import SharedKernel

/// Event kinds the records context publishes. Payloads carry identifiers and the facts a
/// list shows (name, species, status) — never owner contact details or clinical text.
public enum RecordEventKind {
    /// A patient was registered.
    public static let patientCreated = "patient.created"
    /// A patient's details changed (not archiving).
    public static let patientUpdated = "patient.updated"
    /// A patient was archived.
    public static let patientArchived = "patient.archived"
    /// An archived patient was purged after its retention period.
    public static let patientPurged = "patient.purged"
    /// An owner was registered.
    public static let ownerCreated = "owner.created"
    /// An owner's details changed.
    public static let ownerUpdated = "owner.updated"
    /// An entry (weight, problem, allergy, medication, vaccination, note, addendum, document)
    /// was added to a patient's record.
    public static let entryAdded = "record.entry_added"
    /// An entry was corrected (stopped, resolved, entered in error, …).
    public static let entryCorrected = "record.entry_corrected"
    /// Patients and owners were imported in bulk (one event for the whole import).
    public static let imported = "records.imported"

    /// Every kind, for subscribers and documentation.
    public static let all = [
        patientCreated, patientUpdated, patientArchived, patientPurged, ownerCreated, ownerUpdated, entryAdded,
        entryCorrected, imported,
    ]
}

extension Patient {
    /// The event for this patient's registration or change: `previous` is the stored patient
    /// before an update (`nil` for a new one). Archiving is its own kind, so boards can drop
    /// the patient without fetching it.
    public func changeEvent(previous: Patient?, practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        let kind: String
        switch (previous, status) {
        case (nil, _): kind = RecordEventKind.patientCreated
        case (let before?, .archived) where before.status != .archived: kind = RecordEventKind.patientArchived
        default: kind = RecordEventKind.patientUpdated
        }
        return DomainEvent(
            practiceID: practiceID, kind: kind, occurredAt: occurredAt, resourceType: .patient,
            resourceID: id.description,
            payload: [
                "patientID": id.description, "name": name, "species": species.rawValue, "status": status.rawValue,
            ])
    }
}

extension Owner {
    /// The event for this owner's registration (`isNew`) or change: identifiers only, as an
    /// owner's name and contact details are personal data the stream has no need to carry.
    public func changeEvent(isNew: Bool, practiceID: PracticeID, occurredAt: Date) -> DomainEvent {
        DomainEvent(
            practiceID: practiceID, kind: isNew ? RecordEventKind.ownerCreated : RecordEventKind.ownerUpdated,
            occurredAt: occurredAt,
            resourceType: .owner, resourceID: id.description, payload: ["ownerID": id.description])
    }
}

extension DomainEvent {
    /// The event for an entry added to a patient's record: which patient, which sort of entry
    /// and its id — the entry itself is read (and audited) through the record.
    public static func recordEntryAdded(
        patientID: Identifier<Patient>, entryType: String, entryID: String, practiceID: PracticeID,
        occurredAt: Date
    ) -> DomainEvent {
        DomainEvent(
            practiceID: practiceID, kind: RecordEventKind.entryAdded, occurredAt: occurredAt, resourceType: .record,
            resourceID: patientID.description,
            payload: ["patientID": patientID.description, "entryType": entryType, "entryID": entryID])
    }

    /// `record.entry_corrected`: which entry, and the correction's name (no clinical text).
    public static func recordEntryCorrected(_ correction: RecordCorrection, practiceID: PracticeID, occurredAt: Date)
        -> DomainEvent
    {
        DomainEvent(
            practiceID: practiceID, kind: RecordEventKind.entryCorrected, occurredAt: occurredAt,
            resourceType: .record,
            resourceID: correction.patientID.description,
            payload: [
                "patientID": correction.patientID.description, "entryType": correction.entryKind.rawValue,
                "entryID": UUIDText.lowercase(correction.entryID), "correction": correction.change.name,
            ])
    }
}
