import Crypto
import Foundation
import PatientRecords
import SharedKernel
import StoragePorts

extension APIHandler {
    // MARK: - Owners

    func createOwner(_ input: Operations.CreateOwner.Input) async throws -> Operations.CreateOwner.Output {
        let caller = try await authorize(.writeRecords, action: .ownerCreate, resourceType: .owner)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let owner = Owner(wire: body, id: Identifier())
        let (stored, _) = try await store.createOwner(
            owner, scope: caller.scope,
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    func getOwner(_ input: Operations.GetOwner.Input) async throws -> Operations.GetOwner.Output {
        let caller = try await authorize(
            .readRecords, action: .ownerRead, resourceType: .owner, resourceID: input.path.ownerId)
        let stored = try await store.owner(
            scope: caller.scope, id: try Self.identifier(input.path.ownerId, resource: "owner"))
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    func updateOwner(_ input: Operations.UpdateOwner.Input) async throws -> Operations.UpdateOwner.Output {
        let caller = try await authorize(
            .writeRecords, action: .ownerUpdate, resourceType: .owner, resourceID: input.path.ownerId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let owner = Owner(wire: body, id: try Self.identifier(input.path.ownerId, resource: "owner"))
        let stored = try await store.updateOwner(
            owner, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    // MARK: - Patients

    func createPatient(_ input: Operations.CreatePatient.Input) async throws -> Operations.CreatePatient.Output {
        let caller = try await authorize(.writeRecords, action: .patientCreate, resourceType: .patient)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patient = try Patient(wire: body, id: Identifier())
        let (stored, _) = try await store.createPatient(
            patient, scope: caller.scope,
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(
            .init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored, now: store.clock.now()))))
    }

    func getPatient(_ input: Operations.GetPatient.Input) async throws -> Operations.GetPatient.Output {
        let caller = try await authorize(
            .readRecords, action: .patientRead, resourceType: .patient, resourceID: input.path.patientId)
        let stored = try await store.patient(
            scope: caller.scope, id: try Self.identifier(input.path.patientId, resource: "patient"))
        return .ok(
            .init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored, now: store.clock.now()))))
    }

    func updatePatient(_ input: Operations.UpdatePatient.Input) async throws -> Operations.UpdatePatient.Output {
        let caller = try await authorize(
            .writeRecords, action: .patientUpdate, resourceType: .patient, resourceID: input.path.patientId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let patient = try Patient(wire: body, id: try Self.identifier(input.path.patientId, resource: "patient"))
        let stored = try await store.updatePatient(
            patient, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(
            .init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored, now: store.clock.now()))))
    }

    func searchPatients(_ input: Operations.SearchPatients.Input) async throws -> Operations.SearchPatients.Output {
        let caller = try await authorize(.readRecords, action: .patientSearch, resourceType: .patient)
        let query = PatientQuery(
            text: input.query.q, species: input.query.species.flatMap { Species(rawValue: $0.rawValue) },
            status: input.query.status.flatMap { Patient.Status(rawValue: $0.rawValue) })
        let page = try await store.searchPatients(
            scope: caller.scope, query: query, limit: try Self.pageLimit(input.query.limit), after: input.query.cursor)
        let now = store.clock.now()
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: page.items.map { .init(patient: .init($0.patient, now: now), ownerName: $0.ownerName) },
                        nextCursor: page.nextCursor))))
    }

    // MARK: - Helpers

    static func etag(_ version: Int) -> String { "\"\(version)\"" }

    /// The idempotency key with a fingerprint of the request body (canonical JSON).
    static func idempotencyKey<Body: Encodable>(_ key: String?, body: Body) throws -> IdempotencyKey? {
        guard let key else { return nil }
        guard !key.isEmpty, key.count <= 200 else {
            throw APIError.badRequest(field: "Idempotency-Key", message: "must be 1 to 200 characters")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let digest = SHA256.hash(data: try encoder.encode(body))
        return IdempotencyKey(key: key, fingerprint: Hex.encode(digest))
    }
}

extension APIHandler {
    // MARK: - Possible duplicates

    func findPossibleDuplicates(_ input: Operations.FindPossibleDuplicates.Input) async throws
        -> Operations.FindPossibleDuplicates.Output
    {
        let caller = try await authorize(.readRecords, action: .patientSearch, resourceType: .patient)
        let query = input.query
        let wanted = RegistrationDetails(
            patientName: query.patientName, species: query.species.flatMap { Species(rawValue: $0.rawValue) },
            microchip: query.microchip, ownerName: query.ownerName, ownerPhone: query.ownerPhone,
            ownerEmail: query.ownerEmail)
        var found: [Identifier<Patient>: PatientSummary] = [:]
        for term in wanted.searches {
            for item in try await store.searchPatients(
                scope: caller.scope, query: PatientQuery(text: term), limit: 20, after: nil
            ).items {
                found[item.patient.value.id] = item
            }
        }
        var owners: [Identifier<Owner>: Owner] = [:]
        for ownerID in Set(found.values.map(\.patient.value.ownerID)) {
            owners[ownerID] = try? await store.owner(scope: caller.scope, id: ownerID).value
        }
        let now = store.clock.now()
        typealias Item = Operations.FindPossibleDuplicates.Output.Ok.Body.JsonPayload.ItemsPayloadPayload
        var ranked: [(summary: PatientSummary, reasons: [DuplicateReason])] = []
        for summary in found.values {
            let reasons = wanted.reasons(summary.patient.value, owner: owners[summary.patient.value.ownerID])
            if !reasons.isEmpty { ranked.append((summary, reasons)) }
        }
        ranked.sort { left, right in
            left.reasons.count != right.reasons.count
                ? left.reasons.count > right.reasons.count
                : left.summary.patient.value.name < right.summary.patient.value.name
        }
        let items: [Item] = ranked.prefix(8).map { entry in
            Item(
                patient: Components.Schemas.Patient(entry.summary.patient, now: now),
                ownerName: entry.summary.ownerName,
                reasons: entry.reasons.compactMap { Item.ReasonsPayloadPayload(rawValue: $0.rawValue) })
        }
        return .ok(.init(body: .json(.init(items: items))))
    }
}
