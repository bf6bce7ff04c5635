import Foundation
import SharedKernel
import StoragePorts

/// Sign-in, sessions and staff-account management: the rules around the store's accounts.
public struct AccountService: Sendable {
    /// Accounts, sessions, the audit trail and the throttle's counts: any store adapter.
    let store: any AccountStore
    let hasher: PasswordHasher
    package let policy: SessionPolicy
    let throttle: LoginThrottle
    /// Browsers that signed in before (their attempts do not count against a shared address).
    let devices: SignInDevices

    /// Creates the service; `deviceKey` signs the device cookies (random for this process when `nil`).
    public init(
        store: any AccountStore, hasher: PasswordHasher = PasswordHasher(), policy: SessionPolicy = SessionPolicy(),
        deviceKey: [UInt8]? = nil
    ) {
        self.init(
            store: store, hasher: hasher, policy: policy, throttle: LoginThrottle(ledger: store),
            devices: SignInDevices(key: deviceKey))
    }

    /// Creates the service with its own sign-in throttle (tests use smaller limits).
    init(
        store: any AccountStore, hasher: PasswordHasher = PasswordHasher(), policy: SessionPolicy = SessionPolicy(),
        throttle: LoginThrottle,
        devices: SignInDevices = SignInDevices()
    ) {
        self.store = store
        self.hasher = hasher
        self.policy = policy
        self.throttle = throttle
        self.devices = devices
    }

    /// The caller's session's key for the web app's encrypted offline copy
    /// (``SignInDevices/offlineDataKey(session:)``).
    public func offlineDataKey(for caller: Caller) -> String {
        devices.offlineDataKey(session: caller.tokenHash)
    }

    /// A successful sign-in.
    public struct SignedIn: Sendable {
        /// The bearer token (shown once; only its hash is stored).
        public let token: String
        /// When the session ends if left idle.
        public let expiresAt: Date
        /// The account.
        public let account: StaffAccount
        /// How the session was opened (whether it must set up a second factor first).
        public let assurance: SessionAssurance
        /// The device cookie's value to give the browser (``SignInDevices``).
        package let deviceCookie: SignInDevices.Cookie
    }

    /// Signs in by email and password (and, for an account with a second factor, a code),
    /// throttling attempts per account and per address. Every outcome is audited; the error
    /// never says whether the email exists.
    ///
    /// The attempt takes its place under the throttle's limits before the password is checked
    /// (see ``LoginThrottle``), so concurrent guesses cannot all be checked before the first
    /// one fails. A wrong second-factor code counts as a failed attempt.
    ///
    /// An address may belong to accounts in several practices: the password decides which
    /// (each is checked), and `practiceID` narrows the choice when the same password opens
    /// more than one — then, without it, the answer is a conflict naming those practices,
    /// which only someone holding that password for all of them learns.
    public func login(
        email: String, password: String, code: String? = nil, passkey: PasskeyAssertion? = nil,
        practiceID: PracticeID? = nil, clientAddress: String, requestID: String
    ) async throws -> SignedIn {
        try await login(
            email: email, password: password, code: code, passkey: passkey, practiceID: practiceID,
            clientAddress: clientAddress, deviceCookie: nil, requestID: requestID)
    }

    /// Signs in as ``login(email:password:code:practiceID:clientAddress:requestID:)`` does, from a
    /// browser that sent `deviceCookie` (the value of ``SignInDevices/cookieName``, if any).
    package func login(
        email: String, password: String, code: String? = nil, passkey: PasskeyAssertion? = nil,
        practiceID: PracticeID? = nil, clientAddress: String, deviceCookie: String?, workstation: String? = nil,
        requestID: String
    ) async throws -> SignedIn {
        let now = store.clock.now()
        let cookie = devices.parse(deviceCookie)
        let ticket: LoginThrottle.Ticket
        let unreported: String?
        // Refusals cost no password check, so they could be sent by the thousand: the throttle
        // says which of them to audit (one per account or address per window, with a count of
        // the others), so they cannot flood the append-only trail.
        switch try await throttle.reserve(
            account: email, address: clientAddress, device: devices.trustedDevice(cookie, email: email), now: now)
        {
        case .refused(let wait, let audit):
            if let audit {
                try await store.recordAudit(
                    AuditRecord(action: .authLogin, resourceType: .session, outcome: .denied, detail: audit),
                    scope: nil)
            }
            throw ServiceRefusal.tooManyRequests(retryAfterSeconds: wait)
        case .proceed(let reserved, let report):
            (ticket, unreported) = (reserved, report)
        }
        var candidates: [StoredCredentials]
        var opened: [StoredCredentials] = []
        do {
            if let unreported {
                try await store.recordAudit(
                    AuditRecord(action: .authLogin, resourceType: .session, outcome: .denied, detail: unreported),
                    scope: nil)
            }
            candidates = try await store.credentials(email: email)
            if let practiceID { candidates = candidates.filter { $0.account.practiceID == practiceID } }
            // An unknown address costs a check too, so the answer's timing does not tell.
            if candidates.isEmpty { _ = await hasher.verify(password, against: PasswordHasher.decoyHash) }
            for candidate in candidates {
                if await hasher.verify(password, against: candidate.passwordHash) { opened.append(candidate) }
            }
        } catch {
            // Nothing was checked: the attempt gives its place back.
            await throttle.settle(ticket, as: .abandoned)
            throw error
        }
        let usable = opened.filter { !$0.account.disabled }
        guard let stored = usable.first else {
            await throttle.settle(ticket, as: .failed)
            if candidates.isEmpty {
                try await store.recordAudit(
                    AuditRecord(
                        action: .authLogin, resourceType: .session, outcome: .failure, detail: "unknown email"),
                    scope: nil)
            }
            // Each practice sees the failed attempt on its own account, and only that.
            for candidate in candidates {
                let disabled = opened.contains { $0.account.id == candidate.account.id }
                try await store.recordAudit(
                    AuditRecord(
                        action: .authLogin, resourceType: .session, resourceID: candidate.account.id.description,
                        outcome: .failure, detail: disabled ? "account disabled" : "wrong password"),
                    scope: Self.scope(of: candidate.account, requestID: requestID))
            }
            throw ServiceRefusal.unauthorized("The email or password is incorrect.")
        }
        guard usable.count == 1 else {
            await throttle.settle(ticket, as: .succeeded)
            var practices: [String] = []
            for candidate in usable {
                let name = (try? await store.practice(id: candidate.account.practiceID))?.name ?? "a practice"
                practices.append("\(name) (\(candidate.account.practiceID))")
            }
            throw DomainError.conflict(
                "This email and password open accounts in several practices: \(practices.joined(separator: ", ")). "
                    + "Sign in again naming one as practiceId.")
        }
        let proof: SecondFactorProof
        do {
            proof = try await secondFactorProof(of: stored.account, code: code, passkey: passkey, at: now)
        } catch {
            await throttle.settle(ticket, as: .abandoned)
            throw error
        }
        switch proof {
        case .missing:
            // The password was right; nothing is counted either way until a code is tried.
            await throttle.settle(ticket, as: .abandoned)
            throw ServiceRefusal.secondFactorRequired(
                """
                Use your passkey, or enter the six-digit code from your authenticator app or one of your recovery codes.
                """
            )
        case .wrong(let reason):
            await throttle.settle(ticket, as: .failed)
            try await store.recordAudit(
                AuditRecord(
                    action: .authLogin, resourceType: .session, resourceID: stored.account.id.description,
                    outcome: .failure, detail: reason),
                scope: Self.scope(of: stored.account, requestID: requestID))
            throw ServiceRefusal.secondFactorRequired(
                "That code is not valid (wrong, expired or already used). Enter the current code.")
        case .notNeeded(let assurance), .proven(let assurance, _):
            await throttle.settle(ticket, as: .succeeded)
            var detail: String?
            if case .proven(_, let how) = proof { detail = how }
            if assurance.mustEnrolSecondFactor { detail = "second factor required, not yet set up" }
            let token = SessionToken.generate()
            let expiresAt = try await store.createSession(
                tokenHash: SessionToken.hash(token), account: stored.account, assurance: assurance, policy: policy,
                requestID: requestID, detail: detail)
            try await rememberFullSignIn(stored.account, assurance: assurance, workstation: workstation, at: now)
            return SignedIn(
                token: token, expiresAt: expiresAt, account: stored.account, assurance: assurance,
                deviceCookie: devices.remember(email, on: cookie))
        }
    }

    static func scope(of account: StaffAccount, requestID: String) -> AccessScope {
        AccessScope(account: account, requestID: requestID)
    }

    /// Resolves a bearer token to its caller, or `nil` when it is unknown, expired or revoked.
    public func authenticate(token: String, requestID: String) async throws -> Caller? {
        let tokenHash = SessionToken.hash(token)
        guard let session = try await store.activeSession(tokenHash: tokenHash, policy: policy) else { return nil }
        return Caller(
            account: session.account, tokenHash: tokenHash, sessionExpiresAt: session.expiresAt,
            assurance: session.assurance, requestID: requestID)
    }

    /// Whether the session behind `tokenHash` is still live, without refreshing its idle timer.
    public func sessionIsActive(tokenHash: String) async -> Bool {
        (try? await store.sessionIsActive(tokenHash: tokenHash, policy: policy)) ?? false
    }

    /// Revokes the caller's session at once.
    public func logout(_ caller: Caller) async throws {
        try await store.revokeSession(tokenHash: caller.tokenHash, scope: caller.scope)
    }

    /// Creates an account after checking the password policy; the password is hashed here and never stored or logged.
    public func createUser(scope: AccessScope, email: String, displayName: String, role: Role, password: String)
        async throws -> StaffAccount
    {
        var errors = FieldErrorCollector()
        do { try StaffAccount.validateNew(email: email, displayName: displayName) } catch {
            errors = FieldErrorCollector(error.errors)
        }
        do { try PasswordPolicy.validate(password, email: email) } catch {
            error.errors.forEach { errors.add($0.field, $0.message) }
        }
        try errors.throwIfAny()
        let hash = await hasher.hash(password)
        return try await store.createUser(
            scope: scope, email: email, displayName: displayName, role: role, passwordHash: hash)
    }
}

extension AccountService {
    /// Creates a practice and its first administrator in one transaction, after checking the
    /// password policy; the password is hashed here and never stored or logged.
    public func createPractice(
        _ profile: PracticeProfile, administratorEmail: String, administratorName: String, password: String,
        requestID: String
    ) async throws -> (PracticeProfile, StaffAccount) {
        var errors = FieldErrorCollector()
        do { try profile.validate() } catch { error.errors.forEach { errors.add($0.field, $0.message) } }
        do { try StaffAccount.validateNew(email: administratorEmail, displayName: administratorName) } catch {
            error.errors.forEach { errors.add("administrator.\($0.field)", $0.message) }
        }
        do { try PasswordPolicy.validate(password, email: administratorEmail) } catch {
            error.errors.forEach { errors.add("administrator.\($0.field)", $0.message) }
        }
        try errors.throwIfAny()
        let hash = await hasher.hash(password)
        return try await store.createPractice(
            profile,
            administrator: FirstAdministrator(
                email: administratorEmail, displayName: administratorName,
                passwordHash: hash), requestID: requestID)
    }
}

extension FieldErrorCollector {
    package init(_ errors: [FieldError]) {
        self.init()
        for error in errors { add(error.field, error.message) }
    }
}
