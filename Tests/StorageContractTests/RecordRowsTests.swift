import Foundation
import PatientRecords
import SharedKernel
import StoragePorts
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
}
