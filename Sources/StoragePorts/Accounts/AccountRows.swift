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
}
