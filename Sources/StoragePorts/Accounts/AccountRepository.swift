import Foundation
import SharedKernel

/// What sign-in and sessions need from a store: practices and their first administrator,
/// the credentials of an address, and sessions by the SHA-256 of their token.
///
/// Every adapter keeps sessions in the database, never in the process, so a session created
/// through one server instance is valid on every instance of the same database and one
/// sign-out revokes it everywhere.
public protocol AccountRepository: Sendable {
    /// The store's time source (session expiry, audit times).
    var clock: Clock { get }

    /// Creates a practice and its first administrator in one transaction, audited; refuses an
    /// invalid profile or account with ``SharedKernel/DomainError/validation(_:)`` and changes
    /// nothing.
    func createPractice(
        _ profile: PracticeProfile, administrator: FirstAdministrator,
        requestID: String?
    ) async throws -> (PracticeProfile, StaffAccount)

    /// Creates a staff account in the scope's practice, audited; an address already used by
    /// an account of the same practice is a ``SharedKernel/UniquenessConflict`` on `email`
    /// (another practice's accounts are none of this practice's business).
    func createUser(scope: AccessScope, email: String, displayName: String, role: Role, passwordHash: String)
        async throws -> StaffAccount

    /// The practice with `id`, or `nil`.
    func practice(id: PracticeID) async throws -> PracticeProfile?

    /// Every account of `email` (case-insensitive) across practices, oldest first, at most
    /// ``StoredCredentials/maxPerEmail``: sign-in tells them apart by the password.
    func credentials(email: String) async throws -> [StoredCredentials]

    /// Records a session for `account` by the hash of its token, opened with `assurance`, and
    /// audits the sign-in (with `detail`) in the same transaction; returns the idle expiry.
    func createSession(
        tokenHash: String, account: StaffAccount, assurance: SessionAssurance, policy: SessionPolicy,
        requestID: String?, detail: String?
    ) async throws -> Date

    /// The session of `tokenHash` if it is live at `check` (not revoked, idle past the policy,
    /// past its absolute expiry, nor of a disabled account); `nil` otherwise. Only a read: the
    /// idle timer is moved by ``touchSession(tokenHash:practiceID:at:)``.
    func liveSession(tokenHash: String, check: SessionCheck) async throws -> StoredSession?

    /// Moves the idle timer of the session of `tokenHash`, in `practiceID`, to `milliseconds`
    /// since 1970 (never back: a request that read the clock earlier may finish later).
    func touchSession(tokenHash: String, practiceID: PracticeID, at milliseconds: Int64) async throws

    /// Revokes one session of the scope's practice at once, audited.
    func revokeSession(tokenHash: String, scope: AccessScope) async throws

    /// Deletes every ended session in every practice; returns how many.
    @discardableResult
    func pruneSessions(policy: SessionPolicy) async throws -> Int
}

extension AccountRepository {
    /// The live session of `tokenHash`, its idle timer refreshed when it lags behind this use
    /// by more than ``SessionCheck/refreshMilliseconds``; `nil` when it is not live.
    public func activeSession(tokenHash: String, policy: SessionPolicy) async throws -> ActiveSession? {
        let check = SessionCheck(now: clock.now(), policy: policy)
        guard let session = try await liveSession(tokenHash: tokenHash, check: check) else { return nil }
        if check.refreshes(lastSeen: session.lastSeenMilliseconds) {
            try await touchSession(
                tokenHash: tokenHash, practiceID: session.account.practiceID, at: check.nowMilliseconds)
        }
        return ActiveSession(
            account: session.account, expiresAt: check.expiry(absolute: session.expiresAtMilliseconds),
            assurance: session.assurance)
    }

    /// Whether the session is live, without counting the question as activity: an open live
    /// stream must not keep an idle session alive.
    public func sessionIsActive(tokenHash: String, policy: SessionPolicy) async throws -> Bool {
        try await liveSession(tokenHash: tokenHash, check: SessionCheck(now: clock.now(), policy: policy)) != nil
    }

    /// Records a session opened by a password alone, with nothing more asked of it.
    public func createSession(tokenHash: String, account: StaffAccount, policy: SessionPolicy, requestID: String?)
        async throws -> Date
    {
        try await createSession(
            tokenHash: tokenHash, account: account, assurance: SessionAssurance(), policy: policy,
            requestID: requestID, detail: nil)
    }
}

extension StoredCredentials {
    /// Sign-in checks the password against each account of an address; this bounds that work.
    public static let maxPerEmail = 8

    /// A password hash no password verifies against, for restored accounts (an export never
    /// carries hashes): it is not a bcrypt hash at all (bcrypt refuses anything not starting
    /// with `$2`), and the random tail keeps accounts apart.
    public static func unusablePasswordHash() -> String {
        "!reset-required:" + UUIDText.lowercase(UUID())
    }
}

/// What sign-in, sessions and staff accounts need from a store: the accounts, the audit
/// trail their changes and refusals are written to, and the throttle's counts.
public typealias AccountStore = AccountRepository & AuditRepository & SignInAttemptLedger & SecondFactorRepository
    & SharedDeviceRepository & PasskeyRepository
