import Foundation
import PatientRecords
import PracticeServices
import SharedKernel
import StoragePorts

extension APIHandler {
    func getMedicalRecord(_ input: Operations.GetMedicalRecord.Input) async throws -> Operations.GetMedicalRecord.Output
    {
        let caller = try await authorize(
            .readRecords, action: .recordRead, resourceType: .patient, resourceID: input.path.patientId)
        let (record, version) = try await store.medicalRecord(
            scope: caller.scope, patientID: try Self.identifier(input.path.patientId, resource: "patient"))
        return .ok(
            .init(
                headers: .init(eTag: Self.etag(version)),
                body: .json(.init(record, version: version, now: store.clock.now()))))
    }

    func addWeight(_ input: Operations.AddWeight.Input) async throws -> Operations.AddWeight.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        let weight = WeightMeasurement(
            patientID: patientID, value: Self.decimal(body.value), unit: WeightUnit(rawValue: body.unit.rawValue)!,
            measuredAt: body.measuredAt ?? store.clock.now())
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .weight(weight), patientID: patientID, permission: .writeRecords,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func addProblem(_ input: Operations.AddProblem.Input) async throws -> Operations.AddProblem.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        var errors = FieldErrorCollector()
        let onset = Self.day(body.onsetDate, field: "onsetDate", errors: &errors)
        let resolved = Self.day(body.resolvedDate, field: "resolvedDate", errors: &errors)
        try errors.throwIfAny()
        let problem = Problem(
            patientID: patientID, name: body.name,
            status: body.status.flatMap { Problem.Status(rawValue: $0.rawValue) } ?? .active,
            onsetDate: onset, resolvedDate: resolved)
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .problem(problem), patientID: patientID, permission: .writeClinical,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func addAllergy(_ input: Operations.AddAllergy.Input) async throws -> Operations.AddAllergy.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        let allergy = Allergy(
            patientID: patientID, substance: body.substance, reaction: body.reaction,
            severity: Allergy.Severity(rawValue: body.severity.rawValue)!)
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .allergy(allergy), patientID: patientID, permission: .writeClinical,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func addMedication(_ input: Operations.AddMedication.Input) async throws -> Operations.AddMedication.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        var errors = FieldErrorCollector()
        let start = Self.day(body.startDate, field: "startDate", errors: &errors)
        let end = Self.day(body.endDate, field: "endDate", errors: &errors)
        try errors.throwIfAny()
        let medication = Medication(
            patientID: patientID, drug: body.drug, concentrationMgPerML: Self.decimal(body.concentrationMgPerML),
            doseMgPerKg: Self.decimal(body.doseMgPerKg), route: Medication.Route(rawValue: body.route.rawValue)!,
            frequency: body.frequency, startDate: start!, endDate: end)
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .medication(medication), patientID: patientID, permission: .writeClinical,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func addVaccination(_ input: Operations.AddVaccination.Input) async throws -> Operations.AddVaccination.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        var errors = FieldErrorCollector()
        let given = Self.day(body.administeredDate, field: "administeredDate", errors: &errors)
        let due = Self.day(body.nextDueDate, field: "nextDueDate", errors: &errors)
        try errors.throwIfAny()
        let vaccination = Vaccination(
            patientID: patientID, vaccine: body.vaccine, administeredDate: given!, batchNumber: body.batchNumber,
            nextDueDate: due)
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .vaccination(vaccination), patientID: patientID, permission: .writeRecords,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func addNote(_ input: Operations.AddNote.Input) async throws -> Operations.AddNote.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        let caller = try caller()
        let note = ClinicalNote(
            patientID: patientID, author: NoteAuthor(id: caller.account.id, displayName: caller.account.displayName),
            createdAt: store.clock.now(), subjective: body.subjective ?? "", objective: body.objective ?? "",
            assessment: body.assessment ?? "", plan: body.plan ?? "")
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .note(note), patientID: patientID, permission: .writeClinical,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func addAddendum(_ input: Operations.AddAddendum.Input) async throws -> Operations.AddAddendum.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        let noteID: Identifier<ClinicalNote> = try Self.identifier(input.path.noteId, resource: "note")
        let caller = try caller()
        let addendum = Addendum(
            noteID: noteID, author: NoteAuthor(id: caller.account.id, displayName: caller.account.displayName),
            createdAt: store.clock.now(), text: body.text)
        return .created(
            .init(
                body: .json(
                    try await addEntry(
                        .addendum(addendum), patientID: patientID, permission: .writeClinical,
                        idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body)))))
    }

    func getMedicationDose(_ input: Operations.GetMedicationDose.Input) async throws
        -> Operations.GetMedicationDose.Output
    {
        let caller = try await authorize(
            .readRecords, action: .recordDose, resourceType: .patient, resourceID: input.path.patientId)
        let (record, _) = try await store.medicalRecord(
            scope: caller.scope, patientID: try Self.identifier(input.path.patientId, resource: "patient"))
        guard
            let medication = record.medications.first(where: {
                $0.id.description == input.path.medicationId.lowercased()
            })
        else {
            throw DomainError.notFound(resource: "medication")
        }
        // Only a medicine being given is dosed: a stopped one (or a version a change replaced) is not.
        guard record.isBeingGiven(medication, on: store.clock.now()) else {
            throw DomainError.conflict("the medication is not current (it was stopped or replaced by a new dose)")
        }
        let dose = try Self.dose { () throws(DoseCalculationError) -> DoseCalculation in
            try medication.dose(
                weights: record.weights, now: store.clock.now(),
                maximumWeightAgeInDays: input.query.maxWeightAgeDays ?? 30)
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        medicationId: medication.id.description,
                        doseMg: Self.double(dose.doseMg(fractionDigits: 3)),
                        volumeML: Self.double(dose.volumeML(fractionDigits: 3)),
                        weightKg: Self.double(dose.weightKg),
                        weightMeasuredAt: dose.weight.measuredAt))))
    }

    func listVaccinationsDue(_ input: Operations.ListVaccinationsDue.Input) async throws
        -> Operations.ListVaccinationsDue.Output
    {
        let caller = try await authorize(.readRecords, action: .recordVaccinationsDueRead, resourceType: .vaccination)
        let now = store.clock.now()
        let (report, names) = try await store.vaccinationReminders(
            scope: caller.scope, asOf: now, withinDays: input.query.withinDays ?? 30)
        let wire = { (v: Vaccination) in Components.Schemas.Vaccination(v, patientName: names[v.patientID]) }
        return .ok(
            .init(
                body: .json(
                    .init(
                        asOf: RecordCalendar.isoDay(now), dueSoon: report.dueSoon.map(wire),
                        overdue: report.overdue.map(wire)))))
    }

    // MARK: - Helpers

    /// Authorizes, adds the entry, and answers with the record as it now stands.
    private func addEntry(
        _ entry: RecordEntry, patientID: Identifier<Patient>, permission: Permission,
        idempotencyKey: IdempotencyKey?
    ) async throws -> Components.Schemas.MedicalRecord {
        let caller = try await authorize(
            permission, action: entry.auditAction, resourceType: .patient, resourceID: patientID.description)
        try await store.addRecordEntry(entry, patientID: patientID, scope: caller.scope, idempotencyKey: idempotencyKey)
        let (record, version) = try await store.medicalRecord(scope: caller.scope, patientID: patientID)
        return .init(record, version: version, now: store.clock.now())
    }

    /// A JSON number as an exact decimal (through its shortest text, so 12.3 stays 12.3).
    static func decimal(_ value: Double) -> Decimal { Decimal(string: "\(value)") ?? Decimal(value) }

    /// A decimal as a JSON number (``Foundation/Decimal/contractNumber``).
    static func double(_ value: Decimal) -> Double { value.contractNumber }

    /// Parses an optional `yyyy-MM-dd`, recording a field error when malformed.
    static func day(_ text: String?, field: String, errors: inout FieldErrorCollector) -> Date? {
        guard let text else { return nil }
        guard let date = RecordCalendar.date(fromISODay: text) else {
            errors.add(field, "must be a date like 2026-03-14")
            return nil
        }
        return date
    }
}

extension Decimal {
    /// The value as the contract's JSON number, through its shortest text (12.3 goes out as 12.3).
    var contractNumber: Double { Double("\(self)") ?? NSDecimalNumber(decimal: self).doubleValue }
}
