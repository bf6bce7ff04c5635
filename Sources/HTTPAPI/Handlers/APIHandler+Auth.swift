import Foundation
import PracticeServices
import SharedKernel
import StoragePorts

extension APIHandler {
    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        var errors = FieldErrorCollector()
        if body.email.trimmingCharacters(in: .whitespaces).isEmpty { errors.add("email", "is required") }
        if body.password.isEmpty { errors.add("password", "is required") }
        try errors.throwIfAny()
        let practiceID = try body.practiceId.map { text -> PracticeID in
            guard let uuid = UUIDText.parse(text) else {
                throw ValidationError(field: "practiceId", message: "must be a UUID")
            }
            return PracticeID(uuid)
        }
        let cookies = SessionCookieInstructions.current
        let signedIn = try await accounts.login(
            email: body.email.trimmingCharacters(in: .whitespaces), password: body.password,
            practiceID: practiceID, clientAddress: RequestState.clientAddress,
            deviceCookie: cookies?.deviceCookie, requestID: RequestState.requestID)
        // Every client that keeps cookies is remembered, so its later sign-ins do not count
        // against an address it shares (see SignInDevices).
        cookies?.remember(device: signedIn.deviceCookie)
        if body.session == .cookie {
            // A browser: the token goes only into the HttpOnly cookie, never to the page's scripts.
            guard let cookies else {
                throw APIError.badRequest(field: "session", message: "cookie sessions are not available here")
            }
            cookies.start(token: signedIn.token)
            return .ok(.init(body: .json(.init(expiresAt: signedIn.expiresAt, user: .init(signedIn.account)))))
        }
        return .ok(
            .init(
                body: .json(.init(token: signedIn.token, expiresAt: signedIn.expiresAt, user: .init(signedIn.account))))
        )
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let caller = try caller()
        try await accounts.logout(caller)
        live.endSession(tokenHash: caller.tokenHash)
        // Whichever way this session was presented, a browser keeps no cookie of it.
        SessionCookieInstructions.current?.clear()
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try caller()
        let practice = try await store.practice(scope: caller.scope)
        let permissions = Permission.allCases.filter { caller.account.role.allows($0) }.map(\.rawValue)
        return .ok(
            .init(
                body: .json(
                    .init(
                        user: .init(caller.account), practice: .init(practice), permissions: permissions,
                        sessionExpiresAt: caller.sessionExpiresAt, offlineKey: accounts.offlineDataKey(for: caller)))))
    }

}
