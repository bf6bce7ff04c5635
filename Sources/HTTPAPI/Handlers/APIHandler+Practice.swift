import Foundation
import OpenAPIRuntime
import PracticeServices
import Scheduling
import SharedKernel
import StoragePorts

extension APIHandler {
    // MARK: - Settings

    func getPractice(_ input: Operations.GetPractice.Input) async throws -> Operations.GetPractice.Output {
        let caller = try caller()
        let stored = try await store.versionedPractice(scope: caller.scope)
        return .ok(.init(headers: .init(eTag: Self.etag(stored.version)), body: .json(.init(stored))))
    }

    func updatePractice(_ input: Operations.UpdatePractice.Input) async throws -> Operations.UpdatePractice.Output {
        let caller = try await authorize(
            .managePractice, action: .practiceUpdate, resourceType: .practice,
            resourceID: caller().account.practiceID.description)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var errors = FieldErrorCollector()
        let hours = body.openingHours.map { Self.openingHours($0, errors: &errors) }
        let services = body.services.map { list in
            list.enumerated().compactMap { index, text -> Specialty? in
                guard let specialty = Specialty(rawValue: text) else {
                    errors.add("services[\(index)]", "'\(text)' is not a specialty")
                    return nil
                }
                return specialty
            }
        }
        try errors.throwIfAny()
        let change = PracticeSettingsChange(
            name: body.name, timeZone: body.timeZone, openingHours: hours, phone: body.phone, address: body.address,
            slotGridMinutes: body.slotGridMinutes, defaultBufferMinutes: body.defaultBufferMinutes,
            services: services, retentionYears: body.retentionYears,
            secondFactorRoles: body.secondFactorRoles.map { $0.map(Role.init) })
        guard !change.fieldNames.isEmpty else {
            throw ValidationError(field: "body", message: "names no setting to change")
        }
        let result = try await store.updatePractice(
            change, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .ok(
            .init(
                headers: .init(eTag: Self.etag(result.practice.version)),
                body: .json(
                    .init(
                        practice: .init(result.practice),
                        appointmentsToReplan: result.appointmentsToReplan.map { Components.Schemas.Appointment($0) }))))
    }

    /// Opening hours from the wire (`HH:mm`), each bad time named by index.
    static func openingHours(_ wire: [Components.Schemas.OpeningHours], errors: inout FieldErrorCollector)
        -> [OpeningHours]
    {
        wire.enumerated().compactMap { index, item in
            let opens = WallClock.minutes(
                item.opens, field: "openingHours[\(index)].opens", allowEndOfDay: false, errors: &errors)
            let closes = WallClock.minutes(
                item.closes, field: "openingHours[\(index)].closes", allowEndOfDay: true, errors: &errors)
            guard let opens, let closes else { return nil }
            return OpeningHours(weekday: item.weekday, opensMinute: opens, closesMinute: closes)
        }
    }

    // MARK: - Closures

    func listClosures(_ input: Operations.ListClosures.Input) async throws -> Operations.ListClosures.Output {
        let caller = try caller()
        let practice = try await store.practice(scope: caller.scope)
        return .ok(.init(body: .json(.init(items: practice.closures.map(Components.Schemas.Closure.init)))))
    }

    func addClosure(_ input: Operations.AddClosure.Input) async throws -> Operations.AddClosure.Output {
        let caller = try await authorize(
            .managePractice, action: .practiceClosureAdd, resourceType: .practice,
            resourceID: caller().account.practiceID.description)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var errors = FieldErrorCollector()
        let first = LocalDate(body.firstDay)
        if first == nil { errors.add("firstDay", "must be a date like 2026-12-24") }
        var last = first
        if let text = body.lastDay {
            last = LocalDate(text)
            if last == nil { errors.add("lastDay", "must be a date like 2026-12-24") }
        }
        let from = body.from.map { WallClock.minutes($0, field: "from", allowEndOfDay: false, errors: &errors) } ?? 0
        let until =
            body.until.map { WallClock.minutes($0, field: "until", allowEndOfDay: true, errors: &errors) } ?? 1440
        try errors.throwIfAny()
        guard let first, let last, let from, let until else {
            throw ValidationError(field: "firstDay", message: "must be a date like 2026-12-24")
        }
        let closure = PracticeClosure(
            firstDay: first, lastDay: last, fromMinute: from, untilMinute: until,
            recursYearly: body.recursYearly ?? false,
            reason: body.reason.trimmingCharacters(in: .whitespacesAndNewlines))
        let result = try await store.addClosure(
            closure, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch),
            idempotencyKey: try Self.idempotencyKey(input.headers.idempotencyKey, body: body))
        return .created(
            .init(
                headers: .init(eTag: Self.etag(result.practice.version)),
                body: .json(
                    .init(
                        closure: .init(result.closure),
                        appointmentsToReplan: result.appointmentsToReplan.map { Components.Schemas.Appointment($0) }))))
    }

    func removeClosure(_ input: Operations.RemoveClosure.Input) async throws -> Operations.RemoveClosure.Output {
        let caller = try await authorize(
            .managePractice, action: .practiceClosureRemove, resourceType: .practice,
            resourceID: caller().account.practiceID.description)
        let id: Identifier<PracticeClosure> = try Self.identifier(input.path.closureId, resource: "closure")
        let stored = try await store.removeClosure(
            id, scope: caller.scope, expectedVersion: try Self.expectedVersion(input.headers.ifMatch))
        return .noContent(.init(headers: .init(eTag: Self.etag(stored.version))))
    }
}
