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

    /// The note an addendum amends: the one fact its check needs that the patient does not
    /// hold, so the store reads it before ``validate(patient:amending:now:)``.
    public var amendedNoteID: Identifier<ClinicalNote>? {
        if case .addendum(let addendum) = self { return addendum.noteID }
        return nil
    }

    /// Checks the entry against the stored patient as the record checks anything entered
    /// today: a weighing against the species and birth date, dates against the birth date and
    /// today, an addendum against the note it amends (`note`, as stored; `nil` is a 404
    /// naming the note).
    public func validate(patient: Patient, amending note: ClinicalNote?, now: Date) throws {
        switch self {
        case .weight(let weight): try weight.validate(species: patient.species, birthDate: patient.birthDate, now: now)
        case .problem(let problem): try problem.validate(now: now, birthDate: patient.birthDate)
        case .allergy(let allergy): try allergy.validate()
        case .medication(let medication): try medication.validate(birthDate: patient.birthDate)
        case .vaccination(let vaccination): try vaccination.validate(now: now, birthDate: patient.birthDate)
        case .note(let note): try note.validate(now: now)
        case .addendum(let addendum):
            guard let note, note.id == addendum.noteID else { throw DomainError.notFound(resource: "note") }
            try addendum.validate(for: note, now: now)
        }
    }
}

extension ExportedPatient {
    /// The record's entries as a restore writes them, parents first (a note before its
    /// addenda): each under the patient it is listed with, whatever id it carries, with when
    /// and by whom it was entered as the export says (`fallback` and no one when it does not).
    /// Nothing is checked against today: a dose or weight valid when entered stays history.
    public func restoredEntries(fallback: Date) -> [(entry: RecordEntry, stamp: EntryStamp)] {
        let owner = patient.id
        func filed<Entry>(
            _ items: [Entry], _ patientID: WritableKeyPath<Entry, Identifier<Patient>>, _ entry: (Entry) -> RecordEntry
        ) -> [RecordEntry] {
            items.map { item in
                var item = item
                item[keyPath: patientID] = owner
                return entry(item)
            }
        }
        // Notes and addenda carry their own times and authors.
        let entries =
            filed(weights, \.patientID, RecordEntry.weight) + filed(problems, \.patientID, RecordEntry.problem)
            + filed(allergies, \.patientID, RecordEntry.allergy)
            + filed(medications, \.patientID, RecordEntry.medication)
            + filed(vaccinations, \.patientID, RecordEntry.vaccination) + notes.map(RecordEntry.note)
            + addenda.map(RecordEntry.addendum)
        return entries.map { ($0, entered[$0.id] ?? EntryStamp(at: fallback, by: nil)) }
    }
}
