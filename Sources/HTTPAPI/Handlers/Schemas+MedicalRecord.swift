import Foundation
import PatientRecords
import SharedKernel
import StoragePorts

extension Components.Schemas.MedicalRecord {
    init(_ record: MedicalRecord, version: Int, now: Date) {
        let weights = record.weights.measurements.map(Components.Schemas.Weight.init)
        let notes = record.notes.notes.map { note in
            Components.Schemas.Note(
                id: note.id.description, authorName: note.author.displayName, createdAt: note.createdAt,
                subjective: note.subjective,
                objective: note.objective, assessment: note.assessment, plan: note.plan,
                addenda: record.notes.addenda(of: note.id).map {
                    .init(
                        id: $0.id.description, authorName: $0.author.displayName, createdAt: $0.createdAt, text: $0.text
                    )
                })
        }
        self.init(
            patient: .init(Versioned(record.patient, version: version), now: now),
            latestWeight: record.weights.latest.map(Components.Schemas.Weight.init),
            weights: weights,
            problems: record.problems.map {
                .init(
                    value1: .init(
                        name: $0.name, status: .init(rawValue: $0.status.rawValue),
                        onsetDate: $0.onsetDate.map { RecordCalendar.isoDay($0) },
                        resolvedDate: $0.resolvedDate.map { RecordCalendar.isoDay($0) }),
                    value2: .init(id: $0.id.description))
            },
            allergies: record.allergies.map {
                .init(
                    value1: .init(
                        substance: $0.substance, reaction: $0.reaction, severity: .init(rawValue: $0.severity.rawValue)!
                    ),
                    value2: .init(id: $0.id.description))
            },
            medications: record.medications.map {
                .init(
                    value1: .init(
                        drug: $0.drug, concentrationMgPerML: $0.concentrationMgPerML.contractNumber,
                        doseMgPerKg: $0.doseMgPerKg.contractNumber, route: .init(rawValue: $0.route.rawValue)!,
                        frequency: $0.frequency, startDate: RecordCalendar.isoDay($0.startDate),
                        endDate: $0.endDate.map { RecordCalendar.isoDay($0) }),
                    value2: .init(id: $0.id.description))
            },
            vaccinations: record.vaccinations.map { .init($0, patientName: nil) },
            notes: notes,
            corrections: record.corrections.map(Components.Schemas.RecordCorrection.init),
            retracted: record.retractedForDisplay)
    }
}

extension Components.Schemas.Weight {
    init(_ weight: WeightMeasurement) {
        self.init(
            id: weight.id.description, value: weight.value.contractNumber, unit: weight.unit.rawValue,
            grams: weight.roundedGrams,
            measuredAt: weight.measuredAt)
    }
}

extension Components.Schemas.Vaccination {
    init(_ vaccination: Vaccination, patientName: String?) {
        self.init(
            value1: .init(
                vaccine: vaccination.vaccine, administeredDate: RecordCalendar.isoDay(vaccination.administeredDate),
                batchNumber: vaccination.batchNumber,
                nextDueDate: vaccination.nextDueDate.map { RecordCalendar.isoDay($0) }),
            value2: .init(
                id: vaccination.id.description, patientId: vaccination.patientID.description, patientName: patientName))
    }
}
