import Foundation
import SharedKernel

/// Reading a stored staff account back, as both stores do.
public enum AccountRows {
    /// The account in `row` (the columns of `staff_user` but its password hash); an unknown
    /// role is refused, never read as another.
    public static func account(from row: some StoredRow) throws -> StaffAccount {
        let columns = StoredColumns(row, table: "staff_user")
        return StaffAccount(
            id: UserID(try columns.uuid("id")), practiceID: PracticeID(try columns.uuid("practice_id")),
            email: try columns.text("email"), displayName: try columns.text("display_name"),
            role: try columns.word("role"), disabled: try columns.bool("disabled"),
            createdAt: try columns.instant("created_at"), version: try columns.int("version"))
    }

    /// The row that stores `account` in its practice with `passwordHash` (a restored account
    /// gets one no password matches).
    public static func insert(_ account: StaffAccount, passwordHash: String) -> StoredInsert {
        StoredInsert(
            "staff_user",
            [
                "id": .uuid(account.id.rawValue), "practice_id": .uuid(account.practiceID.rawValue),
                "email": .text(account.email), "display_name": .text(account.displayName),
                "role": .text(account.role.rawValue), "password_hash": .text(passwordHash),
                "disabled": .flag(account.disabled), "created_at": .time(account.createdAt),
                "version": .integer(Int64(account.version)),
            ])
    }

    /// The columns ``sharedDevice(from:)`` reads (never the device's token hash).
    public static let sharedDeviceColumns = "id, practice_id, name, idle_lock_seconds, registered_by, registered_at_ms"

    /// The shared device in `row` (its ``sharedDeviceColumns``): a device with no name, lock
    /// time or registration time is refused, never shown as registered in 1970.
    public static func sharedDevice(from row: some StoredRow) throws -> SharedDevice {
        let columns = StoredColumns(row, table: "shared_device")
        return SharedDevice(
            id: try columns.uuid("id"), practiceID: PracticeID(try columns.uuid("practice_id")),
            name: try columns.text("name"), idleLockSeconds: try columns.int("idle_lock_seconds"),
            registeredAt: try columns.instant("registered_at_ms"),
            registeredBy: try columns.optionalUUID("registered_by").map(UserID.init))
    }

    /// The columns ``passkey(from:)`` reads.
    public static let passkeyColumns = """
        id, user_id, practice_id, credential_id, public_key, relying_party, origin, name, sign_count, created_at_ms, \
        last_used_at_ms
        """

    /// The passkey in `row` (its ``passkeyColumns``): one without its credential, key, name or
    /// counter is refused, never offered to a sign-in as a nameless key.
    public static func passkey(from row: some StoredRow) throws -> StoredPasskey {
        let columns = StoredColumns(row, table: "passkey")
        return StoredPasskey(
            id: try columns.uuid("id"), userID: UserID(try columns.uuid("user_id")),
            practiceID: PracticeID(try columns.uuid("practice_id")), credentialID: try columns.bytes("credential_id"),
            publicKey: try columns.bytes("public_key"), relyingParty: try columns.text("relying_party"),
            origin: try columns.text("origin"), name: try columns.text("name"),
            signCount: try columns.integer("sign_count"), createdAt: try columns.instant("created_at_ms"),
            lastUsedAt: try columns.optionalInstant("last_used_at_ms"))
    }
}
