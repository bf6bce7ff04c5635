import Foundation
import SharedKernel
import StorageSupport

/// An account's second factor as stored: the TOTP secret (sealed at rest by the adapter), the
/// last time step a code was accepted for, and the SHA-256 of each unused recovery code.
public struct StoredSecondFactor: Sendable {
    /// The confirmed secret; `nil` until a code has confirmed an enrolment.
    public let secret: [UInt8]?
    /// A secret issued for enrolment and not yet confirmed.
    public let pendingSecret: [UInt8]?
    /// The last RFC 6238 time step a code was accepted for (codes of it and earlier are spent).
    public let lastStep: Int64
    /// How many recovery codes are left.
    public let recoveryCodesLeft: Int
    /// When the secret was confirmed.
    public let enrolledAt: Date?

    /// Creates the stored value.
    public init(secret: [UInt8]?, pendingSecret: [UInt8]?, lastStep: Int64, recoveryCodesLeft: Int, enrolledAt: Date?) {
        self.secret = secret
        self.pendingSecret = pendingSecret
        self.lastStep = lastStep
        self.recoveryCodesLeft = recoveryCodesLeft
        self.enrolledAt = enrolledAt
    }
}

/// Where second factors are kept. The rules (which code is valid, who must have one) are
/// ``AccountService``'s; a store keeps the secrets sealed, and makes spending a time step or a
/// recovery code atomic, so one code cannot open two sessions even on two instances.
public protocol SecondFactorRepository: Sendable {
    /// The second factor of `userID` in `practiceID`, or `nil` when none was ever started.
    func secondFactor(userID: UserID, practiceID: PracticeID) async throws -> StoredSecondFactor?

    /// Keeps `secret` as the caller's pending enrolment (replacing an earlier pending one; a
    /// confirmed secret stays in force until this one is confirmed), audited.
    func startSecondFactor(secret: [UInt8], scope: AccessScope) async throws

    /// Confirms the caller's pending secret, provided it is still `secret`: it becomes the
    /// account's second factor with `step` spent and `recoveryCodeHashes` as its only recovery
    /// codes; every other session of the account is revoked and the session of `tokenHash`
    /// is marked as proven by a second factor. Audited. Returns `false` (changing nothing)
    /// when the pending secret is no longer `secret`.
    func confirmSecondFactor(
        secret: [UInt8], step: Int64, recoveryCodeHashes: [String], tokenHash: String, scope: AccessScope
    ) async throws -> Bool

    /// Spends time step `step` of the account's code: `true` when it was later than the last
    /// one spent (and is now the last), `false` when it was spent already (a replay).
    func spendSecondFactorStep(_ step: Int64, userID: UserID, practiceID: PracticeID) async throws -> Bool

    /// Spends the recovery code whose SHA-256 is `codeHash`: `true` when it was unused (it is
    /// gone now), `false` otherwise.
    func spendRecoveryCode(hash codeHash: String, userID: UserID, practiceID: PracticeID) async throws -> Bool

    /// Removes the second factor of `userID` in the scope's practice (a lost device) and
    /// revokes the account's sessions, audited; ``SharedKernel/DomainError/notFound(resource:)``
    /// when the practice has no such account.
    func resetSecondFactor(userID: UserID, scope: AccessScope) async throws
}

/// How both stores seal an authenticator secret under the record key: bound to its practice
/// and account, so a sealed secret copied onto another account's row does not open.
public enum SealedSecondFactor {
    /// `secret` sealed for `userID` of `practiceID`.
    public static func seal(_ secret: [UInt8], userID: UserID, practiceID: PracticeID, cipher: RecordCipher) throws
        -> Data
    {
        try cipher.seal(Data(secret), context: context(userID: userID, practiceID: practiceID))
    }

    /// The secret sealed for `userID` of `practiceID`; a row that does not open is corrupt.
    public static func open(_ sealed: Data, userID: UserID, practiceID: PracticeID, cipher: RecordCipher) throws
        -> [UInt8]
    {
        do {
            return Array(try cipher.open(sealed, context: context(userID: userID, practiceID: practiceID)))
        } catch {
            throw StoreCorruption(column: "second_factor.sealed_secret", reason: "does not open with the record key")
        }
    }

    private static func context(userID: UserID, practiceID: PracticeID) -> String {
        "second-factor/\(practiceID)/\(userID)"
    }
}

extension AccessScope {
    /// The member of staff a second factor is set up for: the one signed in (a scope acting
    /// for no one is refused).
    public func secondFactorOwner() throws -> UserID {
        guard let actorID else { throw DomainError.forbidden(action: "set up a second factor") }
        return actorID
    }
}

extension SealedSecondFactor {
    /// Whether the pending secret as stored (`sealed`, if any) is `secret`: compared opened,
    /// since sealing is randomized.
    public static func pending(
        _ sealed: Data?, is secret: [UInt8], userID: UserID, practiceID: PracticeID, cipher: RecordCipher
    ) throws -> Bool {
        guard let sealed else { return false }
        return try open(sealed, userID: userID, practiceID: practiceID, cipher: cipher) == secret
    }
}

extension AuditRecord {
    /// A second factor's set-up started by `userID`.
    public static func secondFactorStarted(_ userID: UserID) -> AuditRecord {
        AuditRecord(action: .authSecondFactorStart, resourceType: .user, resourceID: userID.description)
    }

    /// A second factor confirmed by `userID`, with `recoveryCodes` new recovery codes; the
    /// account's other sessions end.
    public static func secondFactorEnrolled(_ userID: UserID, recoveryCodes: Int) -> AuditRecord {
        AuditRecord(
            action: .authSecondFactorEnrol, resourceType: .user, resourceID: userID.description,
            detail: "recovery codes: \(recoveryCodes); other sessions revoked")
    }
}
