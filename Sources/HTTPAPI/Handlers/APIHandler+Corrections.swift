import Foundation
import PatientRecords
import PracticeServices
import SharedKernel
import StoragePorts

extension APIHandler {
    func correctRecordEntry(_ input: Operations.CorrectRecordEntry.Input) async throws
        -> Operations.CorrectRecordEntry.Output
    {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let kind = RecordEntryKind(rawValue: body.entryType.rawValue)!
        // Weights and vaccinations are reception's entries; the rest are clinical.
        let permission: Permission = kind == .weight || kind == .vaccination ? .writeRecords : .writeClinical
        let caller = try await authorize(
            permission, action: .recordCorrect, resourceType: .patient, resourceID: input.path.patientId)
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        guard let entryID = UUIDText.parse(body.entryId) else {
            throw ValidationError(field: "entryId", message: "must be an entry id (UUID)")
        }
        var errors = FieldErrorCollector()
        let date = Self.day(body.date, field: "date", errors: &errors)
        let given = Self.day(body.administeredDate, field: "administeredDate", errors: &errors)
        let nextDue = Self.day(body.nextDueDate, field: "nextDueDate", errors: &errors)
        let today = store.clock.now()
        let change: RecordCorrection.Change
        switch body.action {
        case .enteredInError: change = .enteredInError(reason: body.reason ?? "")
        case .stop: change = .stopMedication(on: date ?? today, reason: body.reason ?? "")
        case .change:
            change = .changeMedication(
                from: date ?? today, newMedicationID: UUID(), doseMgPerKg: body.doseMgPerKg.map(Self.decimal),
                frequency: body.frequency, route: body.route.flatMap { Medication.Route(rawValue: $0.rawValue) })
        case .resolve: change = .resolveProblem(on: date ?? today, note: body.note)
        case .reopen: change = .reopenProblem(note: body.note)
        case .update:
            change = .updateAllergy(
                severity: body.severity.flatMap { Allergy.Severity(rawValue: $0.rawValue) }, reaction: body.reaction)
        case .refute: change = .refuteAllergy(reason: body.reason ?? "")
        case .correct:
            change = .correctVaccination(batchNumber: body.batchNumber, administeredDate: given, nextDueDate: nextDue)
        }
        try errors.throwIfAny()
        _ = try await store.correctRecordEntry(
            change, entryKind: kind, entryID: entryID, patientID: patientID, scope: caller.scope,
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        let (record, version) = try await store.medicalRecord(scope: caller.scope, patientID: patientID)
        return .created(.init(body: .json(.init(record, version: version, now: store.clock.now()))))
    }
}

extension Components.Schemas.RecordCorrection {
    init(_ correction: RecordCorrection) {
        var reason: String?
        var note: String?
        var date: Date?
        var newEntry: UUID?
        switch correction.change {
        case .enteredInError(let text), .refuteAllergy(let text): reason = text
        case .stopMedication(let day, let text): (date, reason) = (day, text)
        case .changeMedication(let day, let newID, _, _, _): (date, newEntry) = (day, newID)
        case .resolveProblem(let day, let text): (date, note) = (day, text)
        case .reopenProblem(let text): note = text
        case .updateAllergy, .correctVaccination: break
        }
        self.init(
            id: UUIDText.lowercase(correction.id), entryType: correction.entryKind.rawValue,
            entryId: UUIDText.lowercase(correction.entryID),
            action: correction.change.name, reason: reason, note: note, date: date.map { RecordCalendar.isoDay($0) },
            newEntryId: newEntry.map(UUIDText.lowercase), recordedBy: correction.recordedBy,
            recordedAt: correction.recordedAt)
    }
}

extension MedicalRecord {
    /// The retracted entries as the record shows them: what was written, and why it no longer counts.
    var retractedForDisplay: [Components.Schemas.MedicalRecord.RetractedPayloadPayload] {
        let day = { (date: Date) in RecordCalendar.isoDay(date) }
        var items: [(RecordEntryKind, UUID, String)] = []
        items += retractedEntries.weights.map {
            (.weight, $0.id.rawValue, "\($0.value) \($0.unit.rawValue) on \(day($0.measuredAt))")
        }
        items += retractedEntries.problems.map { (.problem, $0.id.rawValue, $0.name) }
        items += retractedEntries.allergies.map {
            (.allergy, $0.id.rawValue, "\($0.substance) (\($0.severity.rawValue))")
        }
        items += retractedEntries.medications.map {
            (.medication, $0.id.rawValue, "\($0.drug) \($0.doseMgPerKg) mg/kg \($0.frequency)")
        }
        items += retractedEntries.vaccinations.map {
            (.vaccination, $0.id.rawValue, "\($0.vaccine) on \(day($0.administeredDate))")
        }
        items += notes.notes.filter { retracted[$0.id.rawValue] != nil }.map {
            (.note, $0.id.rawValue, "Note of \(day($0.createdAt))")
        }
        return items.compactMap { kind, id, summary in
            retracted[id].map { mark in
                .init(
                    entryType: kind.rawValue, entryId: UUIDText.lowercase(id),
                    kind: .init(rawValue: mark.kind.rawValue)!, summary: summary,
                    reason: mark.reason, by: mark.by, at: mark.at)
            }
        }
    }
}
