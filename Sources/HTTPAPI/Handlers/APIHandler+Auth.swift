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
            passkey: try body.passkey.map(Self.passkeyAssertion), practiceID: practiceID,
            clientAddress: RequestState.clientAddress,
            deviceCookie: cookies?.deviceCookie, workstation: cookies?.workstationCookie,
            requestID: RequestState.requestID)
        return .ok(.init(body: .json(try Self.answer(signedIn, cookieSession: body.session == .cookie))))
    }

    /// A sign-in's (or an unlock's) answer. Every client that keeps cookies is remembered, so
    /// its later sign-ins do not count against an address it shares (see SignInDevices); a
    /// browser's session goes only into the HttpOnly cookie, never to the page's scripts.
    static func answer(_ signedIn: AccountService.SignedIn, cookieSession: Bool) throws
        -> Components.Schemas.LoginResponse
    {
        let cookies = SessionCookieInstructions.current
        cookies?.remember(device: signedIn.deviceCookie)
        guard cookieSession else {
            return .init(
                token: signedIn.token, expiresAt: signedIn.expiresAt, user: .init(signedIn.account),
                mustEnrolSecondFactor: signedIn.assurance.mustEnrolSecondFactor)
        }
        guard let cookies else {
            throw APIError.badRequest(field: "session", message: "cookie sessions are not available here")
        }
        cookies.start(token: signedIn.token)
        return .init(
            expiresAt: signedIn.expiresAt, user: .init(signedIn.account),
            mustEnrolSecondFactor: signedIn.assurance.mustEnrolSecondFactor)
    }

    // MARK: - Shared devices

    func unlock(_ input: Operations.Unlock.Input) async throws -> Operations.Unlock.Output {
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let cookies = SessionCookieInstructions.current
        let signedIn = try await accounts.unlock(
            email: body.email.trimmingCharacters(in: .whitespaces), pin: body.pin,
            passkey: try body.passkey.map(Self.passkeyAssertion),
            workstation: cookies?.workstationCookie, clientAddress: RequestState.clientAddress,
            deviceCookie: cookies?.deviceCookie, requestID: RequestState.requestID)
        return .ok(.init(body: .json(try Self.answer(signedIn, cookieSession: body.session == .cookie))))
    }

    func getWorkstation(_ input: Operations.GetWorkstation.Input) async throws -> Operations.GetWorkstation.Output {
        let device = try await accounts.sharedDevice(cookie: SessionCookieInstructions.current?.workstationCookie)
        return .ok(
            .init(
                body: .json(
                    .init(registered: device != nil, name: device?.name, idleLockSeconds: device?.idleLockSeconds)))
        )
    }

    func setPin(_ input: Operations.SetPin.Input) async throws -> Operations.SetPin.Output {
        let caller = try caller()
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        try await accounts.setPin(
            body.pin, password: body.password, for: caller, clientAddress: RequestState.clientAddress)
        return .noContent(.init())
    }

    func listSharedDevices(_ input: Operations.ListSharedDevices.Input) async throws
        -> Operations.ListSharedDevices.Output
    {
        let caller = try await authorize(.manageStaff, action: .sharedDeviceList, resourceType: .sharedDevice)
        let devices = try await store.sharedDevices(scope: caller.scope)
        return .ok(.init(body: .json(.init(items: devices.map(Components.Schemas.SharedDevice.init)))))
    }

    func registerSharedDevice(_ input: Operations.RegisterSharedDevice.Input) async throws
        -> Operations.RegisterSharedDevice.Output
    {
        let caller = try await authorize(.manageStaff, action: .sharedDeviceRegister, resourceType: .sharedDevice)
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        guard let cookies = SessionCookieInstructions.current else {
            throw APIError.badRequest(field: "body", message: "a shared device is a browser that keeps cookies")
        }
        let registration = try await accounts.registerSharedDevice(
            name: body.name, idleLockSeconds: body.idleLockSeconds, by: caller)
        cookies.register(workstation: registration.cookieValue)
        return .created(.init(body: .json(.init(registration.device))))
    }

    func revokeSharedDevice(_ input: Operations.RevokeSharedDevice.Input) async throws
        -> Operations.RevokeSharedDevice.Output
    {
        let caller = try await authorize(
            .manageStaff, action: .sharedDeviceRevoke, resourceType: .sharedDevice, resourceID: input.path.deviceId)
        let id = try UUIDText.parse(input.path.deviceId).orNotFound("shared device")
        try await store.revokeSharedDevice(id: id, scope: caller.scope)
        return .noContent(.init())
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
                        enrolled: status.enrolled, passkeys: status.passkeys, enrolledAt: status.enrolledAt,
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
            .manageStaff, action: .authSecondFactorReset, resourceType: .user, resourceID: input.path.userId)
        try await accounts.resetSecondFactor(
            of: try Self.identifier(input.path.userId, resource: "user"), by: caller)
        return .noContent(.init())
    }

}

extension Components.Schemas.SharedDevice {
    init(_ device: SharedDevice) {
        self.init(
            id: UUIDText.lowercase(device.id), name: device.name, idleLockSeconds: device.idleLockSeconds,
            registeredAt: device.registeredAt, registeredBy: device.registeredBy?.description)
    }
}
