import Foundation
import PatientRecords
import SharedKernel
import StoragePorts
import StorageSupport
import Testing

/// Reading a stored record entry back, as both stores do, without a store.
@Suite("Record rows: a stored entry reads back as written, or its bad column is named")
struct RecordRowsTests {
    let seal = FieldSeal(cipher: try! RecordCipher(keyBytes: Array(repeating: 9, count: 32)), practiceID: PracticeID())
    let patientID = Identifier<Patient>()

    /// A medication's columns as a store keeps them, sealed for `id`, with the dose `dose`.
    func sealedMedication(_ id: UUID, dose: String) throws -> RecordRows.MedicationColumns {
        let key = id.uuidString
        return RecordRows.MedicationColumns(
            drug: try seal.seal("Meloxicam", .medicationDrug, id: key),
            concentration: try seal.seal("1.5", .medicationConcentration, id: key),
            dose: try seal.seal(dose, .medicationDose, id: key), route: "oral",
            frequency: try seal.seal("once daily", .medicationFrequency, id: key), start: "2026-11-01", end: nil)
    }

    @Test("a sealed medication opens to its drug, dose and days")
    func medication() throws {
        let id = UUID()
        let columns = try sealedMedication(id, dose: "0.1")
        let medication = try RecordRows.medication(id: id, patientID: patientID, columns, seal: seal)
        #expect(medication.drug == "Meloxicam" && medication.doseMgPerKg == Decimal(string: "0.1"))
        #expect(medication.concentrationMgPerML == Decimal(string: "1.5") && medication.route == .oral)
        #expect(medication.startDate == RecordCalendar.date(fromISODay: "2026-11-01") && medication.endDate == nil)
    }

    @Test("a dose that is not a number, an unknown route or a bad day is named, never read as zero or a default")
    func corruptMedication() throws {
        let id = UUID()
        let key = id.uuidString
        var columns = try sealedMedication(id, dose: "lots")
        func column(_ columns: RecordRows.MedicationColumns) -> String? {
            do {
                _ = try RecordRows.medication(id: id, patientID: patientID, columns, seal: seal)
                return nil
            } catch let corruption as StoreCorruption {
                return corruption.column
            } catch {
                return "\(error)"
            }
        }
        #expect(column(columns) == "medication.dose_mg_per_kg")
        columns.dose = try seal.seal("0.1", .medicationDose, id: key)
        columns.route = "teleport"
        #expect(column(columns) == "medication.route")
        columns.route = "oral"
        columns.end = "next week"
        #expect(column(columns) == "medication.end_date")
    }

    @Test("a weight in an unknown unit or without a time, and a problem of an unknown status, are named")
    func corruptEntries() throws {
        #expect(throws: StoreCorruption.self) {
            try RecordRows.weight(id: UUID(), patientID: patientID, value: "4.2", unit: "stone", measuredAt: Date())
        }
        #expect(throws: StoreCorruption.self) {
            try RecordRows.weight(id: UUID(), patientID: patientID, value: "4.2", unit: "kg", measuredAt: nil)
        }
        let weight = try RecordRows.weight(
            id: UUID(), patientID: patientID, value: "4.2", unit: "kg", measuredAt: Date(timeIntervalSince1970: 0))
        #expect(weight.value == Decimal(string: "4.2") && weight.unit == .kg)
        let id = UUID()
        #expect(throws: StoreCorruption.self) {
            try RecordRows.problem(
                id: id, patientID: patientID, name: try seal.seal("Otitis", .problemName, id: id.uuidString),
                status: "forgotten", onset: nil, resolved: nil, seal: seal)
        }
    }

    @Test("a restored entry is filed under the patient it is listed with, stamped as the export says or now")
    func restoredEntries() throws {
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let patient = Patient(name: "Rex", species: .dog, ownerID: Identifier())
        let stray = WeightMeasurement(
            patientID: Identifier(), value: 12, unit: .kg, measuredAt: now.addingTimeInterval(-3_600))
        let stamped = WeightMeasurement(patientID: patient.id, value: 13, unit: .kg, measuredAt: now)
        let author = NoteAuthor(id: UserID(), displayName: "Dr Vale")
        let note = ClinicalNote(
            patientID: patient.id, author: author, createdAt: now, subjective: "s", objective: "o", assessment: "a",
            plan: "p")
        let addendum = Addendum(noteID: note.id, author: author, createdAt: now, text: "later")
        let entered = EntryStamp(at: now.addingTimeInterval(-86_400), by: "vet-1")
        let item = ExportedPatient(
            record: MedicalRecord(patient: patient, weights: [stray, stamped], notes: [note], addenda: [addendum]),
            archivedAt: nil, entered: [stamped.id.description: entered])
        let entries = item.restoredEntries(fallback: now)
        #expect(
            entries.map(\.entry.id)
                == [stray.id.description, stamped.id.description, note.id.description, addendum.id.description])
        guard case .weight(let first) = entries[0].entry else {
            Issue.record("not a weighing")
            return
        }
        #expect(first.patientID == patient.id && entries[0].stamp == EntryStamp(at: now, by: nil))
        #expect(entries[1].stamp == entered)

        // An addendum is checked against the note it amends, as stored: none is a 404 naming it.
        #expect(throws: DomainError.notFound(resource: "note")) {
            try RecordEntry.addendum(addendum).validate(patient: patient, amending: nil, now: now)
        }
        try RecordEntry.addendum(addendum).validate(patient: patient, amending: note, now: now)
    }
}
