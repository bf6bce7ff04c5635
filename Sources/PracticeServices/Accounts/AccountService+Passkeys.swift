import Foundation
import SharedKernel
import StoragePorts

/// A passkey's answer to a challenge, as the browser returns it from `navigator.credentials.get`.
public struct PasskeyAssertion: Sendable {
    /// The credential's id.
    public let credentialID: Data
    /// The browser's client data (JSON), as signed.
    public let clientDataJSON: Data
    /// The authenticator data, as signed.
    public let authenticatorData: Data
    /// The ECDSA signature (DER).
    public let signature: Data

    /// Creates the value.
    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data) {
        self.credentialID = credentialID
        self.clientDataJSON = clientDataJSON
        self.authenticatorData = authenticatorData
        self.signature = signature
    }
}

extension AccountService {
    /// What the browser needs to make a passkey for the caller (`navigator.credentials.create`).
    public struct PasskeyCreationOptions: Sendable {
        /// The challenge, base64url (valid for ``PasskeyChallenges/lifetime`` seconds).
        public let challenge: String
        /// The account's id as the passkey's user handle (its UUID's 16 bytes, base64url).
        public let userHandle: String
        /// The name the device shows for the passkey (the account's email).
        public let userName: String
        /// The account's display name.
        public let displayName: String
        /// The ids of the caller's passkeys already made (base64url), so a device holds one.
        public let excludeCredentials: [String]
    }

    /// A passkey as its owner sees it.
    public struct PasskeySummary: Sendable {
        /// Identifier.
        public let id: UUID
        /// What its owner calls it.
        public let name: String
        /// The site it belongs to.
        public let relyingParty: String
        /// When it was made and last used.
        public let createdAt: Date
        /// When it last signed in or unlocked.
        public let lastUsedAt: Date?

        init(_ stored: StoredPasskey) {
            id = stored.id
            name = stored.name
            relyingParty = stored.relyingParty
            createdAt = stored.createdAt
            lastUsedAt = stored.lastUsedAt
        }
    }

    /// The longest name of a passkey.
    static let passkeyNameLimit = 60
    /// The most passkeys one account keeps (each sign-in reads them all): a phone, an iPad, a
    /// laptop and spares, not an unbounded list.
    static let passkeyLimit = 20

    var passkeyChallenges: PasskeyChallenges { PasskeyChallenges(key: devices.passkeyChallengeKey()) }

    /// A challenge for signing in or unlocking with a passkey (any browser may ask: it is worth
    /// nothing without a passkey of an account to answer it).
    public func passkeySignInChallenge() -> String {
        passkeyChallenges.issue(.assertion, at: store.clock.now())
    }

    /// The options to make a passkey for the caller.
    public func passkeyCreationOptions(for caller: Caller) async throws -> PasskeyCreationOptions {
        let existing = try await store.passkeys(userID: caller.account.id, practiceID: caller.account.practiceID)
        let id = caller.account.id.rawValue.uuid
        let idBytes = Data([
            id.0, id.1, id.2, id.3, id.4, id.5, id.6, id.7, id.8, id.9, id.10, id.11, id.12, id.13, id.14, id.15,
        ])
        return PasskeyCreationOptions(
            challenge: passkeyChallenges.issue(.registration, userID: caller.account.id, at: store.clock.now()),
            userHandle: TokenText.base64url(idBytes), userName: caller.account.email,
            displayName: caller.account.displayName,
            excludeCredentials: existing.map { TokenText.base64url($0.credentialID) })
    }

    /// Keeps a passkey the caller's browser made, after checking their password again (as for
    /// a PIN or an authenticator app) and the registration itself (``WebAuthn/register``).
    /// The account's first second factor revokes its other sessions and proves this one.
    public func addPasskey(
        name: String, password: String, clientDataJSON: Data, attestationObject: Data, for caller: Caller,
        clientAddress: String
    ) async throws -> PasskeySummary {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= Self.passkeyNameLimit else {
            throw ValidationError(field: "name", message: "must be 1 to \(Self.passkeyNameLimit) characters")
        }
        try await checkPassword(of: caller, password: password, clientAddress: clientAddress, action: .authPasskeyAdd)
        let now = store.clock.now()
        let registered: WebAuthn.Registered
        do {
            registered = try WebAuthn.register(
                clientDataJSON: clientDataJSON, attestationObject: attestationObject,
                challengeIsValid: {
                    self.passkeyChallenges.isValid($0, for: .registration, userID: caller.account.id, at: now)
                })
        } catch {
            throw ValidationError(field: error.field, message: error.reason)
        }
        let factor = try await store.secondFactor(userID: caller.account.id, practiceID: caller.account.practiceID)
        let existing = try await store.passkeys(userID: caller.account.id, practiceID: caller.account.practiceID)
        guard existing.count < Self.passkeyLimit else {
            throw DomainError.conflict(
                "An account keeps at most \(Self.passkeyLimit) passkeys: remove one you no longer use first.")
        }
        let passkey = StoredPasskey(
            id: UUID(), userID: caller.account.id, practiceID: caller.account.practiceID,
            credentialID: registered.credentialID, publicKey: registered.publicKey,
            relyingParty: registered.relyingParty, origin: registered.origin, name: trimmed,
            signCount: Int64(registered.signCount), createdAt: now, lastUsedAt: nil)
        try await store.addPasskey(
            passkey, firstFactor: factor?.secret == nil && existing.isEmpty, tokenHash: caller.tokenHash,
            scope: caller.scope)
        return PasskeySummary(passkey)
    }

    /// The caller's passkeys (an audited read).
    public func passkeys(for caller: Caller) async throws -> [PasskeySummary] {
        let stored = try await store.passkeys(userID: caller.account.id, practiceID: caller.account.practiceID)
        try await store.recordAudit(
            AuditRecord(action: .authPasskeyList, resourceType: .user, resourceID: caller.account.id.description),
            scope: caller.scope)
        return stored.map(PasskeySummary.init)
    }

    /// Removes one of the caller's passkeys. The last second factor of someone whose role must
    /// have one stays: they set up another first.
    public func removePasskey(id: UUID, for caller: Caller) async throws {
        let stored = try await store.passkeys(userID: caller.account.id, practiceID: caller.account.practiceID)
        guard stored.contains(where: { $0.id == id }) else { throw DomainError.notFound(resource: "passkey") }
        let factor = try await store.secondFactor(userID: caller.account.id, practiceID: caller.account.practiceID)
        let required =
            try await store.practice(id: caller.account.practiceID)?.requiresSecondFactor(caller.account.role) ?? false
        if required, factor?.secret == nil, stored.count == 1 {
            throw DomainError.conflict(
                """
                This passkey is your only second factor, which your role must have: add another passkey or an \
                authenticator app first.
                """
            )
        }
        try await store.removePasskey(id: id, scope: caller.scope)
    }

    /// Checks `assertion` as a sign-in of `account` at `now` and spends its challenge: the
    /// passkey used, or why it was refused.
    func passkeyProof(_ assertion: PasskeyAssertion, of account: StaffAccount, at now: Date) async throws
        -> Result<StoredPasskey, WebAuthn.Refusal>
    {
        let stored = try await store.passkeys(userID: account.id, practiceID: account.practiceID)
        guard let passkey = stored.first(where: { $0.credentialID == assertion.credentialID }) else {
            return .failure(WebAuthn.Refusal(field: "credentialId", reason: "is not one of this account's passkeys"))
        }
        let asserted: WebAuthn.Asserted
        do {
            asserted = try WebAuthn.assert(
                clientDataJSON: assertion.clientDataJSON, authenticatorData: assertion.authenticatorData,
                signature: assertion.signature, publicKey: passkey.publicKey, relyingParty: passkey.relyingParty,
                origin: passkey.origin, storedSignCount: UInt32(clamping: passkey.signCount),
                challengeIsValid: { self.passkeyChallenges.isValid($0, for: .assertion, at: now) })
        } catch {
            return .failure(error)
        }
        guard
            try await store.spendPasskeyChallenge(
                asserted.challenge, passkeyID: passkey.id, userID: account.id, practiceID: account.practiceID,
                expectedSignCount: passkey.signCount, signCount: Int64(asserted.signCount), at: now)
        else {
            return .failure(WebAuthn.Refusal(field: "clientDataJSON", reason: "answers a challenge already used"))
        }
        return .success(passkey)
    }
}
