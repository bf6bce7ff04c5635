import Foundation
import OpenAPIRuntime
import PatientRecords
import PracticeServices
import Scheduling
import SharedKernel
import Specialists
import StoragePorts
import Triage

extension APIHandler {
    func matchClinicians(_ input: Operations.MatchClinicians.Input) async throws -> Operations.MatchClinicians.Output {
        let caller = try await authorize(.book, action: .matchingRank, resourceType: .clinician)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var errors = FieldErrorCollector()
        let specialties = body.specialties.enumerated().compactMap { index, text -> Specialty? in
            guard let specialty = Specialty(rawValue: text) else {
                errors.add("specialties[\(index)]", "'\(text)' is not a specialty")
                return nil
            }
            return specialty
        }
        var patientID: UUID?
        if let text = body.patientId {
            patientID = UUIDText.parse(text)
            if patientID == nil { errors.add("patientId", "must be a UUID") }
        }
        try errors.throwIfAny()
        let (result, _) = try await scheduling.match(
            scope: caller.scope, specialties: specialties, species: Species(rawValue: body.species.rawValue)!,
            complexity: body.complexity, maxWaitMinutes: body.maxWaitMinutes, patientID: patientID)
        // With a patient, the ranking reads who saw them before: a read of their record.
        if let patientID {
            try await auditRead(
                caller, action: .matchingRank, resourceType: .patient, resourceID: UUIDText.lowercase(patientID))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        ranked: result.ranked.map(Components.Schemas.RankedClinician.init),
                        excluded: result.excluded.map {
                            .init(
                                clinicianId: $0.clinicianID.description, displayName: $0.displayName, reason: $0.reason)
                        }))))
    }

    /// One call for an arrival: the patient (existing or new), the triage, ranked clinicians and
    /// offered slots within the maximum wait. Red and orange patients join the ER board at once
    /// with the on-duty emergency clinician instead of a future slot.
    func intake(_ input: Operations.Intake.Input) async throws -> Operations.Intake.Output {
        let caller = try await authorize(.triage, action: .intake, resourceType: .patient)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let caseJSON = try JSONEncoder().encode(body._case)
        let triageCase: TriageCase
        do { triageCase = try TriageCase(jsonData: caseJSON) } catch {
            throw ValidationError(
                error.errors.map {
                    FieldError(field: $0.field == "$" ? "case" : "case.\($0.field)", message: $0.message)
                })
        }
        let patientID = try await intakePatient(body, species: triageCase.species, scope: caller.scope)
        let now = store.clock.now()
        let result = try await store.triage(
            triageCase, patientID: patientID.rawValue, scope: caller.scope,
            engine: TriageEngine(clock: store.clock), arrival: now)
        let emergency = result.level.isEmergency
        let specialties = result.specialties.map(\.specialty)
        // Red's wait is zero: "now" means within one booking grid step.
        let maxWait = max(result.level.maxWaitMinutes, 5)
        let (snapshot, searched) = try await scheduling.matchSnapshot(scope: caller.scope, maxWaitMinutes: maxWait)
        let type = emergency ? nil : intakeType(body.appointmentTypeId, specialties: specialties, types: snapshot.types)
        var minutes: Int?
        if let type {
            minutes = try await scheduling.predictedMinutes(
                scope: caller.scope, type: type, species: triageCase.species, clinicianID: nil)
        }
        // Each clinician's "earliest" is found with the very query the offers below use.
        let match = try await scheduling.rank(
            snapshot: snapshot, scope: caller.scope, specialties: specialties, species: triageCase.species,
            complexity: result.complexity.score, maxWaitMinutes: maxWait, patientID: patientID.rawValue
        ) { clinician in
            type.map {
                SlotQuery(range: searched, appointmentType: $0, durationMinutes: minutes, clinicianID: clinician)
            }
                ?? SlotQuery(
                    range: searched, durationMinutes: SchedulingService.matchProbeMinutes, clinicianID: clinician)
        }
        // The ranking is kept with the assessment, so a booking made from this intake records
        // what it was booked on.
        let ranking = IntakeRanking(
            appointmentTypeID: type?.id,
            ranked: match.ranked.map {
                RankedCandidate(
                    clinicianID: $0.clinicianID.rawValue, score: $0.score,
                    reasons: $0.parts.map {
                        BookingReason(factor: $0.factor.rawValue, contribution: $0.contribution, detail: $0.detail)
                    })
            })
        // The board's change is written to the practice's event log in the same transaction.
        let (stored, _) = try await store.recordAssessment(
            scope: caller.scope, patientID: patientID.rawValue, caseJSON: caseJSON, result: result,
            arrival: now, admitToQueue: emergency, intakeRanking: ranking, idempotency: nil)

        var output = Components.Schemas.IntakeResponse(
            patientId: patientID.description, assessmentId: stored.id.description, triage: try Self.wireResult(result),
            emergency: emergency,
            clinicians: match.ranked.map(Components.Schemas.RankedClinician.init), offeredSlots: [])
        let notOffered = specialties.filter { !snapshot.practice.offers($0) }
        if !notOffered.isEmpty { output.servicesNotOffered = notOffered.map(\.rawValue) }
        if emergency {
            // The on-duty emergency clinician: the best-ranked emergency specialist working now, else the best-ranked
            // working now.
            let working = { (candidate: ClinicianMatch) -> Bool in
                guard let minute = TimeRange(start: now, end: now.addingTimeInterval(60)) else { return false }
                return snapshot.workingWindows(candidate.clinicianID, overlapping: minute).contains { $0.contains(now) }
            }
            let isEmergencySpecialist = { (candidate: ClinicianMatch) in
                snapshot.clinicians.first { $0.id == candidate.clinicianID }?.expertise.contains {
                    $0.specialty == .emergencyCriticalCare
                } ?? false
            }
            let onDuty =
                match.ranked.first { working($0) && isEmergencySpecialist($0) } ?? match.ranked.first(where: working)
                ?? match.ranked.first
            output.onDutyClinician = onDuty.map(Components.Schemas.RankedClinician.init)
            return .ok(.init(body: .json(output)))
        }
        guard let type, let minutes else { return .ok(.init(body: .json(output))) }
        guard let window = TimeRange(start: now, end: now.addingTimeInterval(Double(maxWait) * 60)) else {
            return .ok(.init(body: .json(output)))
        }
        var offered: [FreeSlot] = []
        // Clinicians who prefer this kind of appointment are offered first, each group in rank order.
        let prefers = { (candidate: ClinicianMatch) in
            snapshot.clinicians.first { $0.id == candidate.clinicianID }?.preferences.prefers(
                appointmentTypeID: type.id.rawValue) ?? false
        }
        let candidates = match.ranked.filter(prefers) + match.ranked.filter { !prefers($0) }
        for candidate in candidates where offered.count < 5 {
            var query = SlotQuery(
                range: window, appointmentType: type, durationMinutes: minutes,
                clinicianID: candidate.clinicianID.rawValue)
            query.limit = 2
            offered += try snapshot.finder.slots(for: query).filter { $0.start >= now }
        }
        output.offeredSlots = offered.prefix(5).map { Components.Schemas.Slot($0, snapshot: snapshot) }
        output.appointmentTypeId = type.id.description
        output.durationMinutes = minutes
        return .ok(.init(body: .json(output)))
    }

    /// The patient of an intake: an existing one of this practice, or a new owner and patient.
    private func intakePatient(_ body: Components.Schemas.IntakeRequest, species: Species, scope: AccessScope)
        async throws -> Identifier<Patient>
    {
        if let text = body.patientId {
            let id: Identifier<Patient> = try Self.identifier(text, resource: "patient")
            _ = try await store.patient(scope: scope, id: id)
            return id
        }
        guard let new = body.newPatient else {
            throw ValidationError(field: "patientId", message: "give an existing patientId or a newPatient")
        }
        guard new.patient.species.rawValue == species.rawValue else {
            throw ValidationError(field: "case.species", message: "must match newPatient.patient.species")
        }
        let owner = try await store.createOwner(Owner(wire: new.owner, id: Identifier()), scope: scope)
        let input = Components.Schemas.PatientInput(
            name: new.patient.name, species: new.patient.species, breed: new.patient.breed,
            sex: new.patient.sex.flatMap { .init(rawValue: $0.rawValue) }, birthDate: new.patient.birthDate,
            ownerId: owner.id.description)
        return try await store.createPatient(try Patient(wire: input, id: Identifier()), scope: scope).id
    }

    /// The appointment type of an intake: the one asked for, else the first whose specialty is
    /// the case's best, else a general one (no specialty and no special room).
    private func intakeType(_ requested: String?, specialties: [Specialty], types: [AppointmentType])
        -> AppointmentType?
    {
        if let requested, let type = types.first(where: { $0.id.description == requested.lowercased() }) { return type }
        // A type chosen for the case is one still offered.
        let types = types.filter { !$0.isRetired }
        for specialty in specialties {
            if let type = types.first(where: { $0.requiredSpecialty == specialty }) { return type }
        }
        return types.first {
            $0.requiredSpecialty == nil && $0.requiredRoomType == nil
                || $0.requiredRoomType == .exam && $0.requiredSpecialty == nil
        }
    }
}
