import Foundation
import Scheduling
import SharedKernel

/// A practice's profile and settings: opening hours, closures, scheduling rules.
/// Changes are versioned (the settings' ETag), audited and published as events in the same
/// transaction; a change that strands bookings reports them for re-planning.
public protocol PracticeSettingsRepository: Sendable {
    /// The scope's practice (404 when it does not exist).
    func practice(scope: AccessScope) async throws -> PracticeProfile

    /// The scope's practice with its version.
    func versionedPractice(scope: AccessScope) async throws -> Versioned<PracticeProfile>

    /// Applies `change` when the stored version is `expectedVersion` (or unconditionally when
    /// `nil`); validation errors name the field.
    func updatePractice(_ change: PracticeSettingsChange, scope: AccessScope, expectedVersion: Int?) async throws
        -> PracticeChangeResult

    /// Adds a closure; replaying `idempotencyKey` returns the first request's closure.
    func addClosure(
        _ closure: PracticeClosure, scope: AccessScope, expectedVersion: Int?,
        idempotencyKey: IdempotencyKey?
    ) async throws -> ClosureAddition

    /// Removes a closure.
    func removeClosure(_ id: Identifier<PracticeClosure>, scope: AccessScope, expectedVersion: Int?) async throws
        -> Versioned<PracticeProfile>

    /// Every practice of the installation (system use: housekeeping, the live hub).
    func allPractices() async throws -> [PracticeProfile]

    /// Whether the installation has no practice yet (a first start).
    func isEmpty() async throws -> Bool
}

/// Staff accounts of a practice, beyond signing in (``AccountRepository``).
public protocol StaffDirectory: Sendable {
    /// Changes an account's role or disables it; the sessions of a disabled account end.
    func updateUser(scope: AccessScope, id: UserID, expectedVersion: Int?, role: Role?, disabled: Bool?) async throws
        -> StaffAccount

    /// Sets an account's password hash and ends its sessions.
    func setPassword(scope: AccessScope, id: UserID, passwordHash: String) async throws

    /// One account of the scope's practice (404 otherwise).
    func user(scope: AccessScope, id: UserID) async throws -> StaffAccount

    /// The account with `email` in the scope's practice, if any.
    func user(scope: AccessScope, email: String) async throws -> StaffAccount?

    /// A page of the practice's accounts by email.
    func users(scope: AccessScope, limit: Int, after cursor: String?) async throws -> Page<StaffAccount>
}

extension PracticeSettingsRepository {
    /// Adds a closure without an idempotency key.
    public func addClosure(_ closure: PracticeClosure, scope: AccessScope, expectedVersion: Int?) async throws
        -> ClosureAddition
    {
        try await addClosure(closure, scope: scope, expectedVersion: expectedVersion, idempotencyKey: nil)
    }
}

extension PracticeSettingsRepository where Self: AccountRepository {
    /// The caller's own practice; not found when it has gone.
    public func practice(scope: AccessScope) async throws -> PracticeProfile {
        let practice = try await practice(id: scope.practiceID).orNotFound("practice")
        return practice
    }
}
