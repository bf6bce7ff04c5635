import Foundation
import OpenAPIRuntime
import PracticeServices
import SharedKernel
import StoragePorts

/// Implements the operations generated from `openapi.yaml`. Each operation lives in an
/// extension named for its resource (`APIHandler+Users.swift`, …).
///
/// It translates the whole contract, so its store is every port (`Store`); the services it
/// hands work to take the ports they use.
struct APIHandler<Store: PracticeStore>: APIProtocol {
    let store: Store
    let accounts: AccountService
    /// The practice's live stream (ended for a session at sign-out).
    let live: LiveEventHub
    /// Indexed practice histories reused between analytics requests.
    let analyticsCache: AnalyticsCache
    /// One optimization at a time per practice.
    let optimizations = OptimizationGate()

    // MARK: - Access

    /// The signed-in caller; the authentication middleware guarantees one under `/api/v1`.
    /// Throws the request's out-of-bounds fields, held back by the contract check, first.
    func caller() throws -> Caller {
        let caller = try signedIn()
        guard caller.mayAct else { throw Self.secondFactorFirst }
        if let deferred = RequestState.deferredValidation { throw ValidationError(deferred) }
        return caller
    }

    /// The signed-in caller, even one whose session must set up a second factor first: for
    /// signing out, reading who is signed in and setting one up.
    func enrollingCaller() throws -> Caller {
        let caller = try signedIn()
        if let deferred = RequestState.deferredValidation { throw ValidationError(deferred) }
        return caller
    }

    /// The refusal of everything but setting up a second factor, while the practice asks one
    /// of the caller's role and they have none.
    static var secondFactorFirst: ServiceRefusal { .secondFactorSetUpRequired }

    /// The signed-in caller, before the request's fields are judged.
    private func signedIn() throws -> Caller {
        guard let caller = RequestState.caller else { throw ServiceRefusal.unauthorized("Sign in first.") }
        return caller
    }

    /// The caller, if their role grants `permission`; otherwise the refusal is audited (naming
    /// the missing permission) and 403 thrown. `refusal` words what was refused for the
    /// problem detail ("Your role may not …"); by default the action with dots as spaces.
    func authorize(
        _ permission: Permission, action: AuditAction, resourceType: ResourceKind, resourceID: String? = nil,
        refusal: String? = nil
    ) async throws -> Caller {
        let caller = try signedIn()
        guard caller.mayAct else {
            try await store.recordAudit(
                AuditRecord(
                    action: action, resourceType: resourceType, resourceID: resourceID, outcome: .denied,
                    detail: "second factor required, not yet set up"),
                scope: caller.scope)
            throw Self.secondFactorFirst
        }
        guard caller.account.role.allows(permission) else {
            try await store.recordAudit(
                AuditRecord(
                    action: action, resourceType: resourceType, resourceID: resourceID, outcome: .denied,
                    detail: "role=\(caller.account.role.rawValue) lacks=\(permission.rawValue)"),
                scope: caller.scope)
            throw DomainError.forbidden(action: refusal ?? action.name.replacingOccurrences(of: ".", with: " "))
        }
        // Allowed: now the request's out-of-bounds fields, if the contract found any.
        return try self.caller()
    }

    /// The caller, if their role grants every one of `permissions`; the first missing one is
    /// refused as ``authorize(_:action:resourceType:resourceID:)`` refuses it (audited, 403),
    /// before anything is changed.
    func authorize(
        all permissions: [Permission], action: AuditAction, resourceType: ResourceKind, resourceID: String? = nil,
        refusal: String? = nil
    ) async throws -> Caller {
        for permission in permissions {
            _ = try await authorize(
                permission, action: action, resourceType: resourceType, resourceID: resourceID, refusal: refusal)
        }
        return try caller()
    }

    /// Audits a successful read of patient data that the store did not audit itself (lists
    /// and views assembled from several reads: the schedule, the ER board, matching, plans).
    func auditRead(
        _ caller: Caller, action: AuditAction, resourceType: ResourceKind, resourceID: String? = nil,
        detail: String? = nil
    ) async throws {
        try await store.recordAudit(
            AuditRecord(action: action, resourceType: resourceType, resourceID: resourceID, detail: detail),
            scope: caller.scope)
    }

    /// Validates `limit` (1–200, default 50).
    static func pageLimit(_ limit: Int?) throws -> Int {
        guard let limit else { return 50 }
        guard (1...200).contains(limit) else {
            throw ValidationError(field: "limit", message: "must be between 1 and 200")
        }
        return limit
    }

    /// Parses an `If-Match` header into a version; `nil` when absent.
    static func expectedVersion(_ ifMatch: String?) throws -> Int? {
        guard let ifMatch else { return nil }
        let trimmed = ifMatch.trimmingCharacters(in: CharacterSet(charactersIn: "\" W/"))
        guard let version = Int(trimmed) else {
            throw APIError.badRequest(field: "If-Match", message: "must be an ETag returned by the server")
        }
        return version
    }

    /// Parses a path UUID; an unparsable id is simply not found.
    static func identifier<T>(_ text: String, resource: String) throws -> Identifier<T> {
        guard let id = Identifier<T>(uuidString: text) else { throw DomainError.notFound(resource: resource) }
        return id
    }
}
