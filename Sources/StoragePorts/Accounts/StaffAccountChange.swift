import Foundation
import SharedKernel

/// A change to a staff account's role or disabled flag, decided once for both stores: the
/// version check, the account after it, whether its sessions end, and the audit entry. The
/// store reads the account (locked) and writes what this names.
public struct StaffAccountChange: Sendable {
    /// The account as it is to be stored, at its next version.
    public let account: StaffAccount
    /// Whether every session of the account is revoked with the change: a disabled account
    /// signs nobody in. A role change needs none, as each request reads the current role.
    public let revokesSessions: Bool
    /// Its audit entry, naming what changed.
    public let audit: AuditRecord

    /// Decides changing `current` (not found when `nil`; refused unless `expectedVersion`, when
    /// given, is its version); `nil` leaves a field as it is.
    public static func decide(
        _ current: StaffAccount?, expectedVersion: Int?, role: Role?, disabled: Bool?
    ) throws -> StaffAccountChange {
        guard var account = current else { throw DomainError.notFound(resource: "user") }
        if let expectedVersion, expectedVersion != account.version {
            throw DomainError.versionMismatch(current: account.version)
        }
        if let role { account.role = role }
        if let disabled { account.disabled = disabled }
        account.version += 1
        var changes: [String] = []
        if let role { changes.append("role=\(role.rawValue)") }
        if let disabled { changes.append("disabled=\(disabled)") }
        return StaffAccountChange(
            account: account, revokesSessions: account.disabled,
            audit: AuditRecord(
                action: .userUpdate, resourceType: .user, resourceID: account.id.description,
                detail: changes.joined(separator: " ")))
    }
}
