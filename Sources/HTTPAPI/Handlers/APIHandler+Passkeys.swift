import Foundation
import PracticeServices
import SharedKernel

extension APIHandler {
    func passkeyChallenge(_ input: Operations.PasskeyChallenge.Input) async throws
        -> Operations.PasskeyChallenge.Output
    {
        .ok(
            .init(
                body: .json(
                    .init(
                        challenge: accounts.passkeySignInChallenge(),
                        timeoutSeconds: Int(PasskeyChallenges.lifetime)))))
    }

    func passkeyCreationOptions(_ input: Operations.PasskeyCreationOptions.Input) async throws
        -> Operations.PasskeyCreationOptions.Output
    {
        // A session that must set up a second factor may make a passkey: it is one.
        let options = try await accounts.passkeyCreationOptions(for: try enrollingCaller())
        return .ok(
            .init(
                body: .json(
                    .init(
                        challenge: options.challenge, timeoutSeconds: Int(PasskeyChallenges.lifetime),
                        userHandle: options.userHandle, userName: options.userName, displayName: options.displayName,
                        excludeCredentials: options.excludeCredentials, algorithms: [WebAuthn.es256]))))
    }

    func addPasskey(_ input: Operations.AddPasskey.Input) async throws -> Operations.AddPasskey.Output {
        let caller = try enrollingCaller()
        guard case .json(let body) = input.body else {
            throw APIError.badRequest(field: "body", message: "must be JSON")
        }
        let added = try await accounts.addPasskey(
            name: body.name, password: body.password,
            clientDataJSON: try Self.base64url(body.clientDataJSON, field: "clientDataJSON"),
            attestationObject: try Self.base64url(body.attestationObject, field: "attestationObject"), for: caller,
            clientAddress: RequestState.clientAddress)
        return .created(.init(body: .json(.init(added))))
    }

    func listPasskeys(_ input: Operations.ListPasskeys.Input) async throws -> Operations.ListPasskeys.Output {
        let passkeys = try await accounts.passkeys(for: try enrollingCaller())
        return .ok(.init(body: .json(.init(items: passkeys.map(Components.Schemas.Passkey.init)))))
    }

    func removePasskey(_ input: Operations.RemovePasskey.Input) async throws -> Operations.RemovePasskey.Output {
        let caller = try caller()
        let id = try UUIDText.parse(input.path.passkeyId).orNotFound("passkey")
        try await accounts.removePasskey(id: id, for: caller)
        return .noContent(.init())
    }

    /// A passkey's answer from the wire, each part base64url.
    static func passkeyAssertion(_ wire: Components.Schemas.PasskeyAssertion) throws -> PasskeyAssertion {
        PasskeyAssertion(
            credentialID: try base64url(wire.credentialId, field: "passkey.credentialId"),
            clientDataJSON: try base64url(wire.clientDataJSON, field: "passkey.clientDataJSON"),
            authenticatorData: try base64url(wire.authenticatorData, field: "passkey.authenticatorData"),
            signature: try base64url(wire.signature, field: "passkey.signature"))
    }

    static func base64url(_ text: String, field: String) throws -> Data {
        guard let data = TokenText.data(base64url: text), !data.isEmpty else {
            throw ValidationError(field: field, message: "is not base64url")
        }
        return data
    }
}

extension Components.Schemas.Passkey {
    init(_ passkey: AccountService.PasskeySummary) {
        self.init(
            id: UUIDText.lowercase(passkey.id), name: passkey.name, site: passkey.relyingParty,
            createdAt: passkey.createdAt, lastUsedAt: passkey.lastUsedAt)
    }
}
