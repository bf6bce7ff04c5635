import Foundation
import PatientRecords
import PracticeServices
import SharedKernel
import StoragePorts

extension APIHandler {
    // MARK: - Before a prescription or a vaccination is saved

    func previewDose(_ input: Operations.PreviewDose.Input) async throws -> Operations.PreviewDose.Output {
        let caller = try await authorize(
            .readRecords, action: .recordDose, resourceType: .patient, resourceID: input.path.patientId)
        let patientID: Identifier<Patient> = try Self.identifier(input.path.patientId, resource: "patient")
        let (record, _) = try await store.medicalRecord(scope: caller.scope, patientID: patientID)
        let now = store.clock.now()
        // The prescription as it would be saved today: the same calculation as a saved medication's.
        let prescription = Medication(
            patientID: patientID, drug: "preview", concentrationMgPerML: Self.decimal(input.query.concentrationMgPerML),
            doseMgPerKg: Self.decimal(input.query.doseMgPerKg), route: .oral, frequency: "preview",
            startDate: RecordCalendar.date(fromISODay: RecordCalendar.isoDay(now)) ?? now)
        let dose = try Self.dose { () throws(DoseCalculationError) -> DoseCalculation in
            try prescription.dose(
                weights: record.weights, now: now, maximumWeightAgeInDays: input.query.maxWeightAgeDays ?? 30)
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        doseMg: Self.double(dose.doseMg(fractionDigits: 3)),
                        volumeML: Self.double(dose.volumeML(fractionDigits: 3)),
                        weightKg: Self.double(dose.weightKg), weightMeasuredAt: dose.weight.measuredAt))))
    }

    /// The dose `compute` gives, for an answer: a prescription the record refuses is a 422
    /// naming its fields; a sound request on a record without a current weight is a conflict
    /// with the record's state (409).
    static func dose(_ compute: () throws(DoseCalculationError) -> DoseCalculation) throws -> DoseCalculation {
        switch Result(catching: compute) {
        case .success(let dose): return dose
        case .failure(.invalidPrescription(let validation)): throw validation
        case .failure(let error): throw DomainError.conflict(error.description)
        }
    }

    func proposeVaccinationDue(_ input: Operations.ProposeVaccinationDue.Input) async throws
        -> Operations.ProposeVaccinationDue.Output
    {
        let caller = try await authorize(
            .readRecords, action: .recordVaccinationProposal, resourceType: .patient, resourceID: input.path.patientId)
        var errors = FieldErrorCollector()
        let administered = Self.day(input.query.administeredDate, field: "administeredDate", errors: &errors)
        try errors.throwIfAny()
        let patient = try await store.patient(
            scope: caller.scope, id: try Self.identifier(input.path.patientId, resource: "patient")
        ).value
        guard let given = administered, let protocolOfSpecies = VaccinationProtocol.protocolFor(patient.species),
            let vaccine = protocolOfSpecies.vaccine(named: input.query.vaccine)
        else {
            return .ok(.init(body: .json(.init(vaccine: input.query.vaccine, matched: false))))
        }
        let (due, interval) = VaccinationProtocol.nextDue(after: given, of: vaccine, birthDate: patient.birthDate)
        return .ok(
            .init(
                body: .json(
                    .init(
                        vaccine: vaccine.name, matched: true, core: vaccine.core,
                        nextDueDate: RecordCalendar.isoDay(due),
                        intervalDays: interval, primaryCourse: interval != vaccine.intervalDays, note: vaccine.note,
                        source: protocolOfSpecies.source))))
    }

    func getVaccinationProtocol(_ input: Operations.GetVaccinationProtocol.Input) async throws
        -> Operations.GetVaccinationProtocol.Output
    {
        _ = try await authorize(.readRecords, action: .vaccinationProtocolRead, resourceType: .vaccination)
        guard let species = Species(rawValue: input.query.species.rawValue) else {
            throw ValidationError(field: "species", message: "is not a species")
        }
        let found = VaccinationProtocol.protocolFor(species)
        return .ok(
            .init(
                body: .json(
                    .init(
                        species: species.rawValue, source: found?.source,
                        primaryCourseIntervalDays: VaccinationProtocol.primaryCourseIntervalDays,
                        primaryCourseEndsAtWeeks: VaccinationProtocol.primaryCourseEndsAtWeeks,
                        vaccines: (found?.vaccines ?? []).map {
                            .init(
                                name: $0.name, aliases: $0.aliases, core: $0.core, intervalDays: $0.intervalDays,
                                note: $0.note)
                        }))))
    }
}
