import Foundation
import SharedKernel
import StorageSupport

/// The rows that store sign-in — a session, a passkey, a shared device — as both stores write
/// them; ``AccountRows`` reads them back.
extension AccountRows {
    /// A new session's row for `account`, by the SHA-256 of its token (the token itself is
    /// never stored), started `now`; and when it ends unless used again (its idle expiry, never
    /// past its absolute end).
    public static func session(
        tokenHash: String, account: StaffAccount, assurance: SessionAssurance, policy: SessionPolicy, now: Date
    ) -> (row: StoredInsert, expiresAt: Date) {
        let absolute = now.addingTimeInterval(policy.absoluteTimeout)
        let row = StoredInsert(
            "session",
            [
                "token_hash": .text(tokenHash), "user_id": .uuid(account.id.rawValue),
                "practice_id": .uuid(account.practiceID.rawValue), "created_at_ms": .milliseconds(now),
                "last_seen_at_ms": .milliseconds(now), "expires_at_ms": .milliseconds(absolute),
                "second_factor": .flag(assurance.secondFactor),
                "must_enrol": .flag(assurance.mustEnrolSecondFactor),
            ])
        return (row, min(now.addingTimeInterval(policy.idleTimeout), absolute))
    }

    /// A passkey's row: its credential and public key as the authenticator gave them.
    public static func insert(_ passkey: StoredPasskey) -> StoredInsert {
        StoredInsert(
            "passkey",
            [
                "id": .uuid(passkey.id), "user_id": .uuid(passkey.userID.rawValue),
                "practice_id": .uuid(passkey.practiceID.rawValue), "credential_id": .bytes(passkey.credentialID),
                "public_key": .bytes(passkey.publicKey), "relying_party": .text(passkey.relyingParty),
                "origin": .text(passkey.origin), "name": .text(passkey.name),
                "sign_count": .integer(passkey.signCount), "created_at_ms": .milliseconds(passkey.createdAt),
            ])
    }

    /// A shared device registered now in the scope's practice by the scope's account, and its
    /// row, by the SHA-256 of its token.
    public static func sharedDevice(
        name: String, idleLockSeconds: Int, tokenHash: String, scope: AccessScope, now: Date
    ) -> (device: SharedDevice, row: StoredInsert) {
        let device = SharedDevice(
            id: UUID(), practiceID: scope.practiceID, name: name, idleLockSeconds: idleLockSeconds,
            registeredAt: now, registeredBy: scope.actorID)
        let row = StoredInsert(
            "shared_device",
            [
                "id": .uuid(device.id), "practice_id": .uuid(scope.practiceID.rawValue), "name": .text(name),
                "idle_lock_seconds": .integer(Int64(idleLockSeconds)), "token_hash": .text(tokenHash),
                "registered_by": .uuid(scope.actorID?.rawValue), "registered_at_ms": .milliseconds(now),
            ])
        return (device, row)
    }

    /// A staff member's PIN for shared devices, by its hash, set `at` (replacing any before).
    public static func pin(hash: String, userID: UserID, practiceID: PracticeID, at: Date) -> StoredInsert {
        StoredInsert(
            "staff_pin",
            [
                "user_id": .uuid(userID.rawValue), "practice_id": .uuid(practiceID.rawValue), "pin_hash": .text(hash),
                "set_at_ms": .milliseconds(at),
            ]
        ).upserting(on: ["user_id"], replacing: ["pin_hash", "set_at_ms"])
    }

    /// A staff member's latest sign-in on a shared device, with whether it proved a second
    /// factor (replacing the one before).
    public static func deviceSignIn(
        deviceID: UUID, userID: UserID, practiceID: PracticeID, secondFactor: Bool, at: Date
    ) -> StoredInsert {
        StoredInsert(
            "shared_device_sign_in",
            [
                "device_id": .uuid(deviceID), "user_id": .uuid(userID.rawValue),
                "practice_id": .uuid(practiceID.rawValue), "signed_in_at_ms": .milliseconds(at),
                "second_factor": .flag(secondFactor),
            ]
        ).upserting(on: ["device_id", "user_id"], replacing: ["signed_in_at_ms", "second_factor"])
    }

    /// A second factor being enrolled: its secret sealed, pending until confirmed (replacing
    /// an enrolment not finished).
    public static func pendingSecondFactor(
        secret: [UInt8], userID: UserID, practiceID: PracticeID, cipher: RecordCipher
    ) throws -> StoredInsert {
        let sealed = try SealedSecondFactor.seal(secret, userID: userID, practiceID: practiceID, cipher: cipher)
        return StoredInsert(
            "second_factor",
            [
                "user_id": .uuid(userID.rawValue), "practice_id": .uuid(practiceID.rawValue),
                "sealed_pending": .bytes(sealed),
            ]
        ).upserting(on: ["user_id"], replacing: ["sealed_pending"])
    }
}
