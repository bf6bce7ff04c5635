import Foundation
import SharedKernel

/// A staff member's passkey as stored: what checks its sign-ins. Nothing here is secret (the
/// private key never leaves the person's device).
public struct StoredPasskey: Hashable, Sendable {
    /// Identifier.
    public let id: UUID
    /// The account it signs in.
    public let userID: UserID
    /// The account's practice.
    public let practiceID: PracticeID
    /// The credential's id, as the authenticator made it.
    public let credentialID: Data
    /// The public key, X9.63 (P-256).
    public let publicKey: Data
    /// The host name it belongs to (the WebAuthn relying party).
    public let relyingParty: String
    /// The web app's origin it was made at.
    public let origin: String
    /// What its owner calls it ("iPad", "Phone").
    public let name: String
    /// The authenticator's counter at its last use.
    public let signCount: Int64
    /// When it was made.
    public let createdAt: Date
    /// When it last signed in or unlocked.
    public let lastUsedAt: Date?

    /// Creates the value.
    public init(
        id: UUID, userID: UserID, practiceID: PracticeID, credentialID: Data, publicKey: Data, relyingParty: String,
        origin: String, name: String, signCount: Int64, createdAt: Date, lastUsedAt: Date?
    ) {
        self.id = id
        self.userID = userID
        self.practiceID = practiceID
        self.credentialID = credentialID
        self.publicKey = publicKey
        self.relyingParty = relyingParty
        self.origin = origin
        self.name = name
        self.signCount = signCount
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}

/// Where passkeys are kept. The checks (the signature, the challenge, the counter, who may
/// have one) are ``AccountService``'s; a store keeps the keys and makes spending a challenge
/// atomic, so one answer cannot open two sessions even on two instances.
public protocol PasskeyRepository: Sendable {
    /// The passkeys of `userID` in `practiceID`, oldest first.
    func passkeys(userID: UserID, practiceID: PracticeID) async throws -> [StoredPasskey]

    /// Keeps `passkey` for the caller (its `userID`), audited. When `firstFactor` is true it is
    /// the account's first second factor: every other session of the account is revoked and the
    /// session of `tokenHash` counts as proven by a second factor, as a confirmed code does.
    /// ``SharedKernel/DomainError/conflict(_:)`` when its credential id is registered already.
    func addPasskey(_ passkey: StoredPasskey, firstFactor: Bool, tokenHash: String, scope: AccessScope) async throws

    /// Records a sign-in by passkey `id` of `userID`: its counter becomes `signCount` and
    /// `challenge` its last answered one, provided the counter is still `expectedSignCount` and
    /// the challenge is not the last one answered. `false` (changing nothing) otherwise: the
    /// same answer sent twice, or two sign-ins racing with one key.
    func spendPasskeyChallenge(
        _ challenge: String, passkeyID: UUID, userID: UserID, practiceID: PracticeID, expectedSignCount: Int64,
        signCount: Int64, at: Date
    ) async throws -> Bool

    /// Removes the caller's passkey `id`, audited; ``SharedKernel/DomainError/notFound(resource:)``
    /// when the caller has no such passkey.
    func removePasskey(id: UUID, scope: AccessScope) async throws
}

extension StoredPasskey {
    /// The refusal of a passkey whose credential id is registered already (in any practice).
    public static let alreadyRegistered = DomainError.conflict("This passkey is registered already.")

    /// The audit entry of adding this passkey; an account's first second factor ends its other
    /// sessions, and the entry says so.
    public func addedAudit(firstFactor: Bool) -> AuditRecord {
        AuditRecord(
            action: .authPasskeyAdd, resourceType: .user, resourceID: userID.description,
            detail: "passkey=\(UUIDText.lowercase(id)) site=\(relyingParty)"
                + (firstFactor ? "; first second factor, other sessions revoked" : ""))
    }
}
