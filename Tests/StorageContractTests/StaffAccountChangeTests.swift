import Foundation
import SharedKernel
import StoragePorts
import Testing

/// The staff account change both stores ask, without a store.
@Suite("Staff account change: one decision for both stores")
struct StaffAccountChangeTests {
    let account = StaffAccount(
        id: UserID(), practiceID: PracticeID(), email: "sam@example.com", displayName: "Sam", role: .technician,
        disabled: false, createdAt: Date(timeIntervalSince1970: 1_790_000_000), version: 3)

    @Test("disabling ends the account's sessions; a role change keeps them; the trail names what changed")
    func changes() throws {
        let disabled = try StaffAccountChange.decide(account, expectedVersion: 3, role: nil, disabled: true)
        #expect(disabled.account.disabled && disabled.account.version == 4 && disabled.revokesSessions)
        #expect(disabled.audit.action == .userUpdate && disabled.audit.detail == "disabled=true")
        #expect(disabled.audit.resourceID == account.id.description)

        let promoted = try StaffAccountChange.decide(account, expectedVersion: nil, role: .veterinarian, disabled: nil)
        #expect(promoted.account.role == .veterinarian && !promoted.revokesSessions)
        #expect(promoted.audit.detail == "role=veterinarian")
    }

    @Test("an old version or a missing account is refused")
    func refusals() {
        #expect(throws: DomainError.versionMismatch(current: 3)) {
            try StaffAccountChange.decide(account, expectedVersion: 2, role: .receptionist, disabled: nil)
        }
        #expect(throws: DomainError.notFound(resource: "user")) {
            try StaffAccountChange.decide(nil, expectedVersion: nil, role: .receptionist, disabled: nil)
        }
    }
}
