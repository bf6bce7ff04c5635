import Foundation
import SharedKernel
import StoragePorts

/// What a sign-in's code proved, decided before any session exists.
enum SecondFactorProof: Sendable {
    /// The account has a second factor and no code came with the password.
    case missing
    /// A code came and is not valid; the reason is for the audit trail only.
    case wrong(String)
    /// The account has no second factor: the session is opened as `assurance` says (it may
    /// have to set one up first).
    case notNeeded(SessionAssurance)
    /// The code was valid and is now spent; `how` names the kind for the audit trail.
    case proven(SessionAssurance, how: String)
}

extension AccountService {
    /// The issuer an authenticator app shows beside the account.
    static let codeIssuer = "VetNet"

    /// Decides what `code` proves for `account` at `now`, spending the code's time step or
    /// recovery code when it is valid, so no code opens two sessions.
    func secondFactorProof(of account: StaffAccount, code: String?, passkey: PasskeyAssertion? = nil, at now: Date)
        async throws -> SecondFactorProof
    {
        let factor = try await store.secondFactor(userID: account.id, practiceID: account.practiceID)
        let passkeys = try await store.passkeys(userID: account.id, practiceID: account.practiceID)
        // A passkey is a second factor of its own: something the person has, unlocked by their
        // face, finger or device PIN.
        if let passkey, !passkeys.isEmpty {
            switch try await passkeyProof(passkey, of: account, at: now) {
            case .success(let used):
                return .proven(
                    SessionAssurance(secondFactor: true),
                    how: "second factor: passkey '\(used.name)' (\(UUIDText.lowercase(used.id)))")
            case .failure(let refusal): return .wrong("passkey refused: \(refusal.field) \(refusal.reason)")
            }
        }
        guard let factor, let secret = factor.secret else {
            if !passkeys.isEmpty { return .missing }
            let required = try await store.practice(id: account.practiceID)?.requiresSecondFactor(account.role) ?? false
            return .notNeeded(SessionAssurance(secondFactor: false, mustEnrolSecondFactor: required))
        }
        guard let code, !code.trimmingCharacters(in: .whitespaces).isEmpty else { return .missing }
        let compact = code.filter { !$0.isWhitespace }
        if compact.count == OneTimeCode.digits, compact.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let step = OneTimeCode.matchingStep(compact, secret: secret, at: now, after: factor.lastStep) else {
                let spent = OneTimeCode.matchingStep(compact, secret: secret, at: now, after: .min) != nil
                return .wrong(spent ? "second factor code already used" : "wrong second factor code")
            }
            guard try await store.spendSecondFactorStep(step, userID: account.id, practiceID: account.practiceID)
            else { return .wrong("second factor code already used") }
            return .proven(SessionAssurance(secondFactor: true), how: "second factor: authenticator code")
        }
        guard let normalized = RecoveryCodes.normalized(compact) else { return .wrong("malformed second factor code") }
        guard
            try await store.spendRecoveryCode(
                hash: RecoveryCodes.hash(normalized), userID: account.id, practiceID: account.practiceID)
        else { return .wrong("wrong or spent recovery code") }
        return .proven(
            SessionAssurance(secondFactor: true),
            how: "second factor: recovery code (\(max(0, factor.recoveryCodesLeft - 1)) left)")
    }

    /// Where the caller's second factor stands.
    public struct SecondFactorStatus: Sendable {
        /// A confirmed authenticator app is in force.
        public let enrolled: Bool
        /// When it was confirmed.
        public let enrolledAt: Date?
        /// How many passkeys the account has (each a second factor too).
        public let passkeys: Int
        /// Recovery codes left.
        public let recoveryCodesLeft: Int
        /// The practice asks one of the caller's role.
        public let required: Bool
        /// This session may do nothing until one is set up.
        public let mustEnrol: Bool
    }

    /// The caller's second factor (an audited read).
    public func secondFactorStatus(for caller: Caller) async throws -> SecondFactorStatus {
        let factor = try await store.secondFactor(userID: caller.account.id, practiceID: caller.account.practiceID)
        let required =
            try await store.practice(id: caller.account.practiceID)?.requiresSecondFactor(
                caller.account.role) ?? false
        try await store.recordAudit(
            AuditRecord(
                action: .authSecondFactorRead, resourceType: .user, resourceID: caller.account.id.description),
            scope: caller.scope)
        let passkeys = try await store.passkeys(userID: caller.account.id, practiceID: caller.account.practiceID)
        return SecondFactorStatus(
            enrolled: factor?.secret != nil, enrolledAt: factor?.enrolledAt, passkeys: passkeys.count,
            recoveryCodesLeft: factor?.secret == nil ? 0 : factor?.recoveryCodesLeft ?? 0, required: required,
            mustEnrol: caller.assurance.mustEnrolSecondFactor)
    }

    /// A secret issued to set up an authenticator app.
    public struct SecondFactorEnrolment: Sendable {
        /// The secret in base32, for typing into the app.
        public let secret: String
        /// The `otpauth://` link carrying it.
        public let uri: String
    }

    /// Issues a new secret for the caller to confirm with a code, after checking their
    /// password again (a session left open on a shared device is not enough). Wrong passwords
    /// count against the account's sign-in limit.
    public func startSecondFactor(for caller: Caller, password: String, clientAddress: String) async throws
        -> SecondFactorEnrolment
    {
        try await checkPassword(of: caller, password: password, clientAddress: clientAddress)
        let secret = OneTimeCode.newSecret()
        try await store.startSecondFactor(secret: secret, scope: caller.scope)
        return SecondFactorEnrolment(
            secret: Base32.encode(secret),
            uri: OneTimeCode.provisioningURI(secret: secret, issuer: Self.codeIssuer, account: caller.account.email))
    }

    /// Confirms the caller's pending secret with a code from the app: it becomes their second
    /// factor, their other sessions end, this one counts as proven. Returns the recovery
    /// codes, shown this once.
    public func confirmSecondFactor(for caller: Caller, code: String) async throws -> [String] {
        let now = store.clock.now()
        let factor = try await store.secondFactor(userID: caller.account.id, practiceID: caller.account.practiceID)
        guard let pending = factor?.pendingSecret else {
            throw DomainError.conflict("There is no set-up to confirm: start one first.")
        }
        let compact = code.filter { !$0.isWhitespace }
        guard let step = OneTimeCode.matchingStep(compact, secret: pending, at: now, after: factor?.lastStep ?? 0)
        else {
            throw ValidationError(
                field: "code", message: "is not the app's current six-digit code (check the phone's clock)")
        }
        let codes = RecoveryCodes.generate()
        let hashes = codes.compactMap(RecoveryCodes.normalized).map(RecoveryCodes.hash)
        guard
            try await store.confirmSecondFactor(
                secret: pending, step: step, recoveryCodeHashes: hashes, tokenHash: caller.tokenHash,
                scope: caller.scope)
        else {
            throw DomainError.conflict("A newer set-up was started meanwhile: confirm that one with its code.")
        }
        return codes
    }

    /// Removes `userID`'s second factor (a lost phone and lost recovery codes): they sign in
    /// with their password and set up a new one. The caller's permission is checked by the caller.
    public func resetSecondFactor(of userID: UserID, by caller: Caller) async throws {
        // Removing one's own would end this session and leave the account open to its password
        // alone; a new phone is set up instead, which keeps a second factor in force throughout.
        guard userID != caller.account.id else {
            throw DomainError.conflict(
                "Your own second factor is replaced by setting up a new phone (your name at the top), not removed.")
        }
        try await store.resetSecondFactor(userID: userID, scope: caller.scope)
    }

    /// Checks the caller's password again before a change to how they sign in; a wrong one
    /// counts against the account's limit and is audited as `action`.
    func checkPassword(
        of caller: Caller, password: String, clientAddress: String, action: AuditAction = .authSecondFactorStart
    ) async throws {
        let now = store.clock.now()
        let ticket: LoginThrottle.Ticket
        // The session stands in for the device: a signed-in browser's checks do not count
        // against an address its colleagues share.
        switch try await throttle.reserve(
            account: caller.account.email, address: clientAddress, device: "session " + caller.tokenHash, now: now)
        {
        case .refused(let wait, _): throw ServiceRefusal.tooManyRequests(retryAfterSeconds: wait)
        case .proceed(let reserved, _): ticket = reserved
        }
        let stored: StoredCredentials?
        do {
            stored = try await store.credentials(email: caller.account.email).first {
                $0.account.id == caller.account.id
            }
        } catch {
            await throttle.settle(ticket, as: .abandoned)
            throw error
        }
        guard let stored, await hasher.verify(password, against: stored.passwordHash) else {
            await throttle.settle(ticket, as: .failed)
            try await store.recordAudit(
                AuditRecord(
                    action: action, resourceType: .user, resourceID: caller.account.id.description,
                    outcome: .failure, detail: "wrong password"), scope: caller.scope)
            throw ValidationError(field: "password", message: "is not this account's password")
        }
        await throttle.settle(ticket, as: .abandoned)
    }
}
