import Foundation
import OpenAPIRuntime
import PracticeServices
import Scheduling
import SharedKernel
import Specialists
import StoragePorts

extension APIHandler {
    // MARK: - Clinicians

    func listSpecialists(_ input: Operations.ListSpecialists.Input) async throws -> Operations.ListSpecialists.Output {
        let caller = try await authorize(.readRecords, action: .clinicianList, resourceType: .clinician)
        let clinicians = try await store.clinicians(
            scope: caller.scope, includingRetired: input.query.includeRetired == true)
        return .ok(.init(body: .json(.init(items: clinicians.map { Components.Schemas.Specialist($0) }))))
    }

    func createSpecialist(_ input: Operations.CreateSpecialist.Input) async throws -> Operations.CreateSpecialist.Output
    {
        let caller = try await authorize(.manageSchedule, action: .clinicianCreate, resourceType: .clinician)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var errors = FieldErrorCollector()
        let expertise = Expertise.list(wire: body.expertise ?? [], errors: &errors)
        var userID: UserID?
        if let text = body.userId {
            userID = UserID(uuidString: text)
            if userID == nil { errors.add("userId", "must be a UUID") }
        }
        var preferences = CaseloadPreferences()
        do {
            preferences =
                try body.preferences.map { try CaseloadPreferences(wire: $0, field: "preferences") } ?? preferences
        } catch let error as ValidationError {
            error.errors.forEach { errors.add($0.field, $0.message) }
        }
        let id = Identifier<Clinician>()
        var availability: ClinicianAvailability?
        do {
            availability = try body.availability.map { try ClinicianAvailability(wire: $0, clinicianID: id) }
        } catch let error as ValidationError {
            error.errors.forEach { errors.add("availability.\($0.field)", $0.message) }
        }
        try errors.throwIfAny()
        let clinician = Clinician(
            id: id, userID: userID, displayName: body.displayName, credentials: body.credentials ?? "",
            expertise: expertise,
            species: Set(body.species.compactMap { Species(rawValue: $0.rawValue) }),
            maxAppointmentsPerDay: body.maxAppointmentsPerDay, complexityCeiling: body.complexityCeiling,
            preferences: preferences)
        let stored = try await store.createClinician(
            clinician, availability: availability, scope: caller.scope,
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    func getSpecialist(_ input: Operations.GetSpecialist.Input) async throws -> Operations.GetSpecialist.Output {
        let caller = try await authorize(
            .readRecords, action: .clinicianRead, resourceType: .clinician, resourceID: input.path.clinicianId)
        let stored = try await store.clinician(
            scope: caller.scope, id: try Self.identifier(input.path.clinicianId, resource: "clinician"))
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    func updateSpecialist(_ input: Operations.UpdateSpecialist.Input) async throws -> Operations.UpdateSpecialist.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .clinicianUpdate, resourceType: .clinician, resourceID: input.path.clinicianId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let id: Identifier<Clinician> = try Self.identifier(input.path.clinicianId, resource: "clinician")
        var errors = FieldErrorCollector()
        let expertise = body.expertise.map { Expertise.list(wire: $0, errors: &errors) }
        var preferences: CaseloadPreferences?
        do {
            preferences = try body.preferences.map { try CaseloadPreferences(wire: $0, field: "preferences") }
        } catch let error as ValidationError {
            error.errors.forEach { errors.add($0.field, $0.message) }
        }
        try errors.throwIfAny()
        let change = ClinicianChange(
            displayName: body.displayName, credentials: body.credentials, expertise: expertise,
            species: body.species.map { Set($0.compactMap { Species(rawValue: $0.rawValue) }) },
            maxAppointmentsPerDay: body.maxAppointmentsPerDay, complexityCeiling: body.complexityCeiling,
            preferences: preferences)
        guard !change.fieldNames.isEmpty else {
            throw ValidationError(field: "body", message: "names no field to change")
        }
        let stored = try await store.updateClinician(
            id: id, change: change, scope: caller.scope,
            expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    func retireSpecialist(_ input: Operations.RetireSpecialist.Input) async throws -> Operations.RetireSpecialist.Output
    {
        let caller = try await authorize(
            .manageSchedule, action: .clinicianRetire, resourceType: .clinician, resourceID: input.path.clinicianId)
        let id: Identifier<Clinician> = try Self.identifier(input.path.clinicianId, resource: "clinician")
        let retirement = try await store.retireClinician(
            id: id, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(
            .init(
                headers: .init(eTag: Self.etag(retirement.clinician.version)),
                body: .json(
                    .init(
                        specialist: .init(retirement.clinician),
                        appointmentsToReplan: retirement.appointmentsToReplan.map { Components.Schemas.Appointment($0) }
                    ))))
    }
}
