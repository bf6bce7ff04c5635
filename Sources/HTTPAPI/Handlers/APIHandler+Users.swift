import Foundation
import SharedKernel
import StoragePorts

extension APIHandler {
    func listUsers(_ input: Operations.ListUsers.Input) async throws -> Operations.ListUsers.Output {
        let caller = try await authorize(.manageStaff, action: .userList, resourceType: .user)
        let page = try await store.users(
            scope: caller.scope, limit: try Self.pageLimit(input.query.limit), after: input.query.cursor)
        return .ok(
            .init(body: .json(.init(items: page.items.map(Components.Schemas.User.init), nextCursor: page.nextCursor))))
    }

    func createUser(_ input: Operations.CreateUser.Input) async throws -> Operations.CreateUser.Output {
        let caller = try await authorize(.manageStaff, action: .userCreate, resourceType: .user)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let account = try await accounts.createUser(
            scope: caller.scope, email: body.email, displayName: body.displayName,
            role: Role(body.role), password: body.password)
        return .created(.init(headers: .init(eTag: "\"\(account.version)\""), body: .json(.init(account))))
    }

    func getUser(_ input: Operations.GetUser.Input) async throws -> Operations.GetUser.Output {
        let caller = try await authorize(
            .manageStaff, action: .userRead, resourceType: .user, resourceID: input.path.userId)
        let account = try await store.user(
            scope: caller.scope, id: try Self.identifier(input.path.userId, resource: "user"))
        return .ok(.init(headers: .init(eTag: "\"\(account.version)\""), body: .json(.init(account))))
    }

    func updateUser(_ input: Operations.UpdateUser.Input) async throws -> Operations.UpdateUser.Output {
        let caller = try await authorize(
            .manageStaff, action: .userUpdate, resourceType: .user, resourceID: input.path.userId)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let id: UserID = try Self.identifier(input.path.userId, resource: "user")
        if id == caller.account.id,
            body.disabled == true || (body.role.map(Role.init) ?? .administrator) != .administrator
        {
            // A well-formed request the caller may not make on this account: forbidden, and
            // audited like every refusal, so a practice cannot lock itself out.
            try await store.recordAudit(
                AuditRecord(
                    action: .userUpdate, resourceType: .user, resourceID: input.path.userId, outcome: .denied,
                    detail: "own account"), scope: caller.scope)
            throw DomainError.forbidden(action: "disable or demote your own account")
        }
        let account = try await store.updateUser(
            scope: caller.scope, id: id, expectedVersion: try Self.expectedVersion(input.headers.ifMatch),
            role: body.role.map(Role.init), disabled: body.disabled)
        // A disabled account's streams end now; a new role's stream must be filtered anew.
        if body.disabled == true || body.role != nil { live.endSessions(userID: id) }
        return .ok(.init(headers: .init(eTag: "\"\(account.version)\""), body: .json(.init(account))))
    }
}
