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
            email: body.email.trimmingCharacters(in: .whitespaces), password: body.password, code: body.code,
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
            return .ok(
                .init(
                    body: .json(
                        .init(
                            expiresAt: signedIn.expiresAt, user: .init(signedIn.account),
                            mustEnrolSecondFactor: signedIn.assurance.mustEnrolSecondFactor))))
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        token: signedIn.token, expiresAt: signedIn.expiresAt, user: .init(signedIn.account),
                        mustEnrolSecondFactor: signedIn.assurance.mustEnrolSecondFactor))))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let caller = try enrollingCaller()
        try await accounts.logout(caller)
        live.endSession(tokenHash: caller.tokenHash)
        // Whichever way this session was presented, a browser keeps no cookie of it.
        SessionCookieInstructions.current?.clear()
        return .noContent(.init())
    }

    func getMe(_ input: Operations.GetMe.Input) async throws -> Operations.GetMe.Output {
        let caller = try enrollingCaller()
        let practice = try await store.practice(scope: caller.scope)
        // Until a required second factor is set up the session holds no permission.
        let permissions = Permission.allCases.filter { caller.mayAct && caller.account.role.allows($0) }.map(\.rawValue)
        return .ok(
            .init(
                body: .json(
                    .init(
                        user: .init(caller.account), practice: .init(practice), permissions: permissions,
                        sessionExpiresAt: caller.sessionExpiresAt, offlineKey: accounts.offlineDataKey(for: caller),
                        mustEnrolSecondFactor: caller.assurance.mustEnrolSecondFactor,
                        secondFactor: caller.assurance.secondFactor))))
    }

    // MARK: - Second factor

    func getSecondFactor(_ input: Operations.GetSecondFactor.Input) async throws -> Operations.GetSecondFactor.Output {
        let status = try await accounts.secondFactorStatus(for: try enrollingCaller())
        return .ok(
            .init(
                body: .json(
                    .init(
                        enrolled: status.enrolled, enrolledAt: status.enrolledAt,
                        recoveryCodesLeft: status.recoveryCodesLeft, required: status.required,
                        mustEnrol: status.mustEnrol))))
    }

    func startSecondFactor(_ input: Operations.StartSecondFactor.Input) async throws
        -> Operations.StartSecondFactor.Output
    {
        let caller = try enrollingCaller()
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let enrolment = try await accounts.startSecondFactor(
            for: caller, password: body.password, clientAddress: RequestState.clientAddress)
        return .created(.init(body: .json(.init(secret: enrolment.secret, uri: enrolment.uri))))
    }

    func confirmSecondFactor(_ input: Operations.ConfirmSecondFactor.Input) async throws
        -> Operations.ConfirmSecondFactor.Output
    {
        let caller = try enrollingCaller()
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let codes = try await accounts.confirmSecondFactor(for: caller, code: body.code)
        return .ok(.init(body: .json(.init(recoveryCodes: codes))))
    }

    func resetSecondFactor(_ input: Operations.ResetSecondFactor.Input) async throws
        -> Operations.ResetSecondFactor.Output
    {
        let caller = try await authorize(
            .manageStaff, action: .authSecondFactorReset, resourceType: "user", resourceID: input.path.userId)
        try await accounts.resetSecondFactor(
            of: try Self.identifier(input.path.userId, resource: "user"), by: caller)
        return .noContent(.init())
    }

}
